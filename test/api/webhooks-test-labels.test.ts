import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silent, testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { verifySignature } from '../../src/domain/webhooks/signature.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// Nothing test reaches a customer (issue 37): a label from the rate table (the test carrier) is
// labelled, voided, labelled again and fulfilled through HTTP; a loopback receiver with a live
// endpoint and a test endpoint (`test: true`) records what each was sent. The live one gets every
// event with the tracking number and URL null and `test_label: true`; the test one gets them as
// they are. A real (uploaded) label's tracking reaches both.

let t: TestApp;
let server: Server;
let base: string;
const received: Array<{ path: string; type: string; raw: string; data: Record<string, any>; signature: string }> = [];

beforeAll(async () => {
  t = await testApp({ allowPrivateWebhooks: true });
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const parsed = JSON.parse(raw);
      received.push({ path: req.url!, type: parsed.type, raw, data: parsed.data, signature: req.headers['fos-signature'] as string });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await t?.close();
});

const ok = (res: { statusCode: number; body: string }, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return JSON.parse(res.body);
};

/** A fulfillment order locked and packed whole: its package id. */
async function packed() {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1, onHand: 5 }], status: 'ACCEPTED' });
  ok(await t.call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { body: { lock_owner: 'packer', timeout_minutes: 15 } }));
  const pkg = await t.call('POST', '/v1/ops/packages', {
    body: { fulfillment_order_id: f.fo.id, weight: 500, weight_unit: 'G', package_line_items: [{ sku: f.foLines[0]!.sku, quantity: 1 }] },
  });
  return ok(pkg, 201).id as string;
}

describe('webhook endpoints marked test', () => {
  it('is false unless asked; create, get, list and update show and change it', async () => {
    const created = ok(await t.call('POST', '/v1/webhooks', { body: { url: `${base}/x`, events: ['order.created'] } }), 201);
    expect(created.test).toBe(false);
    const patched = ok(await t.call('PATCH', `/v1/webhooks/${created.id}`, { body: { test: true } }));
    expect(patched.test).toBe(true);
    expect(ok(await t.call('GET', `/v1/webhooks/${created.id}`)).test).toBe(true);
    expect(ok(await t.call('GET', '/v1/webhooks')).data.find((e: { id: string }) => e.id === created.id).test).toBe(true);
    expect((await t.call('PATCH', `/v1/webhooks/${created.id}`, { body: { test: 'yes' } })).statusCode).toBe(400);
    expect((await t.call('DELETE', `/v1/webhooks/${created.id}`)).statusCode).toBe(204);
  });
});

describe("a test label's tracking", () => {
  it('reaches only test endpoints; live endpoints get the events without it, marked test_label', async () => {
    const live = ok(await t.call('POST', '/v1/webhooks', { body: { url: `${base}/live`, events: ['*'] } }), 201);
    const test = ok(await t.call('POST', '/v1/webhooks', { body: { url: `${base}/test`, events: ['*'], test: true } }), 201);
    expect([live.test, test.test]).toEqual([false, true]);
    // No integration connected: the built-in rate table (the test carrier) sells the label.
    ok(
      await t.call('POST', '/v1/ops/carrier-rates', {
        body: { carrier_id: 'usps', carrier_name: 'USPS', service_id: 'ground', service_name: 'Ground', amount: 4.5, estimated_days: 3 },
      }),
      201,
    );
    const pkgId = await packed();
    const first = ok(await t.call('POST', `/v1/ops/packages/${pkgId}/label`, { body: { rate_strategy: 'CHEAPEST' } }));
    ok(await t.call('POST', `/v1/ops/packages/${pkgId}/label/void`, { body: {} }));
    const second = ok(await t.call('POST', `/v1/ops/packages/${pkgId}/label`, { body: { rate_strategy: 'CHEAPEST' } }));
    ok(await t.call('POST', `/v1/ops/packages/${pkgId}/fulfill`, { body: { locked_by: 'packer' } }));
    const codes = [first.shipping_label.tracking_code, second.shipping_label.tracking_code] as string[];
    const urls = [first.shipping_label.tracking_url, second.shipping_label.tracking_url] as string[];
    expect(codes.every(Boolean) && urls.every(Boolean)).toBe(true);

    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    const at = (path: string) => received.filter((r) => r.path === path);
    const kinds = ['package.created', 'package.labelled', 'package.label_voided', 'package.labelled', 'tracking.push', 'package.fulfilled'];
    expect(
      at('/live')
        .map((r) => r.type)
        .sort(),
    ).toEqual([...kinds, 'fulfillment_order.locked'].sort());
    expect(
      at('/test')
        .map((r) => r.type)
        .sort(),
    ).toEqual([...kinds, 'fulfillment_order.locked'].sort());

    // The live endpoint: nothing of the tracking anywhere in what it was sent, and it can tell why.
    for (const r of at('/live')) {
      expect(verifySignature(live.secret, r.raw, r.signature)).toBe(true);
      for (const s of [...codes, ...urls]) expect(r.raw).not.toContain(s);
    }
    const liveOf = (kind: string) => at('/live').filter((r) => r.type === kind);
    for (const r of liveOf('package.labelled')) expect(r.data).toMatchObject({ package_id: pkgId, tracking_code: null, test_label: true });
    expect(liveOf('package.label_voided')[0]!.data).toMatchObject({
      tracking_code: null,
      test_label: true,
      refund_status: expect.any(String),
    });
    expect(liveOf('tracking.push')[0]!.data).toMatchObject({
      test_label: true,
      tracking: { tracking_code: null, tracking_url: null, carrier: 'USPS' },
    });
    expect(liveOf('package.fulfilled')[0]!.data).toMatchObject({ package_id: pkgId });

    // The test endpoint: the events as written.
    const testOf = (kind: string) => at('/test').filter((r) => r.type === kind);
    for (const r of at('/test')) expect(verifySignature(test.secret, r.raw, r.signature)).toBe(true);
    expect(
      testOf('package.labelled')
        .map((r) => r.data.tracking_code)
        .sort(),
    ).toEqual([...codes].sort());
    expect(testOf('package.label_voided')[0]!.data).toMatchObject({ tracking_code: codes[0], test_label: true });
    expect(testOf('tracking.push')[0]!.data).toMatchObject({
      test_label: true,
      tracking: { tracking_code: codes[1], tracking_url: urls[1], carrier: 'USPS' },
    });

    // The deliveries are recorded DELIVERED for both endpoints (nothing was dropped).
    const deliveries = await t.db.prisma.webhookDelivery.findMany({ where: { endpoint_id: { in: [live.id, test.id] } } });
    expect(deliveries.every((d) => d.status === 'DELIVERED')).toBe(true);
    expect(deliveries).toHaveLength(2 * (kinds.length + 1));
    for (const id of [live.id, test.id]) await t.call('DELETE', `/v1/webhooks/${id}`);
  });

  it("a real (uploaded) label's tracking reaches live endpoints as it is, with test_label false", async () => {
    const live = ok(
      await t.call('POST', '/v1/webhooks', { body: { url: `${base}/live2`, events: ['package.labelled', 'tracking.push'] } }),
      201,
    );
    const pkgId = await packed();
    ok(
      await t.call('POST', `/v1/ops/packages/${pkgId}/label`, {
        body: {
          label_url: 'https://labels.example/l.pdf',
          tracking_number: '1ZREAL0001',
          carrier: 'UPS',
          service: 'Ground',
          cost: 8,
          cost_currency: 'USD',
        },
      }),
    );
    ok(await t.call('POST', `/v1/ops/packages/${pkgId}/fulfill`, { body: { locked_by: 'packer' } }));
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    const got = received.filter((r) => r.path === '/live2');
    expect(got.find((r) => r.type === 'package.labelled')!.data).toMatchObject({ tracking_code: '1ZREAL0001', test_label: false });
    expect(got.find((r) => r.type === 'tracking.push')!.data).toMatchObject({
      test_label: false,
      tracking: { tracking_code: '1ZREAL0001', tracking_url: expect.stringContaining('1ZREAL0001') },
    });
    await t.call('DELETE', `/v1/webhooks/${live.id}`);
  });
});
