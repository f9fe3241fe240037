#!/usr/bin/env node
// fos: command-line client for the Fulfillment Operations Public API, and its server (`fos serve`).
// The CLI is compiled to dist/ (npx tsc -p .).
import module from 'node:module';
import { setFlagsFromString } from 'node:v8';

// Node 22.1+ keeps V8's compiled code of the modules it loads on disk (in the temp directory)
// and reuses it on the next start; Node 20 has no such cache (the call is skipped there).
module.enableCompileCache?.();

// V8 flags, measured with `npm run bench -- roundtrip` (docs/performance.md, "Footprint"):
// - --liftoff-only: WebAssembly keeps its baseline (Liftoff) code, never re-compiled by TurboFan
//   on background threads. Prisma's query compiler is a ~3 MB wasm module: its optimised code
//   held ~60-75 MiB of a `fos serve` for no measurable CPU per request; client commands used
//   to wait 0.1-0.5 s at exit for those compiles (of undici's parser, jq's).
// - `fos serve` only: --semi-space-growth-factor=1 while the server boots (its allocations are
//   long-lived, a grown young generation only held ~25 MiB of RSS at idle; runServe restores
//   the default once listening), and --heap-growing-percent=100: the old generation may double
//   before the next full GC instead of V8's up-to-4x, which kept RSS under load ~100 MiB lower
//   (garbage awaiting collection) at no measurable CPU per request.
const args = process.argv.slice(2);
setFlagsFromString('--liftoff-only');
if (args.includes('serve')) {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=100');
}

// `fos --version` alone is what install checks and scripts run: answer it without loading the
// command tree, in about the time node itself takes to start.
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  try {
    const { VERSION } = await import('../dist/version.js');
    process.stdout.write(`${VERSION}\n`);
    process.exit(0);
  } catch {
    // dist/ missing: fall through to the usual message below
  }
}

let main;
try {
  main = await import('../dist/cli/main.js');
} catch (err) {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/main.js')) {
    process.stderr.write('fos: dist/ is missing; build it first with `npx tsc -p .`\n');
    process.exit(1);
  }
  throw err;
}
process.exitCode = await main.run(process.argv);
