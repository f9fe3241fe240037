// Stock writes from the CLI carry an Idempotency-Key made once per run (issue 37 item 7), so the
// client's retry policy (src/client/retry.ts: writes are retried only with a key) repeats them
// after a 503, and the server answers the repeat with its first answer. A loopback server answers
// each command's first POST 503 and the second one 201, recording the keys; the built CLI runs.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/db/migrate.js';
import { tempConfigDir } from './helpers/cli.js';

const ID = '01930000-0000-7000-8000-000000000001';
const posts: { url: string; key: string | undefined }[] = [];
let server: http.Server;
let baseUrl = '';
let configDir = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    if (req.method !== 'POST') return res.writeHead(404, { 'content-type': 'application/problem+json' }).end('{}');
    const key = req.headers['idempotency-key'] as string | undefined;
    posts.push({ url: req.url!, key });
    const first = posts.filter((p) => p.url === req.url).length % 2 === 1;
    if (first) return res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '0' }).end('{"status":503}');
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: ID }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  configDir = await tempConfigDir();
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function fos(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [`${packageRoot()}/bin/fos.js`, ...args, '--json'], {
    env: { PATH: process.env.PATH, HOME: configDir, FOS_CONFIG_DIR: configDir, NO_COLOR: '1', FOS_BASE_URL: baseUrl, FOS_API_KEY: 'fos_k' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('stock writes retry a 503 with one key per run', () => {
  it.each([
    ['inventory adjust', ['inventory', 'adjust', '--warehouse', ID, '--reason', 'FOUND', 'MUG:2'], '/v1/ops/inventory/adjustments'],
    ['inventory count', ['inventory', 'count', '--warehouse', ID, 'MUG=4'], '/v1/ops/inventory/adjustments'],
    ['purchase-orders receive', ['purchase-orders', 'receive', ID, 'MUG=4'], `/v1/ops/purchase-orders/${ID}/receive`],
    ['inventory transfer', ['inventory', 'transfer', '--from', ID, '--to', ID.replace(/1$/, '2'), 'MUG=1'], '/v1/ops/inventory/transfers'],
    ['inventory transfers receive', ['inventory', 'transfers', 'receive', ID, 'MUG=1'], `/v1/ops/inventory/transfers/${ID}/receive`],
    ['returns create', ['returns', 'create', ID, 'MUG=1'], '/v1/ops/returns'],
    ['returns receive', ['returns', 'receive', ID, 'MUG=1'], `/v1/ops/returns/${ID}/receive`],
  ])('%s', async (_name, args, url) => {
    const from = posts.length;
    const r = await fos(args);
    expect(r.code, r.stderr).toBe(0);
    const sent = posts.slice(from);
    expect(sent.map((p) => p.url)).toEqual([url, url]);
    expect(sent[0]!.key).toMatch(/^fos-[a-z-]+-[0-9a-f-]{36}$/);
    expect(sent[1]!.key).toBe(sent[0]!.key);
    // Another run is another write: a new key.
    const again = posts.length;
    expect((await fos(args)).code).toBe(0);
    expect(posts[again]!.key).not.toBe(sent[0]!.key);
  });
});
