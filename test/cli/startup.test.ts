// `fos --version` and `fos --help` must not load the server, Prisma, undici (nor conf or the
// prompt library), and a client command loads its own command group and nothing heavy. bin/fos.js
// runs client commands from dist/cli.cjs (the CLI bundle, scripts/cli-bundle.mjs) and falls back
// to dist/ (tsc) without it: both ways are checked here, each in a directory of its own.
//  - dist/ (tsc): a copy of dist/ without the bundle, and the process's imports are traced.
//  - the bundle: built with a trace hook in every module (bundleCli's `trace`), so the test sees
//    which of the bundled modules ran; no dist/cli/ module may be imported then.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCliBundle } from '../../scripts/cli-bundle.mjs';
import { COMMAND_SECTIONS } from '../../src/cli/commands/index.js';
import { createContext } from '../../src/cli/context.js';
import { testIOStreams } from '../../src/cli/iostreams.js';

const root = path.resolve(import.meta.dirname, '../..');
const base = path.join(root, '.tmp', `cli-startup-${process.pid}`);
const esmOut = path.join(base, 'esm');
const bundleOut = path.join(base, 'bundle');
const trace = path.join(base, 'imports.txt');
const bundleTrace = path.join(base, 'bundle-modules.txt');
const probe = path.join(base, 'probe.json');
const tracer = path.join(root, 'test/cli/fixtures/trace-imports.mjs');
const builtinsProbe = path.join(root, 'test/cli/fixtures/builtins-probe.cjs');

function copyBin(out: string) {
  mkdirSync(path.join(out, 'bin'), { recursive: true });
  for (const f of ['fos.js', 'compile-cache.cjs', 'package.json']) copyFileSync(path.join(root, 'bin', f), path.join(out, 'bin', f));
  copyFileSync(path.join(root, 'package.json'), path.join(out, 'package.json'));
}

beforeAll(async () => {
  rmSync(base, { recursive: true, force: true });
  // dist/ as `npm run build` (pretest) made it, without the bundle: the fallback bin/fos.js takes.
  // Copied rather than compiled again (a tsc run of its own took ~25 s of CPU: issue 22 item 10).
  if (!existsSync(path.join(root, 'dist/cli/main.js'))) throw new Error('dist/ is missing: npm run build');
  copyBin(esmOut);
  cpSync(path.join(root, 'dist'), path.join(esmOut, 'dist'), {
    recursive: true,
    filter: (src) => !/[/\\]dist[/\\](cli\.cjs|sea|\.tsbuildinfo)/.test(src) && !src.endsWith('.map'),
  });
  copyBin(bundleOut);
  await buildCliBundle({ outfile: path.join(bundleOut, 'dist/cli.cjs'), trace: true });
}, 120_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  imports: string[];
  bundled: string[];
}

/** Runs `<out>/bin/fos.js args` with the import tracer (or `nodeArgs` instead), against `api` if given. */
async function fos(out: string, args: string[], { api, nodeArgs }: { api?: string; nodeArgs?: string[] } = {}): Promise<Run> {
  rmSync(trace, { force: true });
  rmSync(bundleTrace, { force: true });
  const child = spawn(process.execPath, [...(nodeArgs ?? ['--import', tracer]), path.join(out, 'bin/fos.js'), ...args], {
    env: {
      PATH: process.env.PATH,
      FOS_TRACE_IMPORTS: trace,
      FOS_TRACE_BUNDLE: bundleTrace,
      FOS_PROBE_OUT: probe,
      FOS_CONFIG_DIR: path.join(base, 'config'),
      ...(api ? { FOS_BASE_URL: api, FOS_API_KEY: 'fos_test' } : {}),
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const status = await new Promise<number | null>((r) => child.on('close', r));
  return { status, stdout, stderr, imports: lines(trace), bundled: lines(bundleTrace) };
}

/** A stand-in API answering every request with one product. */
async function withApi<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const api = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ data: [{ id: 'p1', sku: 'A' }], meta: { page: 0, page_size: 20, total: 1 } }));
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  try {
    return await fn(`http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`);
  } finally {
    api.close();
  }
}

const HEAVY = [/\/src\/server\/|\/dist\/server\//, /prisma/i, /\/node_modules\/undici\//, /\/node_modules\/conf\//, /@inquirer/, /fastify/];
/**
 * What a client command that prints JSON needs none of: tables, CSV, ajv, other command groups.
 * typebox may load: `--json id` checks its fields against the contract's response schema before
 * the request (src/cli/output/precheck.ts), ~30 ms of CPU paid only when fields are selected.
 */
const NOT_FOR_JSON = [/\/node_modules\/(cli-table3|csv-parse|ajv|jq-wasm|mustache)\//, /\/dist\/cli\/commands\/(?!products\/|index\.js)/];
/** The same for the bundle's module paths (relative to the repository, node_modules possibly under ../). */
const BUNDLED_NOT_FOR_JSON = [
  /node_modules\/(cli-table3|csv-parse|ajv|jq-wasm|mustache|conf|@inquirer)\//,
  /src\/server\//,
  /src\/cli\/commands\/(?!products\/|index\.ts)/,
  /node_modules\/undici\/(index\.js|lib\/web\/)/,
];

describe('startup stays light: dist/ (tsc), when the bundle is missing', () => {
  it.each([[['--version']], [['--help']], [['products', 'list', '--help']]])('fos %j', async (args) => {
    const r = await fos(esmOut, args);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toBe('');
    // --version alone is answered by bin/fos.js from package.json, without the command tree.
    if (args[0] === '--version') expect(r.imports.filter((u) => u.includes('/dist/'))).toEqual([]);
    else expect(r.imports.some((u) => u.includes('/dist/cli/main.js'))).toBe(true);
    for (const heavy of HEAVY) expect(r.imports.filter((u) => heavy.test(u))).toEqual([]);
  });

  it("fos products list --json id against a server loads the products group and undici's Agent, nothing heavier", async () => {
    const r = await withApi((api) => fos(esmOut, ['products', 'list', '--json', 'id'], { api }));
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'p1' }]);
    expect(r.imports.some((u) => u.includes('/dist/cli/commands/products/list.js'))).toBe(true);
    // undici's Agent and request API, not its package index (fetch, WebSocket, caches: src/client/transport.ts).
    expect(r.imports.some((u) => u.includes('/node_modules/undici/lib/dispatcher/agent.js'))).toBe(true);
    const heavier = [
      ...HEAVY.filter((h) => !h.test('/node_modules/undici/')),
      /\/node_modules\/undici\/(index\.js|lib\/web\/)/,
      ...NOT_FOR_JSON,
    ];
    for (const heavy of heavier) expect(r.imports.filter((u) => heavy.test(u))).toEqual([]);
  });
});

describe('startup stays light: the CLI bundle', () => {
  it.each([[['--help']], [['products', 'list', '--help']]])(
    'fos %j runs from the bundle and loads neither undici nor server code',
    async (args) => {
      const r = await fos(bundleOut, args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/Usage: fos/);
      expect(r.imports.filter((u) => u.includes('/dist/cli/'))).toEqual([]);
      expect(r.bundled).toContain('src/cli/main.ts');
      for (const heavy of [/undici/, /src\/server\//, /conf\//, /@inquirer/]) expect(r.bundled.filter((m) => heavy.test(m))).toEqual([]);
    },
  );

  it("fos products list --json id runs the products group and undici's Agent, nothing heavier, and no node:http2", async () => {
    const r = await withApi((api) => fos(bundleOut, ['products', 'list', '--json', 'id'], { api }));
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'p1' }]);
    expect(r.imports.filter((u) => u.includes('/dist/cli/'))).toEqual([]);
    expect(r.bundled).toContain('src/cli/commands/products/list.ts');
    expect(r.bundled.some((m) => m.endsWith('node_modules/undici/lib/dispatcher/agent.js'))).toBe(true);
    for (const heavy of BUNDLED_NOT_FOR_JSON) expect(r.bundled.filter((m) => heavy.test(m))).toEqual([]);
    // undici's HTTP/2 client (node:http2, tls, crypto) loads on first use (scripts/cli-bundle.mjs).
    expect(r.bundled.filter((m) => m.endsWith('client-h2.js'))).toEqual([]);
  });

  it("compiles no Node module without Node's code cache (the V8 flag is set after them) and reuses its own", async () => {
    const probed = async (args: string[], api: string) => {
      const r = await fos(bundleOut, args, { api, nodeArgs: ['--expose-internals', '-r', builtinsProbe] });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(readFileSync(probe, 'utf8')) as { loaded: string[]; withoutCache: string[] };
    };
    // A bare node compiles a few without cache too (those Node ships none for): the baseline.
    spawnSync(process.execPath, ['--expose-internals', '-r', builtinsProbe, '-e', '0'], { env: { FOS_PROBE_OUT: probe } });
    const bare = JSON.parse(readFileSync(probe, 'utf8')) as { withoutCache: string[] };
    const cacheDir = path.join(bundleOut, 'dist/cli.cjs.cache');
    rmSync(cacheDir, { recursive: true, force: true });
    const first = await withApi((api) => probed(['products', 'list', '--json', 'id'], api));
    expect(first.loaded).not.toContain('http2');
    expect(first.withoutCache.filter((m) => !bare.withoutCache.includes(m))).toEqual([]);
    // The first run wrote the bundle's code cache; the next one reads it, so does not write it again.
    const [cache] = readdirSync(cacheDir);
    const written = statSync(path.join(cacheDir, cache)).mtimeMs;
    await withApi((api) => probed(['products', 'list', '--json', 'id'], api));
    expect(readdirSync(cacheDir)).toEqual([cache]);
    expect(statSync(path.join(cacheDir, cache)).mtimeMs).toBe(written);
  });

  it('runs server commands from dist/: the bundle holds no server code', async () => {
    // Without dist/cli/main.js beside it, `fos serve` reports that dist/ is missing instead of
    // starting: proof that bin/fos.js did not try it from the bundle.
    const r = await fos(bundleOut, ['serve', '--help']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/dist\/ is missing/);
  });
});

describe('the command table and bin/fos.js', () => {
  it('every entry of the command table builds the command it is named for', async () => {
    const ctx = createContext({ io: testIOStreams(), env: {} });
    for (const [, entries] of COMMAND_SECTIONS) {
      for (const e of entries) expect((await e.load()).default(ctx).name()).toBe(e.name);
    }
  });

  it('prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect((await fos(esmOut, ['--version'])).stdout).toBe(`${version}\n`);
    expect((await fos(bundleOut, ['--version'])).stdout).toBe(`${version}\n`);
  });

  it('bin/fos.js is an executable node script', () => {
    const bin = readFileSync(path.join(root, 'bin/fos.js'), 'utf8');
    expect(bin.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(spawnSync('test', ['-x', path.join(root, 'bin/fos.js')]).status).toBe(0);
  });
});
