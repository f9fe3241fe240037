#!/usr/bin/env node
// fos: command-line client for the Fulfillment Operations Public API, and its server (`fos serve`).
// The CLI is compiled to dist/ (npx tsc -p .).
import { setFlagsFromString } from 'node:v8';

// undici parses HTTP with a wasm module that V8 re-compiles (tier-up) on background threads, and
// Node waits for those compiles before it exits: 0.1-0.5 s after a client command's work is done.
// The client needs no optimised parser, so client commands keep baseline (Liftoff) wasm code.
// Server commands keep tier-up: Prisma's query compiler is wasm too and runs for long.
const SERVER_WORDS = new Set(['serve', 'db', 'admin']);
if (!process.argv.slice(2).some((a) => SERVER_WORDS.has(a))) setFlagsFromString('--liftoff-only');

// `fos --version` alone is what install checks and scripts run: answer it without loading the
// command tree (~200 modules), in about the time node itself takes to start.
const args = process.argv.slice(2);
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
