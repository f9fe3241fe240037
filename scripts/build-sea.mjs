#!/usr/bin/env node
// `npm run build:sea`: fos as one executable file, dist/sea/fos (Node's single-executable
// applications: https://nodejs.org/api/single-executable-applications.html), every command
// including `fos serve`, for a machine with no Node and no node_modules (docs/fulfill-run.md,
// "Standalone binary").
//  1. esbuild bundles the CLI twice, as CommonJS with every package inside: cli.cjs, the client
//     commands (what dist/cli.cjs is to bin/fos.js), and server.cjs, the whole CLI with the
//     server commands, its server code evaluated only when a server command runs.
//  2. The assets (scripts/sea-assets.mjs): both bundles, the files the server reads (migrations,
//     /floor, native addons, CARRIED), the WebAssembly the bundles held as base64, and
//     manifest.json, which lists them with the build's hash.
//  3. node --experimental-sea-config makes the preparation blob of bin/sea-main.cjs (bundled
//     with bin/compile-cache.cjs; its SEA code cache on) and the assets.
//  4. A copy of this node binary gets the blob injected with postject.
// VERSION is fixed at bundle time. esbuild's install script is disabled (package.json
// allowScripts); it runs from its platform package (@esbuild/linux-x64 here). `--bundle-only`
// stops after step 1; FOS_SEA_OUT names another output directory than dist/sea.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleCli, ROOT } from './cli-bundle.mjs';
import { carriedFiles, SEA_PATHS_BANNER, seaPaths, wasmAssets } from './sea-assets.mjs';

const started = performance.now();
const OUT = process.env.FOS_SEA_OUT ? path.resolve(process.env.FOS_SEA_OUT) : path.join(ROOT, 'dist/sea');
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const binary = path.join(OUT, process.platform === 'win32' ? 'fos.exe' : 'fos');
const MiB = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

// cli.cjs: the client commands; bin/sea-main.cjs asks it whether a command line needs the server.
const CLIENT_ENTRY = `
import { run as runCli, loadsServerModule } from './src/cli/main.ts';
import { createContext } from './src/cli/context.ts';
export { loadsServerModule };
export const run = (argv: string[]) => runCli(argv, createContext(), {
  loadServerCommands: async () => { throw new Error('cli.cjs runs client commands only: bin/sea-main.cjs runs server commands from server.cjs'); },
});
`;
// server.cjs: the server commands (and completion, which lists them), as bin/fos.js runs them from dist/.
const SERVER_ENTRY = `
import { run as runCli } from './src/cli/main.ts';
import { createContext } from './src/cli/context.ts';
export const run = (argv: string[]) => runCli(argv, createContext(), { loadServerCommands: () => import('./src/server/cli.ts') });
`;

/** src/version.ts reads package.json next to dist/ at run time; the binary has none. */
const fixedVersion = {
  name: 'fixed-version',
  setup(b) {
    b.onLoad({ filter: /[/\\]src[/\\]version\.ts$/ }, () => ({
      contents: `export const VERSION = ${JSON.stringify(version)};`,
      loader: 'ts',
    }));
  },
};

rmSync(OUT, { recursive: true, force: true });
const stage = path.join(OUT, 'assets');
mkdirSync(stage, { recursive: true });

// 1. The bundles.
const wasm = new Map();
const plugins = [fixedVersion, wasmAssets(wasm)];
const cli = path.join(stage, 'cli.cjs');
const server = path.join(stage, 'server.cjs');
await bundleCli({ entry: CLIENT_ENTRY, outfile: cli, plugins });
await bundleCli({
  entry: SERVER_ENTRY,
  outfile: server,
  plugins: [...plugins, seaPaths(ROOT)],
  withServer: true,
  banner: [SEA_PATHS_BANNER],
});
console.log(`bundled cli.cjs (${MiB(statSync(cli).size)}) and server.cjs (${MiB(statSync(server).size)})`);
if (process.argv.includes('--bundle-only')) process.exit(0);

// 2. The assets: name -> file on disk; the manifest lists what bin/sea-main.cjs writes out.
const assets = {};
const group = (entries) => entries.map(({ name, file, mode = 0o644 }) => ((assets[name] = file), { name, mode }));
const packageJson = path.join(stage, 'package.json'); // packageRoot() (src/db/migrate.ts) looks for it
writeFileSync(packageJson, `${JSON.stringify({ name: 'fos', version, private: true })}\n`);
const groups = {
  client: group([{ name: 'cli.cjs', file: cli }]),
  server: group([{ name: 'package.json', file: packageJson }, { name: 'server.cjs', file: server }, ...carriedFiles(ROOT)]),
};
for (const [key, bytes] of wasm) {
  const file = path.join(stage, key);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  assets[key] = file;
}
const hash = createHash('sha256');
for (const [name, file] of Object.entries(assets).sort()) hash.update(name).update('\0').update(readFileSync(file));
const manifest = { version, hash: hash.digest('hex').slice(0, 16), groups };
assets['manifest.json'] = path.join(stage, 'manifest.json');
writeFileSync(assets['manifest.json'], JSON.stringify(manifest));

// 3. The main script and the blob.
const main = path.join(OUT, 'sea-main.cjs');
await build({
  entryPoints: [path.join(ROOT, 'bin/sea-main.cjs')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: main,
  logLevel: 'warning',
});
const seaConfig = path.join(OUT, 'sea-config.json');
const blob = path.join(OUT, 'sea-prep.blob');
writeFileSync(
  seaConfig,
  `${JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }, null, 2)}\n`,
);
execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: ['ignore', 'ignore', 'inherit'] });

// 4. The executable. postject writes the file in one piece, which leaves it in the page cache as
// large folios that the kernel then maps whole: each start of that file had ~15 MiB more of it
// resident (peak RSS of `fos --version` 52 MiB, against 37 MiB for a copy of the same file, which
// is what a download or an install makes). So the injected file is copied once more.
const injected = `${binary}.injected`;
copyFileSync(process.execPath, injected);
const postject = path.join(ROOT, 'node_modules/postject/dist/cli.js');
const args = [postject, injected, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SENTINEL_FUSE];
if (process.platform === 'darwin') args.push('--macho-segment-name', 'NODE_SEA');
execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
copyFileSync(injected, binary);
chmodSync(binary, 0o755);
rmSync(injected);
rmSync(blob);

const check = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
if (check !== version) throw new Error(`${binary} --version printed "${check}", expected ${version}`);
console.log(
  `built ${binary.startsWith(ROOT) ? path.relative(ROOT, binary) : binary} (${MiB(statSync(binary).size)}: node ${process.version} and ${Object.keys(assets).length} assets, ` +
    `build ${manifest.hash}), fos ${check}, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
