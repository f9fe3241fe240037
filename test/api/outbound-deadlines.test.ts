import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { channelsWorld, connectShopify, shopifyDelivery, type ChannelsWorld } from '../helpers/channels.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';
import { shippoDouble, type ShippoDouble } from '../helpers/shippo-double.js';
import { shopifyWebhookOrder } from '../helpers/platform-doubles.js';
import { recoverPurchases } from '../../src/domain/fulfillment/labels.js';
import { onOutbound, send, type Outcome } from '../../src/net/outbound.js';

// The outbound layer (src/net/outbound.ts) under a platform that answers after 45 s or never:
// its own timer cuts the call at the operation's deadline (short ones here, from the
// FOS_DEADLINE_*_MS settings; the assertions are on the timer having fired, not on wall time),
// a label request answers 503 (problem+json) and the purchase the carrier made meanwhile is read
// back and kept, and a shop's orders/create answers while its address check goes on.

let w: ChannelsWorld;
let ep: EasyPostDouble;
let sh: ShippoDouble;
let token: string;
const outcomes: Outcome[] = [];
let unsubscribe: () => void;
const env: Record<string, string | undefined> = {};
const setEnv = (k: string, v: string) => ((env[k] ??= process.env[k] ?? '__unset'), (process.env[k] = v));

beforeAll(async () => {
  [w, ep, sh] = await Promise.all([channelsWorld(), easypostDouble(), shippoDouble()]);
  token = (await w.t.key({ tier: 4 })).token;
  unsubscribe = onOutbound((o) => outcomes.push(o));
});
afterEach(() => {
  for (const [k, v] of Object.entries(env)) {
    if (v === '__unset') delete process.env[k];
    else process.env[k] = v;
    delete env[k];
  }
});
afterAll(async () => {
  unsubscribe?.();
  await Promise.all([ep?.close(), sh?.close()]);
  await w?.close();
});

const call = (method: string, url: string, body?: unknown) => w.t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });

async function integration(body: object) {
  const r = await call('POST', '/v1/ops/carrier-integrations', body);
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id as string;
}

async function newPackage() {
  const f = await fulfillmentFixture(w.t, { lines: [{ quantity: 1 }], status: 'ACCEPTED' });
  const res = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    name: 'Box',
    weight: 1500,
    weight_unit: 'G',
    length: 300,
    width: 200,
    height: 100,
    measurement_unit: 'MM',
    package_line_items: f.foLines.map((l: any) => ({ sku: l.sku, quantity: 1 })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Lets the claim's settle time pass (as the recovery worker would see it) and recovers. */
async function recoverNow(packageId: string) {
  await w.t.db.prisma.labelPurchase.updateMany({ where: { package_id: packageId, state: 'CLAIMED' }, data: { lease_until: new Date(0) } });
  await recoverPurchases(w.t.db, { allowPrivate: true });
}

describe('deadlines of the outbound layer', () => {
  let epId: string;
  beforeAll(async () => {
    epId = await integration({ name: 'EasyPost', type: 'EASYPOST', api_base_url: `${ep.url}/v2`, credentials: { api_key: ep.apiKey } });
  });

  it('an EasyPost purchase answered after 45 s is cut at the purchase deadline and read back: the label EasyPost sold is kept', async () => {
    setEnv('FOS_DEADLINE_PURCHASE_MS', '700');
    const undo = ep.late(/\/buy$/, 45_000, 'POST');
    const p = await newPackage();
    const res = await call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST' });
    undo();
    // The layer's timer cut the purchase; the shipment read back (GET /shipments/{id}) was bought.
    expect(res.statusCode, res.body).toBe(200);
    expect(outcomes).toContainEqual(
      expect.objectContaining({ platform: 'easypost', operation: 'purchase', method: 'POST', outcome: 'timeout', deadline_ms: 700 }),
    );
    expect(outcomes).toContainEqual(
      expect.objectContaining({ platform: 'easypost', operation: 'reconcile', method: 'GET', outcome: 'ok' }),
    );
    const sold = [...ep.shipments.values()].find((s) => s.reference === p.id && s.postage_label)!;
    expect(sold).toBeDefined(); // EasyPost made the purchase fos gave up waiting for
    const label = await w.t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: p.id } });
    expect(label).toMatchObject({ tracking_code: sold.tracking_code, remote_id: sold.id, voided_at: null });
    expect(ep.calls(/\/refund$/)).toHaveLength(0);
  });

  it('a label request answers by its own deadline when EasyPost never answers', async () => {
    setEnv('FOS_DEADLINE_LABEL_MS', '900');
    const undo = ep.late(/\/buy$/, Infinity, 'POST');
    const p = await newPackage();
    const before = outcomes.length;
    const res = await call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST' });
    undo();
    expect(res.statusCode, res.body).toBe(503);
    const cut = outcomes.slice(before).find((o) => o.operation === 'purchase')!;
    // The purchase deadline (20 s) was cut to what was left of the request's 900 ms, and the timer fired.
    expect(cut).toMatchObject({ outcome: 'timeout', platform: 'easypost' });
    expect(cut.deadline_ms).toBeLessThanOrEqual(900);
    expect(cut.trace_id).toBe(res.headers['x-trace-id']);
    await recoverNow(p.id);
    expect(await w.t.db.prisma.shippingLabel.findUnique({ where: { package_id: p.id } })).toMatchObject({ remote_id: expect.any(String) });
  });

  it('a Shippo purchase that never answers is cut by the layer (not by the SDK) and reconciled from its transactions', async () => {
    setEnv('FOS_DEADLINE_PURCHASE_MS', '700');
    await call('PATCH', `/v1/ops/carrier-integrations/${epId}`, { enabled: false });
    const shId = await integration({ name: 'Shippo', type: 'SHIPPO', api_base_url: sh.url, credentials: { api_key: sh.apiKey } });
    const undo = sh.late(/^\/transactions\/?$/, Infinity, 'POST');
    try {
      const p = await newPackage();
      const res = await call('POST', `/v1/ops/packages/${p.id}/label`, { rate_strategy: 'CHEAPEST' });
      expect(res.statusCode, res.body).toBe(200); // read back from GET /transactions?rate=…
      expect(outcomes).toContainEqual(expect.objectContaining({ platform: 'shippo', operation: 'purchase', outcome: 'timeout' }));
      undo();
      const sold = sh.transactions.find((t) => t.status === 'SUCCESS' && t.metadata)!;
      const label = await w.t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: p.id } });
      expect(label.remote_transaction_id).toBe(sold.object_id);
    } finally {
      undo();
      await call('DELETE', `/v1/ops/carrier-integrations/${shId}`);
      await call('PATCH', `/v1/ops/carrier-integrations/${epId}`, { enabled: true });
    }
  });

  it("a shop's orders/create answers while the address check EasyPost never answers goes on", async () => {
    setEnv('FOS_DEADLINE_INTAKE_MS', '300');
    setEnv('FOS_DEADLINE_VERIFY_MS', '600000'); // were the delivery waiting for the check, this test would time out
    const shop = await connectShopify(w.t, w.merchant.teamId, w.shopify);
    const held = ep.hold(/^\/v2\/addresses$/); // EasyPost never answers the check
    const res = await shopifyDelivery(
      w.t,
      shop.id,
      'orders/create',
      shopifyWebhookOrder(9101, [{ sku: 'MUG-1', quantity: 1, price: '9.50' }]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('PROCESSED');
    await held.arrived; // the check is (or goes) under way after the answer
    expect(await w.t.db.prisma.order.count({ where: { remote_id: 'gid://shopify/Order/9101' } })).toBe(1);
    expect(await w.t.db.prisma.addressVerification.count()).toBe(0); // EasyPost's answer is still awaited
    held.release();
  });
});

describe('what the layer retries', () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];
  beforeAll(async () => {
    let n = 0;
    server = createServer((req, res) => {
      seen.push(req.method!);
      res.writeHead(n++ % 2 === 0 ? 503 : 200, { 'retry-after': '0' }).end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends a read again after a 503, never a write without an idempotency key', async () => {
    seen.length = 0;
    const read = await send({ url, method: 'GET', platform: 'test', operation: 'push', allowPrivate: true, retrySafe: true });
    expect(read.status).toBe(200);
    expect(seen).toEqual(['GET', 'GET']);
    seen.length = 0;
    const write = await send({ url, method: 'POST', body: '{}', platform: 'test', operation: 'push', allowPrivate: true });
    expect(write.status).toBe(503);
    expect(seen).toEqual(['POST']);
  });
});
