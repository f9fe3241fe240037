// One retry policy, in the API client (src/client/retry.ts, docs/cli.md "Retries"): a loopback
// server answers 429s, 503s or resets the connection, and counts what it received. The built
// CLI (bin/fos.js) runs against it as a user runs it, on the Node running the tests.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api-client.js';
import { packageRoot } from '../../src/db/migrate.js';
import { tempConfigDir } from './helpers/cli.js';

type Mode = '429' | '429-long' | '503' | 'reset';
let mode: Mode = '429';
const received: string[] = [];
let server: http.Server;
let baseUrl = '';
let configDir = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
    if (mode === 'reset') {
      req.socket.destroy();
      return;
    }
    const status = mode === '503' ? 503 : 429;
    const retryAfter = mode === '429-long' ? '120' : '0';
    res.writeHead(status, { 'content-type': 'application/problem+json', 'retry-after': retryAfter });
    res.end(
      JSON.stringify({
        type: 'urn:fos:error:rate-limited',
        title: 'Too Many Requests',
        status,
        detail: 'slow down (support reference: 0123456789abcdef)',
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  configDir = await tempConfigDir();
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received.length = 0;
});

function fos(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [`${packageRoot()}/bin/fos.js`, ...args], {
    env: { PATH: process.env.PATH, HOME: configDir, FOS_CONFIG_DIR: configDir, NO_COLOR: '1', FOS_BASE_URL: baseUrl, FOS_API_KEY: 'fos_k' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('the CLI sends at most 4 requests for one call (1 + 3 retries)', () => {
  it.each([
    ['429 with retry-after: 0, a GET', '429', ['products', 'list'], 4, 6],
    ['429, a POST without an idempotency key (refused before it ran: retried)', '429', ['keys', 'create', '--name', 'ci'], 4, 6],
    ['503, a GET', '503', ['products', 'list'], 4, 1],
    ['503, a POST without an idempotency key: sent once', '503', ['keys', 'create', '--name', 'ci'], 1, 1],
    ['a reset connection, a GET', 'reset', ['products', 'list'], 4, 7],
    ['a reset connection, a POST without an idempotency key: sent once', 'reset', ['keys', 'create', '--name', 'ci'], 1, 7],
    ['429 asking for 120 s, past the 60 s budget: fails at once', '429-long', ['products', 'list'], 1, 6],
  ] as const)('%s', async (_what, m, args, requests, exit) => {
    mode = m;
    const r = await fos([...args]);
    expect(r.code, r.stderr).toBe(exit);
    expect(received).toHaveLength(requests);
  });

  it('fos fulfill run under a stream of 429s sends 4 requests and stops (no loop of its own around the client)', async () => {
    mode = '429';
    const r = await fos(['fulfill', 'run', '01937c1e-0000-7000-8000-000000000001', '--rate-strategy', 'CHEAPEST', '--json']);
    expect(r.code, r.stderr).toBe(6);
    expect(received).toHaveLength(4);
    expect(new Set(received).size).toBe(1);
  });
});

describe('the time budget', () => {
  it('waits add up: a wait that would pass maxWaitMs is not made', async () => {
    const waits: number[] = [];
    const slow = http.createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.writeHead(503, { 'content-type': 'application/problem+json' });
      res.end('{"type":"urn:fos:error:unavailable","title":"Unavailable","status":503,"detail":"x"}');
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/v1`;
    const budgeted = new ApiClient({
      credentials: { baseUrl: url, apiKey: 'fos_k' },
      retry: { maxRetries: 10, maxWaitMs: 100, baseDelayMs: 40 },
      onRetry: (n) => waits.push(n.delayMs),
    });
    try {
      await expect(budgeted.get('/anything')).rejects.toMatchObject({ status: 503 });
      // 40 ms (+ up to 25% jitter) fits; the next, 80 ms or more, would pass 100 ms in all.
      expect(received).toHaveLength(2);
      expect(waits).toHaveLength(1);
    } finally {
      await budgeted.close();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});
