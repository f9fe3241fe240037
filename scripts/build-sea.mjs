#!/usr/bin/env node
// `npm run build:sea`: the CLI client as one executable file, dist/sea/fos (Node's
// single-executable applications: https://nodejs.org/api/single-executable-applications.html).
//  1. esbuild bundles src/cli/main.ts and everything it imports into dist/sea/fos.cjs
//     (CommonJS, as Node 20 SEA requires; the same config as dist/cli.cjs, scripts/cli-bundle.mjs,
//     but with every package inside); VERSION is fixed at bundle time; the server commands
//     (`fos serve`, `admin`, `db`) are left out: the binary's --help does not list them, and
//     asked for, they say they need a checkout of the repository (issue 22 item 8).
//  2. node --experimental-sea-config makes the preparation blob.
//  3. A copy of this node binary gets the blob injected with postject.
// esbuild's install script is disabled (package.json allowScripts); it runs from its platform
// package (@esbuild/linux-x64 here), which npm installs as an optional dependency.
// `--bundle-only` stops after step 1 (test/cli/sea-bundle.test.ts runs the bundle with node);
// FOS_SEA_OUT names another output directory than dist/sea.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleCli } from './cli-bundle.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = process.env.FOS_SEA_OUT ? path.resolve(process.env.FOS_SEA_OUT) : path.join(ROOT, 'dist/sea');
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const binary = path.join(OUT, process.platform === 'win32' ? 'fos.exe' : 'fos');

const NO_SERVER =
  'this standalone fos binary is the API client only; `fos serve`, `fos admin` and `fos db` need a checkout of the fos repository (git clone, then npm install && npm start; no package named fos is published on the npm registry)';

// The entry: main.ts's run(), told that no server command runs here. `fos --version` alone is
// answered before any module of the bundle runs (require() keeps them lazy), as bin/fos.js does,
// so it stays within 1.5x of bin/fos.js's (docs/performance.md "CLI start-up").
const entry = `
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(${JSON.stringify(`${version}
`)});
} else {
  const { run } = require('./src/cli/main.ts');
  const { createContext } = require('./src/cli/context.ts');
  run(process.argv, createContext(), { withoutServer: ${JSON.stringify(NO_SERVER)} }).then((code) => { process.exitCode = code; });
}
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
mkdirSync(OUT, { recursive: true });

const bundle = path.join(OUT, 'fos.cjs');
const inputs = await bundleCli({ entry, outfile: bundle, plugins: [fixedVersion] });
console.log(`bundled ${inputs.length} modules into ${path.relative(ROOT, bundle)} (${(statSync(bundle).size / 1024).toFixed(0)} KiB)`);
if (process.argv.includes('--bundle-only')) process.exit(0);

const seaConfig = path.join(OUT, 'sea-config.json');
const blob = path.join(OUT, 'sea-prep.blob');
writeFileSync(
  seaConfig,
  `${JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }, null, 2)}\n`,
);
execFileSync(process.execPath, ['--experimental-sea-config', seaConfig], { stdio: 'inherit' });

copyFileSync(process.execPath, binary);
chmodSync(binary, 0o755);
const postject = path.join(ROOT, 'node_modules/postject/dist/cli.js');
const args = [postject, binary, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SENTINEL_FUSE];
if (process.platform === 'darwin') args.push('--macho-segment-name', 'NODE_SEA');
execFileSync(process.execPath, args, { stdio: 'inherit' });

const check = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
if (check !== version) throw new Error(`${binary} --version printed "${check}", expected ${version}`);
console.log(
  `built ${path.relative(ROOT, binary)} (${(statSync(binary).size / 1024 / 1024).toFixed(0)} MiB), fos ${check}, node ${process.version}`,
);
