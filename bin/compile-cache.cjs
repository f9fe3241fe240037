'use strict';
// Loads a CommonJS file (dist/cli.cjs, the CLI bundle) with V8's code cache of it, kept beside it
// in <file>.cache/. Node 20 has no compile cache of its own (module.enableCompileCache is 22.1+);
// without one, every start parses and compiles the bundle again (docs/performance.md "CLI
// start-up"). The caller writes the cache (writeCache) at the end of a run that had none, so it
// also holds the functions that run compiled. V8 accepts a cache only under the V8 flags it was
// made with: the caller must write it under the flags it was read with. Its name carries the
// bundle's size and mtime and node's version: a rebuilt bundle never meets an old cache (V8 itself
// checks only the source's length, its own version and the flags). Where the directory cannot be
// written, the bundle runs uncached.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

/**
 * Requires `file` through vm.Script with its code cache. `cache`: 'accepted', 'none' or
 * 'rejected'; writeCache() replaces the cache with the code compiled so far.
 */
function requireWithCodeCache(file) {
  const stat = fs.statSync(file);
  const dir = `${file}.cache`;
  const cacheFile = path.join(dir, `${stat.size}-${Math.trunc(stat.mtimeMs)}-${process.version}.v8`);
  const source = fs.readFileSync(file, 'utf8');
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // no cache yet
  }
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
    // No importModuleDynamically: the bundle has no import() (scripts/cli-bundle.mjs checks), as
    // none would work: on Node 20 a script compiled from its cache loses the callback, and Node 24
    // warns that vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER is experimental (issue 22).
  });
  const cache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  const require = (id) => mod.require(id);
  script.runInThisContext().call(mod.exports, mod.exports, require, mod, file, path.dirname(file));
  mod.loaded = true;
  return { exports: mod.exports, cache, writeCache: () => writeCache(script, dir, cacheFile) };
}

function writeCache(script, dir, cacheFile) {
  try {
    const data = script.createCachedData();
    fs.mkdirSync(dir, { recursive: true });
    // Written whole then renamed over, so a concurrent start reads an old cache or this one, never
    // half and never none: the other builds' caches go only once this one is in place (removing
    // them first left the cache missing while a run wrote it, when several ran at once).
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, cacheFile);
    removeStale(dir, path.basename(cacheFile).slice(0, -`${process.version}.v8`.length));
  } catch {
    // read-only install, full disk: run uncached
  }
}

/**
 * Removes the caches of other builds of the bundle, and temporary files a crashed run left
 * (another run's fresh one is its own). This build's caches for other node versions stay: runs of
 * two nodes side by side (Node 20 and 24 on one install, as CI's second pass) each keep their own.
 */
function removeStale(dir, build) {
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith(build) && name.endsWith('.v8')) continue;
    const file = path.join(dir, name);
    try {
      if (name.endsWith('.tmp') && now - fs.statSync(file).mtimeMs < 60_000) continue;
      fs.rmSync(file, { force: true });
    } catch {
      // gone already
    }
  }
}

// Node's own modules a client command loads (commander, the API client, undici), loaded before
// the V8 flag below: a V8 flag set at run time changes V8's flag hash, and Node's built-in code
// cache of its own modules is refused for every module loaded afterwards (each compiled from
// source instead: ~15 ms more for `fos products list`). test/cli/startup.test.ts checks that a
// client command compiles none of them without that cache.
const CLIENT_BUILTINS = ['node:assert', 'node:async_hooks', 'node:child_process', 'node:diagnostics_channel', 'node:fs/promises', 'node:http', 'node:net', 'node:os', 'node:perf_hooks', 'node:process', 'node:querystring', 'node:stream', 'node:tty', 'node:util'];
function preloadClientBuiltins() {
  for (const builtin of CLIENT_BUILTINS) require(builtin);
}

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
// - `fos serve` on Node 20 (V8 11) only: --interrupt-budget 4x V8's default, so a function is
//   optimised by TurboFan after 4x the bytecode run. A request runs hundreds of functions once
//   each; by default V8 11 kept optimising them one after another for thousands of requests (and
//   again after each deoptimisation), each compile 10-60 ms of a helper thread for a function
//   that runs once a request. At 4x the fulfillment's helper-thread CPU fell from ~1.7 to ~0.4 ms
//   and its main thread's stayed within the noise (2x and 8x gained less). Node 22 and 24 (V8 12+,
//   which count invocations instead) spend ~0.5 ms there already, and the same 4x
//   (--invocation-count-for-turbofan=12000) gained nothing: docs/performance.md, "Fulfillment beside its fair floor".
const V8_11 = Number(process.versions.v8.split('.')[0]) < 12;
const V8_FLAGS = {
  client: ['--liftoff-only'],
  serve: ['--heap-growing-percent=100', ...(V8_11 ? ['--interrupt-budget=270336'] : [])],
  // Put back by runServe once listening (src/server/serve-command.ts).
  serveBoot: ['--semi-space-growth-factor=1'],
};
/** Sets V8_FLAGS[which]: 'client' for every command, 'serve' and 'serveBoot' besides for `fos serve`. */
function setV8Flags(which) {
  for (const flag of V8_FLAGS[which]) require('node:v8').setFlagsFromString(flag);
}

module.exports = { preloadClientBuiltins, requireWithCodeCache, setV8Flags, V8_FLAGS };
