// `fos fulfill run` when answers are lost: a proxy in front of the REAL server forwards the
// fulfill, lets the server commit it, then drops the connection without answering (the server
// "died" after committing), or answers 503 + retry-after like a draining server. The run must
// retry, re-read and report the truth: fulfilled, once, with exit 0.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/context.js';
import { testIOStreams } from '../../src/cli/iostreams.js';
import { run } from '../../src/cli/main.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { tempConfigDir } from './helpers/cli.js';

let t: TestApp;
let upstream = '';
let proxy: http.Server;
let proxyUrl = '';
let token = '';
/** What the proxy does to the next POST …/fulfill: forward it then drop the answer, or refuse with 503. */
let nextFulfill: 'pass' | 'drop-after-commit' | '503' = 'pass';
const seen: string[] = [];

const UPLOAD = [
  '--label-url',
  'https://labels.example/1.pdf',
  '--tracking',
  '1Z999',
  '--carrier',
  'UPS',
  '--service',
  'Ground',
  '--cost',
  '7.5',
];

beforeAll(async () => {
  t = await testApp();
  upstream = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  token = (await t.key({ tier: 4 })).token;
  proxy = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const isFulfill = req.method === 'POST' && /\/fulfill$/.test(req.url ?? '');
    const mode = isFulfill ? nextFulfill : 'pass';
    if (isFulfill) nextFulfill = 'pass';
    seen.push(`${req.method} ${req.url} ${mode}`);
    if (mode === '503') {
      res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '1' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'the server is shutting down' }));
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
    ) as Record<string, string>;
    const up = await fetch(upstream + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await up.arrayBuffer());
    if (mode === 'drop-after-commit') {
      req.socket.destroy(); // the server committed; its answer never arrives
      return;
    }
    const out: Record<string, string> = {};
    up.headers.forEach((v, k) => {
      if (!['content-encoding', 'transfer-encoding', 'content-length', 'connection', 'keep-alive'].includes(k)) out[k] = v;
    });
    res.writeHead(up.status, { ...out, 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await t?.close();
});

async function fulfill(foId: string) {
  const io = testIOStreams({});
  const ctx = createContext({
    io,
    env: { FOS_BASE_URL: proxyUrl, FOS_API_KEY: token, FOS_LOCK_OWNER: 'station-9', FOS_CONFIG_DIR: await tempConfigDir() },
    retry: { baseDelayMs: 5, maxWaitMs: 3000 },
  });
  const code = await run(['node', 'fos', 'fulfill', 'run', foId, ...UPLOAD], ctx, {
    loadServerCommands: async () => {
      throw new Error('no');
    },
  });
  const stdout = io.stdoutText().trim();
  return { code, stderr: io.stderrText(), results: stdout ? stdout.split('\n').map((l) => JSON.parse(l)) : [] };
}

describe('fos fulfill run with lost answers', () => {
  it('the server committed the fulfill but the answer was lost: retried, re-read, reported fulfilled (exit 0)', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 2 }], status: 'ACCEPTED' });
    nextFulfill = 'drop-after-commit';
    const r = await fulfill(f.fo.id);
    expect(r.code, r.stderr).toBe(0);
    expect(r.results).toHaveLength(1);
    expect(r.results[0]).toMatchObject({ fulfillment_order_id: f.fo.id, status: 'fulfilled', tracking_code: '1Z999' });
    expect(r.stderr).toMatch(/retrying/);
    expect(seen.filter((s) => s.includes('/fulfill '))).toEqual(expect.arrayContaining([expect.stringMatching(/drop-after-commit$/)]));
    const fo = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } });
    expect(fo).toMatchObject({ status: 'FULFILLED', lock_owner: null });
    expect(await t.db.prisma.package.count({ where: { fulfillment_order_id: f.fo.id } })).toBe(1);
  });

  it('a 503 with retry-after (a draining server) is waited out and the fulfill goes through', async () => {
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
    nextFulfill = '503';
    const r = await fulfill(f.fo.id);
    expect(r.code, r.stderr).toBe(0);
    expect(r.results[0]).toMatchObject({ status: 'fulfilled' });
    expect(r.stderr).toMatch(/HTTP 503; retrying in 1\.0s/);
    const fo = await t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.fo.id } });
    expect(fo.status).toBe('FULFILLED');
  });
});
