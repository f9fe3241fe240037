// `fos --version` and `fos --help` must not load the server, Prisma, undici (nor conf or the
// prompt library), and a client command loads its own command group and nothing heavy: compile
// the CLI's import graph alone and trace what the process resolves.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_SECTIONS } from '../../src/cli/commands/index.js';
import { createContext } from '../../src/cli/context.js';
import { testIOStreams } from '../../src/cli/iostreams.js';

const root = path.resolve(import.meta.dirname, '../..');
const out = path.join(root, '.tmp', `cli-startup-${process.pid}`);
const trace = path.join(out, 'imports.txt');
const tracer = path.join(root, 'test/cli/fixtures/trace-imports.mjs');

beforeAll(() => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'bin'), { recursive: true });
  writeFileSync(path.join(out, 'tsconfig.json'), JSON.stringify({
    extends: '../../tsconfig.json',
    compilerOptions: { outDir: 'dist', sourceMap: false },
    files: ['../../src/cli/main.ts'],
    include: [],
  }));
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', out], { stdio: 'pipe' });
  copyFileSync(path.join(root, 'bin/fos.js'), path.join(out, 'bin/fos.js'));
  copyFileSync(path.join(root, 'package.json'), path.join(out, 'package.json'));
  return () => rmSync(out, { recursive: true, force: true });
}, 120_000);

function traced(imports: string): string[] {
  return readFileSync(imports, 'utf8').split('\n').filter(Boolean);
}

function fos(args: string[]) {
  rmSync(trace, { force: true });
  const r = spawnSync(process.execPath, ['--import', tracer, path.join(out, 'bin/fos.js'), ...args], {
    encoding: 'utf8', env: { PATH: process.env.PATH, FOS_TRACE_IMPORTS: trace, FOS_CONFIG_DIR: path.join(out, 'config') },
  });
  return { ...r, imports: traced(trace) };
}

const HEAVY = [/\/src\/server\/|\/dist\/server\//, /prisma/i, /\/node_modules\/undici\//, /\/node_modules\/conf\//, /@inquirer/, /fastify/];
/** What a client command that prints JSON needs none of: tables, CSV, ajv, other command groups. */
const NOT_FOR_JSON = [/\/node_modules\/(cli-table3|csv-parse|ajv|jq-wasm|mustache)\//, /\/dist\/cli\/commands\/(?!products\/|index\.js)/];

describe('startup stays light', () => {
  it.each([[['--version']], [['--help']], [['products', 'list', '--help']]])('fos %j', (args) => {
    const r = fos(args);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toBe('');
    // --version alone is answered by bin/fos.js from dist/version.js, without the command tree.
    const entry = args[0] === '--version' ? '/dist/version.js' : '/dist/cli/main.js';
    expect(r.imports.some((u) => u.includes(entry))).toBe(true);
    if (args[0] === '--version') expect(r.imports.filter((u) => u.includes('/dist/cli/'))).toEqual([]);
    for (const heavy of HEAVY) expect(r.imports.filter((u) => heavy.test(u))).toEqual([]);
  });

  it('fos products list --json id against a server loads the products group and undici\'s Agent, nothing heavier', async () => {
    const api = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: [{ id: 'p1', sku: 'A' }], meta: { page: 0, page_size: 20, total: 1 } }));
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;
    rmSync(trace, { force: true });
    try {
      const child = spawn(process.execPath, ['--import', tracer, path.join(out, 'bin/fos.js'), 'products', 'list', '--json', 'id'], {
        env: { PATH: process.env.PATH, FOS_TRACE_IMPORTS: trace, FOS_CONFIG_DIR: path.join(out, 'config'), FOS_BASE_URL: url, FOS_API_KEY: 'fos_test' },
      });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      const code = await new Promise((r) => child.on('close', r));
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toEqual([{ id: 'p1' }]);
    } finally {
      api.close();
    }
    const imports = traced(trace);
    expect(imports.some((u) => u.includes('/dist/cli/commands/products/list.js'))).toBe(true);
    // undici's Agent and request API, not its package index (fetch, WebSocket, caches: src/client/transport.ts).
    expect(imports.some((u) => u.includes('/node_modules/undici/lib/dispatcher/agent.js'))).toBe(true);
    const heavier = [...HEAVY.filter((h) => !h.test('/node_modules/undici/')), /\/node_modules\/undici\/(index\.js|lib\/web\/)/, ...NOT_FOR_JSON];
    for (const heavy of heavier) expect(imports.filter((u) => heavy.test(u))).toEqual([]);
  });

  it('every entry of the command table builds the command it is named for', async () => {
    const ctx = createContext({ io: testIOStreams(), env: {} });
    for (const [, entries] of COMMAND_SECTIONS) {
      for (const e of entries) expect((await e.load()).default(ctx).name()).toBe(e.name);
    }
  });

  it('prints the package version', () => {
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(fos(['--version']).stdout).toBe(`${version}\n`);
  });

  it('bin/fos.js is an executable node script', () => {
    const bin = readFileSync(path.join(root, 'bin/fos.js'), 'utf8');
    expect(bin.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(spawnSync('test', ['-x', path.join(root, 'bin/fos.js')]).status).toBe(0);
  });
});
