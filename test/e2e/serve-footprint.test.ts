import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/db/migrate.js';

// What a restarted `fos serve` (the built CLI, as a warehouse runs it every day) has loaded once
// it answered a list request: only what that request needed. The MCP SDK, the OAuth handlers'
// Express, pdf-lib, undici (webhook deliveries), prom-client (no --metrics-token), the schema engine (the database is up to date)
// and the client commands load when first needed, if ever (docs/performance.md, "Footprint").

const root = packageRoot();
const bin = path.join(root, 'bin', 'fos.js');
const tracer = path.join(root, 'test/cli/fixtures/trace-imports.mjs');
let dir: string;

async function serve(args: string[], trace?: string, request?: (url: string, key: string) => Promise<void>): Promise<string> {
  const child = spawn(
    process.execPath,
    [...(trace ? ['--import', tracer] : []), bin, 'serve', '--db', path.join(dir, 'fos.db'), '--port', '0', ...args],
    {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir, FOS_CONFIG_DIR: dir, FOS_DATA_DIR: dir, ...(trace ? { FOS_TRACE_IMPORTS: trace } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  const exited = new Promise<number | null>((r) => child.on('exit', r));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`fos serve exited (${code}):\n${err}`)));
  });
  try {
    const key =
      /API key \(shown once\): (\S+)/.exec(err)?.[1] ??
      JSON.parse(await readFile(path.join(dir, 'config.json'), 'utf8')).profiles.local.api_key;
    await request?.(url, key);
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
  return err;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fos-serve-footprint-'));
  await serve([]); // first start: migrates and bootstraps
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('fos serve loads what a request needs, when it first needs it', () => {
  it('a restarted server that answered GET /v1/ops/products has loaded no MCP, OAuth, PDF, webhook or schema-engine code', async () => {
    const trace = path.join(dir, 'imports.txt');
    await serve([], trace, async (url, key) => {
      const res = await fetch(`${url}/ops/products?limit=5`, { headers: { 'x-access-token': key } });
      expect(res.status).toBe(200);
    });
    const loaded = (await readFile(trace, 'utf8')).split('\n').filter(Boolean);
    expect(loaded.some((u) => u.includes('/dist/server/routes/'))).toBe(true); // the trace saw the server
    const later = [
      /@modelcontextprotocol/,
      /\/node_modules\/(express|zod|pdf-lib|undici|bwip-js|cli-table3|conf|prom-client)\//, // prom-client: only with --metrics-token
      /schema-engine/,
      /\/dist\/cli\/commands\/(?!index\.js)/,
    ];
    for (const re of later) expect(loaded.filter((u) => re.test(u))).toEqual([]);
  }, 120_000);
});
