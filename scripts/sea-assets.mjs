// What the standalone executable carries besides its JavaScript (scripts/build-sea.mjs), and the
// esbuild plugins that make the bundles find it there (bin/sea-main.cjs writes the files out).
//
// To carry another file or folder (a font for labels, say), add its repository-relative path to
// CARRIED: the binary writes it to the same relative path under its cache directory before a
// server command runs, where code that finds it relative to its own source file
// (new URL('../x', import.meta.url)) or with createRequire(import.meta.url).resolve() finds it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** libSQL's name for this platform's driver package (as libsql/index.js picks it). */
function libsqlTarget() {
  const { currentTarget } = require('@neon-rs/load');
  const { familySync, GLIBC } = require('detect-libc');
  const target = currentTarget();
  return familySync() === GLIBC ? target.replace(/-musl$/, '-gnu') : target;
}
const sharpTarget = `${process.platform}${process.platform === 'linux' && require('detect-libc').familySync() !== 'glibc' ? 'musl' : ''}-${process.arch}`;

/** Files and folders (repository-relative) the server commands read from disk. */
export const CARRIED = [
  'prisma/migrations',
  'src/server/floor',
  // libSQL's N-API driver for this platform, and the package that loads it: the WAL checkpoint
  // thread (src/db/wal-checkpointer.ts) requires `libsql` by path.
  'node_modules/libsql',
  'node_modules/@neon-rs/load',
  'node_modules/detect-libc',
  `node_modules/@libsql/${libsqlTarget()}`,
  // sharp (thumbnails of uploaded images, src/domain/files/process.ts): its addon finds libvips
  // through its rpath, $ORIGIN/../../sharp-libvips-<platform>/lib: kept in the same layout.
  `node_modules/@img/sharp-${sharpTarget}`,
  `node_modules/@img/sharp-libvips-${sharpTarget}`,
  // Labels and slips beyond WinAnsi (src/domain/documents/fonts.ts FONT_FACES, font-subset.ts): HarfBuzz's
  // subsetter and the Noto faces, each package with what require.resolve needs to find it.
  'node_modules/harfbuzzjs/package.json',
  'node_modules/harfbuzzjs/dist/harfbuzz-subset.wasm',
  ...fontPackage('latin', ['NotoSans-Regular.ttf', 'NotoSans-Bold.ttf']),
  ...fontPackage('arabic', ['NotoNaskhArabic-Regular.ttf', 'NotoNaskhArabic-Bold.ttf']),
  ...fontPackage('sc', ['NotoSansHans-Regular.otf']),
  ...fontPackage('kr', ['NotoSansKR-Regular.otf']),
];

/** A font package's entry files, its licence (OFL: it travels with the fonts) and the faces fos draws with. */
function fontPackage(name, files) {
  const dir = `node_modules/@embedpdf/fonts-${name}`;
  return [`${dir}/package.json`, `${dir}/dist/index.cjs`, `${dir}/LICENSE`, ...files.map((f) => `${dir}/fonts/${f}`)];
}

/** What is not worth carrying: type declarations, C headers, docs. */
const SKIPPED = /\.(d\.[cm]?ts|h|md|map)$|[/\\]include[/\\]/;

/** Every file under the CARRIED paths, as { name (repository-relative, /), file, mode }. */
export function carriedFiles(root) {
  const out = [];
  const walk = (rel) => {
    const file = path.join(root, rel);
    const st = statSync(file);
    if (st.isDirectory()) for (const e of readdirSync(file).sort()) walk(`${rel}/${e}`);
    else if (!SKIPPED.test(rel)) out.push({ name: rel, file, mode: st.mode & 0o777 });
  };
  for (const rel of CARRIED) walk(rel);
  return out;
}

/**
 * WebAssembly a bundle holds as base64 in JavaScript, moved to an asset the bundle compiles from
 * memory (node:sea getRawAsset): the bundle's source stays small (it is read and kept in memory
 * at every start) and no base64 is decoded. `replace(source, key)` returns the module's new source.
 */
const WASM = [
  {
    // Prisma's query compiler: the generated client (src/generated/*/internal/class.ts) reads
    // `wasm` and passes it to Buffer.from(wasm, 'base64'), which copies bytes as they are.
    filter: /[/\\]@prisma[/\\]client[/\\]runtime[/\\]query_compiler_fast_bg\.(\w+)\.wasm-base64\.mjs$/,
    key: (file) => `wasm/prisma-query-compiler.${/fast_bg\.(\w+)\.wasm/.exec(file)[1]}.wasm`,
    base64: /const wasm = "([A-Za-z0-9+/=]+)"/,
    replace: (_source, key) => `export const wasm = new Uint8Array(require("node:sea").getRawAsset(${JSON.stringify(key)}));\n`,
  },
  {
    // jq (jq-wasm, --jq): Emscripten uses Module.wasmBinary when set, for the file name it looks for.
    filter: /[/\\]jq-wasm[/\\]dist[/\\]build[/\\]jq\.js$/,
    key: () => 'wasm/jq.wasm',
    base64: /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/,
    replace: (source, key) =>
      mustReplace(
        source.replace(/"data:application\/octet-stream;base64,[A-Za-z0-9+/=]+"/, JSON.stringify(key)),
        'var wasmBinary = Module["wasmBinary"];',
        `var wasmBinary = Module["wasmBinary"] || require("node:sea").getRawAsset(${JSON.stringify(key)});`,
      ),
  },
];

function mustReplace(source, from, to) {
  if (!source.includes(from)) throw new Error(`build-sea: \`${from}\` not found: the package changed, see scripts/sea-assets.mjs`);
  return source.replace(from, to);
}

/** The WASM rewrite as an esbuild plugin; each wasm found is added to `assets` (key -> bytes). */
export function wasmAssets(assets) {
  return {
    name: 'sea-wasm-assets',
    setup(b) {
      for (const w of WASM)
        b.onLoad({ filter: w.filter }, (a) => {
          const source = readFileSync(a.path, 'utf8');
          const base64 = w.base64.exec(source)?.[1];
          if (!base64) throw new Error(`build-sea: no inline wasm in ${a.path}: the package changed, see scripts/sea-assets.mjs`);
          const key = w.key(a.path);
          assets.set(key, Buffer.from(base64, 'base64'));
          return { contents: w.replace(source, key), loader: 'js' };
        });
    },
  };
}

/**
 * The server bundle's own paths. Each source file of src/ sees as import.meta.url its place in
 * the cache directory the binary writes out (the bundle, server.cjs, sits at its top), so that
 * the migrations, the /floor page and packageRoot() are found there; createRequire(import.meta.url)
 * calls of packages become require() calls esbuild bundles (there is no node_modules to require
 * from). Native addons (.node) stay outside the bundle, required from the cache directory.
 */
export function seaPaths(root) {
  return {
    name: 'sea-paths',
    setup(b) {
      b.onResolve({ filter: /\.node$/ }, (a) => ({ path: a.path, external: true }));
      b.onLoad({ filter: /[/\\]src[/\\].*\.ts$/ }, (a) => {
        let contents = readFileSync(a.path, 'utf8');
        if (!contents.includes('import.meta.url')) return undefined;
        const rel = path.relative(root, a.path).split(path.sep).join('/');
        contents = contents
          .replace(/const require = createRequire\(import\.meta\.url\);/g, '')
          .replace(/createRequire\(import\.meta\.url\)\(/g, 'require(')
          .replaceAll('import.meta.url', `__fosSeaUrl(${JSON.stringify(rel)})`);
        return { contents, loader: 'ts' };
      });
    },
  };
}
export const SEA_PATHS_BANNER =
  'const __fosSeaUrl = (rel) => require("node:url").pathToFileURL(require("node:path").join(__dirname, rel)).href;';
