import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetch } from 'undici';
import { silent, testApp, type TestApp } from '../helpers/app.js';
import { enqueueEvent } from '../../src/domain/events/outbox.js';
import { DestinationRefused, isAllowedHost, isPublicAddress, publicOnlyAgent } from '../../src/net/network.js';
import { fetchSender } from '../../src/domain/webhooks/dispatch.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// Issue 7 item 5: webhooks cannot reach private networks unless the server opts in, checked at
// create/update on the URL and again at delivery after DNS; failure details stay coarse.
let t: TestApp;
let server: Server;
let port: number;
let hits = 0;
beforeAll(async () => {
  t = await testApp();
  await t.db.prisma.apiKey.updateMany({ where: { team_id: t.teamId }, data: { rate_tier: 4 } });
  server = createServer((req, res) => {
    hits++;
    req.resume();
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await t?.close();
});

const PRIVATE_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://10.0.0.1/',
  'http://192.168.1.1/',
  'http://172.16.0.1/',
  'http://[::1]:8080/',
  'http://127.0.0.1:9/',
  'http://2130706433/',
  'http://127.1/',
  'http://0x7f.0.0.1/',
  'http://0177.0.0.1/',
  'http://0/',
  'http://0.0.0.0/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[fd00::1]/',
  'http://[fe80::1]/',
  'http://100.64.0.1/',
  'http://localhost:7070/',
  'http://api.localhost/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://intranet/',
];

describe('webhook network policy', () => {
  it('refuses loopback, private, link-local, unique-local, CGNAT, metadata and odd encodings at create and update', async () => {
    for (const url of PRIVATE_URLS) {
      const res = await t.call('POST', '/v1/webhooks', { body: { url, events: ['*'] } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ path: 'body.url' });
      expect(res.json().detail).toMatch(/--allow-private-webhooks/);
    }
    const ok = await t.call('POST', '/v1/webhooks', { body: { url: 'https://hooks.example.com/in', events: ['*'] } });
    expect(ok.statusCode, ok.body).toBe(201);
    const patch = await t.call('PATCH', `/v1/webhooks/${ok.json().id}`, { body: { url: 'http://169.254.169.254/' } });
    expect(patch.statusCode).toBe(400);
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2606:4700:4700::1111')).toBe(true);
    expect(isAllowedHost('example.com')).toBe(true);
  });

  it('re-checks at delivery: a stored private URL is never contacted, with a coarse error', async () => {
    const ep = await t.call('POST', '/v1/webhooks', { body: { url: 'https://hooks.example.com/late', events: ['*'] } });
    // As if the URL had been stored before the policy (or an operator edited it in the database).
    await t.db.prisma.webhookEndpoint.update({ where: { id: ep.json().id }, data: { url: `http://127.0.0.1:${port}/x` } });
    await t.db.prisma.$transaction((tx) => enqueueEvent(tx, t.teamId, 'order.created', { id: 'o1' }));
    await createOutboxWorker(t.db, silent, { timeoutMs: 2000 }).runOnce(new Date());
    expect(hits).toBe(0);
    const d = await t.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: ep.json().id } });
    expect(d).toMatchObject({ response_status: null, last_error: 'destination not allowed' });
  });

  it('refuses a hostname whose DNS answer is private on the connection itself (no rebinding bypass)', async () => {
    // "localhost" resolves to loopback; the agent checks the resolved address, not the name.
    const err = await fetch(`http://localhost:${port}/`, { dispatcher: publicOnlyAgent() }).catch((e: Error) => e);
    expect((err as Error & { cause?: Error }).cause).toBeInstanceOf(DestinationRefused);
    expect(hits).toBe(0);
    const send = fetchSender(2000, 'test');
    expect(await send(`http://127.0.0.1:${port}/`, '{}', {})).toEqual({ ok: false, status: null, error: 'destination not allowed' });
    expect(hits).toBe(0);
  });

  it('with --allow-private-webhooks delivers locally; failures say only "connection failed"', async () => {
    const send = fetchSender(2000, 'test', { allowPrivate: true });
    expect(await send(`http://127.0.0.1:${port}/`, '{}', {})).toMatchObject({ ok: true, status: 200 });
    expect(hits).toBe(1);
    expect(await send('http://127.0.0.1:9/', '{}', {})).toEqual({ ok: false, status: null, error: 'connection failed' });
  });
});
