import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silent, testApp, type TestApp } from '../helpers/app.js';
import { enqueueEvent, type EventKind } from '../../src/domain/events/outbox.js';
import { verifySignature } from '../../src/domain/webhooks/signature.js';
import { MAX_ATTEMPTS, RETRY_SCHEDULE_MS } from '../../src/domain/webhooks/dispatch.js';
import { createOutboxWorker, startOutboxWorker } from '../../src/server/workers/outbox.js';
import { until } from '../helpers/until.js';

// The outbox worker against a real HTTP receiver on 127.0.0.1: fan-out, signatures, retries
// with backoff, permanent failure, race-free claiming, tracking pushes. runOnce(now) drives
// time, so nothing sleeps through a backoff.

interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
}

let t: TestApp;
let token: string;
let server: Server;
let baseUrl: string;
const hits: Hit[] = [];
let secrets: Record<string, string> = {}; // path -> secret, for verification
let failuresLeft: Record<string, number> = {}; // path -> number of 500s to answer first

beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
  token = (await t.key({ tier: 4 })).token;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const secret = secrets[path] ?? '';
      hits.push({ headers: req.headers, body, verified: verifySignature(secret, body, req.headers['fos-signature'] as string) });
      if ((failuresLeft[path] ?? 0) > 0) {
        failuresLeft[path]!--;
        res.writeHead(500).end('boom');
      } else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await t?.close();
});

beforeEach(async () => {
  hits.length = 0;
  secrets = {};
  failuresLeft = {};
  // Each test starts from a clean outbox and no endpoints.
  await t.db.prisma.webhookEndpoint.deleteMany();
  await t.db.prisma.outboxEvent.deleteMany();
});

async function endpoint(path: string, events: string[] = ['*'], tok = token) {
  const res = await t.call('POST', '/v1/webhooks', { token: tok, body: { url: `${baseUrl}${path}`, events } });
  expect(res.statusCode).toBe(201);
  secrets[path] = res.json().secret;
  return res.json() as { id: string; secret: string };
}

const enqueue = (kind: EventKind, payload: Record<string, unknown>, teamId = t.teamId) =>
  t.db.prisma.$transaction((tx) => enqueueEvent(tx, teamId, kind, payload));

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe('webhook delivery', () => {
  it('POSTs a signed JSON body to each matching active endpoint of the team', async () => {
    const all = await endpoint('/all');
    await endpoint('/charges', ['charge.created']);
    const off = await endpoint('/off');
    await t.call('PATCH', `/v1/webhooks/${off.id}`, { token, body: { active: false } });
    const m = await t.merchant();
    await endpoint('/merchant', ['*'], m.token);

    const event = await enqueue('package.fulfilled', { package_id: 'p1', tracking_code: '1Z1' });
    const now = new Date();
    const stats = await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(now);
    expect(stats).toEqual({ events: 1, delivered: 1, retrying: 0, failed: 0 });

    expect(hits).toHaveLength(1);
    const hit = hits[0]!;
    expect(hit.verified).toBe(true);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['fos-event-id']).toBe(event.id);
    expect(hit.headers['fos-event-type']).toBe('package.fulfilled');
    // Independent check of the scheme: t=<unix>,v1=hex(HMAC-SHA256(secret, "<t>.<body>")).
    const m2 = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(hit.headers['fos-signature'] as string)!;
    expect(createHmac('sha256', all.secret).update(`${m2[1]}.${hit.body}`).digest('hex')).toBe(m2[2]);
    expect(Math.abs(Number(m2[1]) - Date.now() / 1000)).toBeLessThan(60);
    expect(verifySignature('whsec_wrong', hit.body, hit.headers['fos-signature'] as string)).toBe(false);
    expect(verifySignature(all.secret, hit.body + ' ', hit.headers['fos-signature'] as string)).toBe(false);
    expect(JSON.parse(hit.body)).toEqual({
      id: event.id,
      type: 'package.fulfilled',
      created_at: event.created_at.toISOString(),
      data: { package_id: 'p1', tracking_code: '1Z1' },
    });

    const ev = await t.db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: event.id } });
    expect(ev.delivered_at).toEqual(now);
    const deliveries = await t.call('GET', `/v1/webhooks/${all.id}/deliveries`, { token });
    expect(deliveries.json().data).toEqual([
      expect.objectContaining({
        endpoint_id: all.id,
        event_id: event.id,
        event_kind: 'package.fulfilled',
        status: 'DELIVERED',
        attempts: 1,
        response_status: 200,
        last_error: null,
        next_attempt_at: null,
        delivered_at: now.toISOString(),
      }),
    ]);
    expect(deliveries.body).not.toContain(all.secret);
    expect(await t.db.prisma.webhookDelivery.count()).toBe(1); // not /charges, not inactive, not the merchant's

    // Nothing is due any more.
    expect(await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(at(now, 1000))).toEqual({
      events: 0,
      delivered: 0,
      retrying: 0,
      failed: 0,
    });
    expect(hits).toHaveLength(1);
  });

  it('retries failures with exponential backoff, then delivers the same body', async () => {
    const ep = await endpoint('/flaky');
    failuresLeft['/flaky'] = 2;
    await enqueue('charge.created', { id: 'c1' });
    const worker = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true });
    const t0 = new Date();

    expect(await worker.runOnce(t0)).toMatchObject({ delivered: 0, retrying: 1 });
    let d = await t.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: ep.id } });
    expect(d).toMatchObject({ status: 'PENDING', attempts: 1, response_status: 500, last_error: 'HTTP 500' });
    expect(d.next_attempt_at).toEqual(at(t0, RETRY_SCHEDULE_MS[0]!)); // 30 s

    await worker.runOnce(at(t0, 29_000)); // not yet due
    expect(hits).toHaveLength(1);

    await worker.runOnce(at(t0, 30_000));
    d = await t.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: ep.id } });
    expect(d).toMatchObject({ status: 'PENDING', attempts: 2 });
    expect(d.next_attempt_at).toEqual(at(t0, 30_000 + RETRY_SCHEDULE_MS[1]!)); // then 2 min

    expect(await worker.runOnce(at(t0, 30_000 + 120_000))).toMatchObject({ delivered: 1 });
    d = await t.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: ep.id } });
    expect(d).toMatchObject({ status: 'DELIVERED', attempts: 3, response_status: 200, last_error: null });
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.body)).size).toBe(1);
    expect(hits.every((h) => h.verified)).toBe(true);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts (30s, 2m, 10m, 1h, 6h) and marks the delivery FAILED`, async () => {
    const ep = await endpoint('/down');
    failuresLeft['/down'] = 100;
    await enqueue('order.created', { id: 'o1' });
    const worker = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true });
    let now = new Date();
    await worker.runOnce(now);
    for (const wait of RETRY_SCHEDULE_MS) {
      now = at(now, wait);
      await worker.runOnce(now);
    }
    const d = await t.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: ep.id } });
    expect(d).toMatchObject({ status: 'FAILED', attempts: MAX_ATTEMPTS, response_status: 500 });
    expect(hits).toHaveLength(MAX_ATTEMPTS);
    await worker.runOnce(at(now, 365 * 24 * 3600_000));
    expect(hits).toHaveLength(MAX_ATTEMPTS);
    const listed = (await t.call('GET', `/v1/webhooks/${ep.id}/deliveries`, { token, query: { status: 'FAILED' } })).json();
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0].next_attempt_at).toBeNull();
  });

  it('records connection errors without a status', async () => {
    const res = await t.call('POST', '/v1/webhooks', { token, body: { url: 'http://127.0.0.1:9/closed', events: ['*'] } });
    await enqueue('order.created', { id: 'o2' });
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true, timeoutMs: 2000 }).runOnce(new Date());
    const d = await t.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: res.json().id } });
    expect(d).toMatchObject({ status: 'PENDING', attempts: 1, response_status: null });
    expect(d.last_error).toBeTruthy();
  });

  it('claims each event and delivery once when workers race', async () => {
    await endpoint('/race');
    for (let i = 0; i < 6; i++) await enqueue('package.created', { n: i });
    const now = new Date();
    const workers = [0, 1, 2].map(() => createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }));
    const stats = await Promise.all(workers.map((w) => w.runOnce(now)));
    expect(stats.reduce((n, s) => n + s.events, 0)).toBe(6);
    // Deliveries fanned out by a slower worker are sent by a later pass.
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(now);
    expect(hits).toHaveLength(6);
    expect(new Set(hits.map((h) => h.headers['fos-event-id'])).size).toBe(6);
    expect(await t.db.prisma.webhookDelivery.count({ where: { status: 'DELIVERED', attempts: 1 } })).toBe(6);
  });

  it('drains a backlog larger than one batch without waiting for the interval', async () => {
    await endpoint('/backlog');
    for (let i = 0; i < 25; i++) await enqueue('package.created', { n: i });
    // batchSize 5 and a 60 s interval: only back-to-back passes can deliver all 25 in time.
    const worker = startOutboxWorker(t.db, silent, { allowPrivateWebhooks: true, intervalMs: 60_000, batchSize: 5 });
    // Waited on, up to half the interval: a slow machine takes longer, never a whole interval.
    await until(() => hits.length >= 25, '25 deliveries', 30_000).finally(() => worker.stop());
    expect(hits.length).toBeLessThan(25 + 1);
    expect(new Set(hits.map((h) => h.headers['fos-event-id'])).size).toBe(25);
  });

  it('runs on a timer with startOutboxWorker and stops cleanly', async () => {
    await endpoint('/timer');
    await enqueue('order.priority_changed', { id: 'o3' });
    const worker = startOutboxWorker(t.db, silent, { allowPrivateWebhooks: true, intervalMs: 20 });
    await until(() => hits.length > 0, 'a delivery on the timer').finally(() => worker.stop());
    expect(hits).toHaveLength(1);
    expect(hits[0]!.verified).toBe(true);
  });
});

describe('tracking pushes', () => {
  async function order(shopType?: 'SHOPIFY' | 'MANUAL') {
    const m = await t.merchant();
    const shop = shopType
      ? await t.db.prisma.shop.create({ data: { merchant_team_id: m.teamId, name: 'S', slug: `s-${Math.random()}`, shop_type: shopType } })
      : null;
    return t.db.prisma.order.create({
      data: {
        order_number: `#${Math.floor(Math.random() * 1e9)}`,
        merchant_team_id: m.teamId,
        fulfiller_team_id: t.teamId,
        shop_id: shop?.id,
        tags: [],
        line_item_image_urls: [],
      },
    });
  }

  it('skips shops without a platform connection and MANUAL ones, and still fans out', async () => {
    await endpoint('/tracking', ['tracking.push']);
    const shopify = await order('SHOPIFY');
    const manual = await order();
    const e1 = await enqueue('tracking.push', { order_id: shopify.id, tracking_code: '1Z9' });
    // The shape the fulfill transaction writes: the order nested.
    const e2 = await enqueue('tracking.push', {
      tracking: { tracking_code: '1Z8' },
      order: { id: manual.id, order_number: manual.order_number },
    });
    const now = new Date();
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(now);
    const [r1, r2] = await Promise.all([e1, e2].map((e) => t.db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: e.id } })));
    expect(r1!.delivered_at).toEqual(now);
    // Nothing was sent to Shopify (the shop has no connection), so nothing claims it was pushed.
    expect(r1!.result).toMatchObject({ tracking_push: { status: 'SKIPPED', shop_type: 'SHOPIFY', order_id: shopify.id } });
    expect(r2!.result).toMatchObject({ tracking_push: { status: 'SKIPPED', shop_type: 'MANUAL', order_id: manual.id } });
    expect(hits).toHaveLength(2);
  });

  it('takes the order and shop the fulfill wrote into the payload, and marks each push with its own result', async () => {
    const pushed: string[] = [];
    const worker = createOutboxWorker(t.db, silent, {
      adapters: {
        SHOPIFY: {
          async pushTracking(p) {
            pushed.push(`${p.order_number} ${p.shop_id}`);
            return { status: 'PUSHED', detail: 'ok' };
          },
        },
      },
    });
    // Neither order nor shop exists as a row: the payload alone names them (the fulfill's shape).
    const shop = { id: 'shop-from-payload', name: 'S', slug: 's', shop_type: 'SHOPIFY' };
    const toShop = await enqueue('tracking.push', { tracking: {}, shop, order: { id: 'o-1', order_number: '#1' } });
    const manual = await enqueue('tracking.push', { tracking: {}, shop: null, order: { id: 'o-2', order_number: '#2' } });
    const now = new Date();
    await worker.runOnce(now);
    const [a, b] = await Promise.all([toShop, manual].map((e) => t.db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: e.id } })));
    expect(pushed).toEqual(['#1 shop-from-payload']);
    expect(a).toMatchObject({ delivered_at: now, result: { tracking_push: { status: 'PUSHED', shop_type: 'SHOPIFY', order_id: 'o-1' } } });
    expect(b).toMatchObject({ delivered_at: now, result: { tracking_push: { status: 'SKIPPED', shop_type: 'MANUAL', order_id: 'o-2' } } });
  });

  it('hands pushes to a custom adapter, retries its failures, and fails bad payloads at once', async () => {
    const shopify = await order('SHOPIFY');
    const pushed: string[] = [];
    let fail = true;
    const worker = createOutboxWorker(t.db, silent, {
      adapters: {
        SHOPIFY: {
          async pushTracking(p) {
            if (fail) throw new Error('platform unavailable');
            pushed.push(p.order_number);
            return { status: 'PUSHED', detail: 'ok' };
          },
        },
      },
    });
    const ev = await enqueue('tracking.push', { order_id: shopify.id });
    const bad = await enqueue('tracking.push', { tracking_code: 'no order' });
    const t0 = new Date();
    await worker.runOnce(t0);
    let row = await t.db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: ev.id } });
    expect(row).toMatchObject({ delivered_at: null, failed_at: null, attempts: 1, last_error: 'platform unavailable' });
    expect(row.next_attempt_at).toEqual(at(t0, RETRY_SCHEDULE_MS[0]!));
    expect(await t.db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: bad.id } })).toMatchObject({ failed_at: t0, attempts: 1 });

    fail = false;
    await worker.runOnce(at(t0, RETRY_SCHEDULE_MS[0]!));
    row = await t.db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: ev.id } });
    expect(row.delivered_at).not.toBeNull();
    expect(row.attempts).toBe(2);
    expect(pushed).toEqual([shopify.order_number]);
  });
});
