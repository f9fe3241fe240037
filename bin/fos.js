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

// Node's own modules a client command loads, then the V8 flags (bin/compile-cache.cjs says why
// in this order and which flags); the standalone binary (bin/sea-main.cjs) starts the same way.
const { preloadClientBuiltins, requireWithCodeCache, setV8Flags } = require('./compile-cache.cjs');
preloadClientBuiltins();
setV8Flags('client');

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
    setV8Flags('serve');
    setV8Flags('serveBoot');
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
