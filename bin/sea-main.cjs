'use strict';
// The standalone executable's main script (`npm run build:sea`, scripts/build-sea.mjs), the
// counterpart of bin/fos.js: Node's single-executable application runs this file, bundled with
// compile-cache.cjs, from the binary. Everything else travels in the binary as SEA assets
// (node:sea) listed by its manifest.json asset:
//  - group "client": cli.cjs, the CLI client bundle (what dist/cli.cjs is to bin/fos.js);
//  - group "server": server.cjs (the CLI with `fos serve`, `admin`, `db`), and the files the
//    server reads from disk: the migrations, the /floor page, the native addons (libSQL's N-API
//    driver, sharp and libvips) with the JavaScript packages that load them (the WAL checkpoint
//    thread requires libsql by path), fonts.
// A group is written once to a cache directory named by the build's hash (a .node cannot be
// loaded from memory: dlopen needs a file; and the server finds its migrations and /floor files
// through import.meta.url, which the bundle points inside that directory). The bundles are then
// required with V8's code cache kept beside them (compile-cache.cjs), as bin/fos.js does; the
// SEA's own code cache (useCodeCache) covers only this small script. WebAssembly (Prisma's query
// compiler, jq) is compiled straight from its asset's memory (getRawAsset) by the bundles.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const sea = require('node:sea');
const { preloadClientBuiltins, requireWithCodeCache, setV8Flags } = require('./compile-cache.cjs');

const manifest = JSON.parse(sea.getAsset('manifest.json', 'utf8'));
const args = process.argv.slice(2);

/**
 * The cache directory for this build: $FOS_SEA_CACHE, else $XDG_CACHE_HOME/fos, else
 * ~/.cache/fos, with a sea-<hash> folder each build. Falls back to a folder of this user's in the
 * temporary directory when home cannot be written (it must be this user's own: a .node is loaded
 * from there).
 */
function cacheDir() {
  const name = `sea-${manifest.hash}`;
  const base = process.env.FOS_SEA_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'fos');
  try {
    fs.mkdirSync(base, { recursive: true });
    fs.accessSync(base, fs.constants.W_OK);
    return path.join(base, name);
  } catch {
    const tmp = path.join(os.tmpdir(), `fos-${process.getuid?.() ?? 'user'}`);
    fs.mkdirSync(tmp, { recursive: true, mode: 0o700 });
    const st = fs.statSync(tmp);
    if (process.getuid && (st.uid !== process.getuid() || (st.mode & 0o022) !== 0))
      throw new Error(`fos: ${tmp} is not this user's own directory; set FOS_SEA_CACHE to a directory of yours`);
    return path.join(tmp, name);
  }
}

/** Writes the assets of `group` under the cache directory once (each file whole, then renamed). */
function extract(dir, group) {
  const done = path.join(dir, `.${group}-extracted`);
  if (fs.existsSync(done)) return;
  for (const { name, mode } of manifest.groups[group]) {
    const target = path.join(dir, name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, new Uint8Array(sea.getRawAsset(name)), { mode });
    fs.renameSync(tmp, target);
  }
  fs.writeFileSync(done, '');
  if (group === 'client') removeOtherBuilds(dir);
}

/**
 * The first start of a new build removes what older builds wrote (~40 MiB each). A process of an
 * older build still running keeps the files it has open; its next start writes them again.
 */
function removeOtherBuilds(dir) {
  const base = path.dirname(dir);
  for (const name of fs.readdirSync(base))
    if (name.startsWith('sea-') && name !== path.basename(dir)) fs.rmSync(path.join(base, name), { recursive: true, force: true });
}

/** Requires a bundle of the cache directory with its code cache, written at exit when it had none. */
function load(dir, file) {
  const bundle = requireWithCodeCache(path.join(dir, file));
  if (bundle.cache !== 'accepted') process.once('exit', bundle.writeCache);
  return bundle.exports;
}

async function main() {
  // Like bin/fos.js: the version without loading anything.
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${manifest.version}\n`);
    return 0;
  }
  preloadClientBuiltins();
  setV8Flags('client');
  const dir = cacheDir();
  extract(dir, 'client');
  const client = load(dir, 'cli.cjs');
  if (!client.loadsServerModule(args)) return client.run(process.argv);
  extract(dir, 'server');
  // `fos serve` sets its flags around loading server.cjs so that V8's flag hash at exit (when the
  // code cache is written: runServe has put the young generation's growth back to its default)
  // is the one it is read under.
  const serve = args.includes('serve');
  if (serve) setV8Flags('serve');
  const server = load(dir, 'server.cjs');
  if (serve) setV8Flags('serveBoot');
  return server.run(process.argv);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`fos: ${err?.stack ?? err}\n`);
    process.exitCode = 1;
  },
);
