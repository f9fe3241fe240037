#!/usr/bin/env node
'use strict';
// fos: command-line client for the Fulfillment Operations Public API, and its server (`fos serve`).
// CommonJS (bin/package.json), so client commands start without Node's ES module loader: they run
// from dist/cli.cjs, the CLI client in one file (scripts/cli-bundle.mjs, made by `npm run build`),
// with V8's code cache of it (bin/compile-cache.cjs). Server commands run from dist/ (tsc), and so
// does everything when the bundle is missing. docs/performance.md, "CLI start-up".
const path = require('node:path');

// Node 22.1+ keeps V8's compiled code of the modules it loads on disk (in the temp directory)
// and reuses it on the next start; Node 20 has no such cache (the call is skipped there).
require('node:module').enableCompileCache?.();

const args = process.argv.slice(2);
const dist = path.join(__dirname, '../dist');

// `fos --version` alone is what install checks and scripts run: answer it without loading the
// command tree, in about the time node itself takes to start (from package.json, as
// dist/version.js does).
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const fs = require('node:fs');
  if (fs.existsSync(dist)) {
    process.stdout.write(`${JSON.parse(fs.readFileSync(path.join(__dirname, '../package.json'), 'utf8')).version}\n`);
    return;
  }
}

// Node's own modules a client command loads (commander, the API client, undici), loaded before
// the V8 flag below: a V8 flag set at run time changes V8's flag hash, and Node's built-in code
// cache of its own modules is refused for every module loaded afterwards (each compiled from
// source instead: ~15 ms more for `fos products list`). test/cli/startup.test.ts checks that a
// client command compiles none of them without that cache.
for (const builtin of ['node:assert', 'node:async_hooks', 'node:child_process', 'node:diagnostics_channel', 'node:fs/promises', 'node:http', 'node:net', 'node:os', 'node:perf_hooks', 'node:process', 'node:querystring', 'node:stream', 'node:tty', 'node:util']) {
  require(builtin);
}
const { requireWithCodeCache } = require('./compile-cache.cjs');

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
const { setFlagsFromString } = require('node:v8');
setFlagsFromString('--liftoff-only');

/** dist/cli.cjs with its code cache (read under the flags above), or undefined when not built. */
function loadBundle() {
  const file = path.join(dist, 'cli.cjs');
  try {
    return requireWithCodeCache(file);
  } catch (err) {
    if (err?.code === 'ENOENT' && err.path === file) return undefined;
    throw err;
  }
}

async function main() {
  const bundle = loadBundle();
  if (bundle && !bundle.exports.loadsServerModule(args)) {
    // Written under the same flags as it is read with (the server's below would make V8 refuse it).
    if (bundle.cache !== 'accepted') process.once('exit', bundle.writeCache);
    return bundle.exports.run(process.argv);
  }
  if (args.includes('serve')) {
    setFlagsFromString('--semi-space-growth-factor=1');
    setFlagsFromString('--heap-growing-percent=100');
  }
  let cli;
  try {
    cli = await import('../dist/cli/main.js');
  } catch (err) {
    if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/cli/main.js')) {
      process.stderr.write('fos: dist/ is missing; build it first with `npm run build`\n');
      return 1;
    }
    throw err;
  }
  return cli.run(process.argv);
}

main().then((code) => {
  process.exitCode = code;
});
