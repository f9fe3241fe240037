#!/usr/bin/env node
// The CLI client as one CommonJS file made by esbuild, in two flavours sharing this config:
//  - dist/cli.cjs (`npm run build`; `node scripts/cli-bundle.mjs`): what bin/fos.js runs for
//    client commands. Node 20 loads it with one synchronous read and compile, and bin/fos.js keeps
//    V8's code cache of it (bin/compile-cache.cjs), instead of resolving, reading and linking
//    ~100 ES modules one by one (issue 9, docs/performance.md "CLI start-up"). Packages the CLI
//    imports only with import() when a feature is used (jq, prompts, templates) stay out of it:
//    they are required from node_modules then (lazyImportsRequired), so every start does not
//    read them. undici, which every API command loads, is bundled.
//  - the standalone binary's bundle (scripts/build-sea.mjs): everything in one file.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** bin/fos.js requires this file when it exists; next to dist/version.js, whose ../package.json it reads. */
export const CLI_BUNDLE = path.join(ROOT, 'dist/cli.cjs');

/** Packages every API command loads: bundled even though they are imported with import(). */
const ALWAYS_BUNDLED = new Set(['undici']);

const packageName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2) : spec.split('/').slice(0, 1)).join('/');
const isBare = (spec) => !spec.startsWith('.') && !path.isAbsolute(spec) && !spec.startsWith('node:');

/**
 * `import('pkg')` of a lazily used package (and of a node: module) becomes a require() of it, run
 * when the import() is: the bundle keeps no import() for node's ES module loader. bin/fos.js runs
 * the bundle through vm.Script with a code cache (bin/compile-cache.cjs), and such a script has
 * no working import() on every Node: on Node 20 a script compiled from its code cache loses its
 * dynamic import callback ("A dynamic import callback was not specified", issue 22), and Node 24
 * warns that vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER is experimental. Each such package
 * (jq-wasm, mustache, @inquirer/prompts) has a CommonJS entry, which node loads from node_modules
 * when the feature is used, so every start does not read them.
 */
const lazyImportsRequired = (packages) => ({
  name: 'lazy-imports-required',
  setup(b) {
    // The standalone binary bundles the packages too; its node: modules are required all the same
    // (a single executable's main script has no import() either).
    const lazy = (spec) => spec.startsWith('node:') || (packages && isBare(spec) && !ALWAYS_BUNDLED.has(packageName(spec)));
    b.onResolve({ filter: /^[^./]/ }, (a) => {
      if (a.namespace === 'lazy-require') return { path: a.path, external: true };
      if (a.kind !== 'dynamic-import' || !lazy(a.path)) return undefined;
      return { path: a.path, namespace: 'lazy-require' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-require' }, (a) => ({
      contents: `module.exports = require(${JSON.stringify(a.path)});`,
      loader: 'js',
    }));
  },
});

/** The dynamic imports left in `outfile` for node's loader (none may be, see lazyImportsRequired). */
function dynamicImportsLeft(metafile) {
  return Object.values(metafile.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
}

// undici's HTTP/1 client requires its HTTP/2 one when loaded, and with it node:http2, tls and
// crypto (~3 ms of every start), though HTTP/2 is used only when an https server offers it and
// the Agent allows it (allowH2, off here). In the bundle it is required on first use instead.
// If an undici release changes that line, the bundle keeps the eager require (and
// test/cli/startup.test.ts, which checks that `products list` loads no node:http2, says so).
const UNDICI_CLIENT = /[/\\]undici[/\\]lib[/\\]dispatcher[/\\]client\.js$/;
const EAGER_H2 = "const connectH2 = require('./client-h2.js')";
const LAZY_H2 = "let clientH2\nconst connectH2 = (...args) => (clientH2 ??= require('./client-h2.js'))(...args)";

/**
 * Source changes made while bundling: undici's HTTP/2 client on first use (above), and, with
 * `trace` (test/cli/startup.test.ts), a call at the end of every module that appends its path to
 * the file named by $FOS_TRACE_BUNDLE when it runs (at the end, so that a CommonJS 'use strict'
 * directive stays first), so a test sees which modules a command line ran.
 */
const sourceChanges = (trace) => ({
  name: 'source-changes',
  setup(b) {
    b.onLoad({ filter: trace ? /\.(ts|js|mjs|cjs)$/ : UNDICI_CLIENT }, (a) => {
      let contents = readFileSync(a.path, 'utf8');
      if (UNDICI_CLIENT.test(a.path)) {
        if (contents.includes(EAGER_H2)) contents = contents.replace(EAGER_H2, LAZY_H2);
        else console.warn(`cli-bundle: ${a.path} no longer has \`${EAGER_H2}\`: node:http2 is loaded at start`);
      }
      if (trace) contents += `\n;__fosTraceModule(${JSON.stringify(path.relative(ROOT, a.path).split(path.sep).join('/'))});\n`;
      return { contents, loader: a.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
});
const TRACE_BANNER =
  'function __fosTraceModule(m) { if (process.env.FOS_TRACE_BUNDLE) require("node:fs").appendFileSync(process.env.FOS_TRACE_BUNDLE, m + "\\n"); }';

/** Bundled paths that would mean server code came along (the API's TypeBox schemas may: CSV imports type their columns from them). */
const SERVER_CODE = /src[/\\]server[/\\](?!schemas[/\\])|@prisma|node_modules[/\\]fastify[/\\]|generated[/\\]/;

/**
 * Bundles `entry` (TypeScript source, resolved from the repository root) into `outfile`.
 * `lazyPackages: 'require'` leaves packages imported only with import() out, required when used (see above).
 * `withServer`: the bundle may hold server code (the standalone binary's server.cjs); `banner`:
 * more lines before the bundle's code. Returns the bundled input paths.
 */
export async function bundleCli({ entry, outfile, lazyPackages = 'bundle', plugins = [], trace = false, withServer = false, banner = [] }) {
  const result = await build({
    stdin: { contents: entry, resolveDir: ROOT, sourcefile: 'cli-entry.ts', loader: 'ts' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    plugins: [...plugins, lazyImportsRequired(lazyPackages === 'require'), sourceChanges(trace)],
    // Source .ts files import each other as `./x.js` (NodeNext): let esbuild find the .ts.
    resolveExtensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    // import.meta is empty in CommonJS: src/version.ts finds ../package.json from the bundle's own
    // URL (dist/cli.cjs sits where dist/version.js does).
    define: { 'import.meta.url': '__fosBundleUrl' },
    banner: {
      js: [`const __fosBundleUrl = require("node:url").pathToFileURL(__filename).href;`, ...(trace ? [TRACE_BANNER] : []), ...banner].join(
        '\n',
      ),
    },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  // esbuild writes strings ASCII-only (charset) but keeps some comments as they are: one '…' made
  // V8 hold the whole bundle as a two-byte string, twice the memory and slower to scan.
  const text = readFileSync(outfile, 'utf8');
  if (/[^\x00-\x7f]/.test(text))
    writeFileSync(
      outfile,
      text.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`),
    );
  const inputs = Object.keys(result.metafile.inputs);
  const leaked = withServer ? [] : inputs.filter((p) => SERVER_CODE.test(p));
  if (leaked.length) throw new Error(`the CLI bundle must not contain server code: ${leaked.slice(0, 5).join(', ')}`);
  const dynamic = dynamicImportsLeft(result.metafile);
  if (dynamic.length) throw new Error(`the CLI bundle must not leave import() to node (bin/compile-cache.cjs): ${dynamic.join(', ')}`);
  return inputs;
}

// The entry of dist/cli.cjs. Server commands and `completion` (which lists them) are run by
// bin/fos.js from dist/ (loadsServerModule), so the bundle never imports the server.
const NPM_ENTRY = `
import { run as runCli, loadsServerModule } from './src/cli/main.ts';
import { createContext } from './src/cli/context.ts';
export { loadsServerModule };
export const run = (argv: string[]) => runCli(argv, createContext(), {
  loadServerCommands: async () => { throw new Error('the CLI bundle runs client commands only: bin/fos.js runs server commands from dist/'); },
});
`;

/** Builds dist/cli.cjs; old code caches of it (bin/compile-cache.cjs) go with the old bundle. */
export async function buildCliBundle({ outfile = CLI_BUNDLE, trace = false } = {}) {
  rmSync(`${outfile}.cache`, { recursive: true, force: true });
  return bundleCli({ entry: NPM_ENTRY, outfile, lazyPackages: 'require', trace });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  const inputs = await buildCliBundle();
  console.log(
    `cli-bundle: ${inputs.length} modules into ${path.relative(ROOT, CLI_BUNDLE)} (${Math.round(performance.now() - started)} ms)`,
  );
}
