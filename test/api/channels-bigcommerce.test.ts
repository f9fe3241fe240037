import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silent, type TestApp } from '../helpers/app.js';
import { type ChannelsWorld, channelsWorld, pushRetriedOnce, shipAll, stockedProduct } from '../helpers/channels.js';
import {
  BC_SECRET,
  bcDelivery,
  bcOrder,
  bigcommerceDouble,
  connectBigCommerce,
  type BigCommerceDouble,
} from '../helpers/bigcommerce-double.js';
import { setRateLimitSleep } from '../../src/connectors/channels/bigcommerce/client.js';
import { connectorFor, openConnection } from '../../src/domain/channels/connection.js';
import { deleteShop } from '../../src/domain/channels/shops.js';
import type { Principal } from '../../src/domain/keys/principal.js';
import { pushStock } from '../../src/domain/channels/stock.js';
import { syncConnection } from '../../src/domain/channels/sync.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// BigCommerce (issue 39 item 2) against a double speaking the documented REST shapes: connect
// registers the store/order/* hook with fos's secret header; a delivery names the order only, so
// fos reads it (V2 order, products, shipping addresses); a sync pages V2 orders; a fulfill's
// tracking becomes a V2 shipment of the shipped order products at their order address; stock is
// a V3 absolute inventory adjustment; a 429 waits what X-Rate-Limit-Time-Reset-Ms says; a 401
// makes the push FAILED with BigCommerce's words.

let w: ChannelsWorld;
let t: TestApp;
let bc: BigCommerceDouble;
let shopId: string;
const waits: number[] = [];
let restoreSleep: (ms: number) => Promise<void>;

beforeAll(async () => {
  w = await channelsWorld();
  t = w.t;
  bc = await bigcommerceDouble();
  restoreSleep = setRateLimitSleep(async (ms) => void waits.push(ms));
  await stockedProduct(t, w.merchant.teamId, 'BC-MUG', 500);
  shopId = (await connectBigCommerce(t, w.merchant.teamId, bc)).id;
});
afterAll(async () => {
  if (restoreSleep) setRateLimitSleep(restoreSleep);
  await bc?.close();
  await w?.close();
});
afterEach(() => {
  waits.length = 0;
  bc.token = 'bc_good';
});

const orderOf = (remoteId: number) => t.db.prisma.order.findMany({ where: { shop_id: shopId, remote_id: String(remoteId) } });

describe('BigCommerce', () => {
  it('connects after GET /v2/store, registers store/order/* with its secret header, stores the token sealed', async () => {
    const check = bc.calls.find((c) => c.path === 'v2/store')!;
    expect(check.headers['x-auth-token']).toBe('bc_good');
    expect(bc.hooks).toEqual([
      expect.objectContaining({
        scope: 'store/order/*',
        is_active: true,
        destination: expect.stringMatching(new RegExp(`^http://[^/]+/v1/channels/${shopId}/webhooks$`)),
        headers: { 'X-Fos-Webhook-Secret': BC_SECRET },
      }),
    ]);
    const row = await t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });
    expect(row.credentials).not.toContain('bc_good');
    expect(row.shop_domain).toBe('abc123');
    expect((row.settings as { webhook_id?: string }).webhook_id).toBe(String(bc.hooks[0].id));
    const view = (await t.call('GET', `/v1/ops/shops/${shopId}`)).json();
    expect(view).toMatchObject({ shop_type: 'BIGCOMMERCE', connected: true, connection: { shop_domain: 'abc123', api_base_url: bc.url } });
    expect(JSON.stringify(view)).not.toContain('bc_good');

    // A refused token: 400 with BigCommerce's words, nothing stored.
    const bad = await t.call('POST', '/v1/ops/shops', {
      body: {
        name: 'BC refused',
        shop_type: 'BIGCOMMERCE',
        merchant_team_id: w.merchant.teamId,
        connection: { store_hash: 'abc123', access_token: 'nope', api_base_url: bc.url },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/BigCommerce refused the API account \(HTTP 401\): You are not authorized/);
    expect(await t.db.prisma.shop.findFirst({ where: { name: 'BC refused' } })).toBeNull();
  });

  it('a new webhook secret updates the hook fos registered (PUT /v3/hooks/{id}), never a second hook', async () => {
    const res = await t.call('PATCH', `/v1/ops/shops/${shopId}`, { body: { connection: { webhook_secret: 'bc-rotated-secret' } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(bc.hooks).toHaveLength(1);
    expect(bc.hooks[0].headers).toEqual({ 'X-Fos-Webhook-Secret': 'bc-rotated-secret' });
    expect(bc.calls.at(-1)).toMatchObject({ method: 'PUT', path: `v3/hooks/${bc.hooks[0].id}` });
    bc.orders.set(100, bcOrder(100, [{ sku: 'BC-MUG', quantity: 1 }]));
    expect((await bcDelivery(t, shopId, 'store/order/created', 100)).statusCode).toBe(401);
    expect((await bcDelivery(t, shopId, 'store/order/created', 100, { secret: 'bc-rotated-secret' })).statusCode).toBe(200);
    // Back to the secret the other tests send.
    expect((await t.call('PATCH', `/v1/ops/shops/${shopId}`, { body: { connection: { webhook_secret: BC_SECRET } } })).statusCode).toBe(
      200,
    );
    expect(bc.hooks[0].headers).toEqual({ 'X-Fos-Webhook-Secret': BC_SECRET });
  });

  it('takes an order in from a store/order/created delivery by reading it from the API', async () => {
    bc.orders.set(101, bcOrder(101, [{ sku: 'BC-MUG', quantity: 2, price: 12.5, variant_id: 501 }]));
    const res = await bcDelivery(t, shopId, 'store/order/created', 101);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('PROCESSED');
    const [order] = await orderOf(101);
    expect(order).toMatchObject({ order_number: '#101', payment_status: 'PAID', currency: 'USD', note: 'leave at the door' });
    const lines = await t.db.prisma.orderLineItem.findMany({ where: { order_id: order!.id, kind: 'CORE' } });
    expect(lines).toEqual([expect.objectContaining({ sku: 'BC-MUG', total_quantity: 2, price: 12.5, remote_id: '1011' })]);
    // BigCommerce names the state ("Texas"): fos keeps its code.
    expect(order!.shipping_address).toMatchObject({ state: 'TX', country: 'US', city: 'Austin', address1: '1 Main St' });
    expect(await t.db.prisma.orderFulfillmentHold.count({ where: { order_id: order!.id, active: true } })).toBe(0);
    const reads = bc.calls.filter((c) => c.path.startsWith('v2/orders/101')).map((c) => `${c.method} ${c.path}`);
    expect(reads.sort()).toEqual(['GET v2/orders/101', 'GET v2/orders/101/products', 'GET v2/orders/101/shipping_addresses']);

    // Without fos's header, or with another secret: 401, nothing stored.
    expect((await bcDelivery(t, shopId, 'store/order/created', 101, { secret: null })).statusCode).toBe(401);
    expect((await bcDelivery(t, shopId, 'store/order/created', 101, { secret: 'guess' })).statusCode).toBe(401);
  });

  it('makes one order from a repeated delivery and from concurrent ones', async () => {
    bc.orders.set(102, bcOrder(102, [{ sku: 'BC-MUG', quantity: 1 }]));
    const all = await Promise.all(Array.from({ length: 6 }, () => bcDelivery(t, shopId, 'store/order/created', 102)));
    expect(all.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await bcDelivery(t, shopId, 'store/order/updated', 102)).toMatchObject({ statusCode: 200 });
    expect(await orderOf(102)).toHaveLength(1);
    const committed = await t.db.prisma.orderLineItem.aggregate({
      where: { order: { shop_id: shopId, remote_id: '102' }, kind: 'CORE' },
      _sum: { total_quantity: true },
    });
    expect(committed._sum.total_quantity).toBe(1);
  });

  it('cancels on a status update to Cancelled and on store/order/archived', async () => {
    bc.orders.set(103, bcOrder(103, [{ sku: 'BC-MUG', quantity: 1 }]));
    await bcDelivery(t, shopId, 'store/order/created', 103);
    bc.orders.get(103)!.order.status_id = 5;
    expect((await bcDelivery(t, shopId, 'store/order/statusUpdated', 103)).json().status).toBe('PROCESSED');
    expect((await orderOf(103))[0]!.status).toBe('CANCELLED');
    bc.orders.set(104, bcOrder(104, [{ sku: 'BC-MUG', quantity: 1 }]));
    await bcDelivery(t, shopId, 'store/order/created', 104);
    expect((await bcDelivery(t, shopId, 'store/order/archived', 104)).json().status).toBe('PROCESSED');
    expect((await orderOf(104))[0]!.status).toBe('CANCELLED');
  });

  it('syncs: awaiting-fulfillment orders first, then what was modified since, page by page', async () => {
    const old = new Date(Date.now() - 3_600_000);
    for (let id = 200; id < 251; id++) bc.orders.set(id, bcOrder(id, [{ sku: 'BC-MUG', quantity: 1 }], { modified: old }));
    bc.orders.set(260, bcOrder(260, [{ sku: 'BC-MUG', quantity: 1 }], { status_id: 10, modified: old })); // completed: not backfilled
    const row = await t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });
    const first = await syncConnection(t.db, row, { allowPrivate: true });
    expect(first!.errors).toEqual([]);
    const lists = bc.calls.filter((c) => c.path === 'v2/orders');
    expect(lists.map((c) => c.query)).toEqual([
      { status_id: '11', sort: 'id:asc', page: '1', limit: '50' },
      { status_id: '11', sort: 'id:asc', page: '2', limit: '50' },
    ]);
    for (const id of [200, 249, 250]) expect(await orderOf(id)).toHaveLength(1);
    expect(await orderOf(260)).toHaveLength(0);

    // Later: orders modified since the last sync (with its overlap), by date_modified.
    bc.orders.set(270, bcOrder(270, [{ sku: 'BC-MUG', quantity: 1 }]));
    const again = await t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });
    const second = await syncConnection(t.db, again, { allowPrivate: true });
    expect(second!.orders.created).toBe(1);
    const q = bc.calls.filter((c) => c.path === 'v2/orders').at(-1)!.query;
    expect(q).toMatchObject({ sort: 'date_modified:asc', page: '1', limit: '50' });
    expect(new Date(q.min_date_modified!).getTime()).toBeGreaterThan(old.getTime());
    expect(await orderOf(270)).toHaveLength(1);
  }, 120_000);

  it('pushes the fulfillment as a V2 shipment with tracking, the shipped products at their address, once', async () => {
    bc.orders.set(301, bcOrder(301, [{ sku: 'BC-MUG', quantity: 2 }]));
    await bcDelivery(t, shopId, 'store/order/created', 301);
    await shipAll(t, (await orderOf(301))[0]!.id, '1Z-BC-301');
    const worker = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true });
    await worker.runOnce(new Date());
    const pushes = (await t.call('GET', `/v1/ops/orders/${(await orderOf(301))[0]!.id}`)).json().sales_channel_pushes;
    expect(pushes[0]).toMatchObject({ status: 'PUSHED', detail: expect.stringMatching(/^BigCommerce shipment \d+ created for #301$/) });
    expect(bc.shipments.get(301)).toEqual([
      expect.objectContaining({
        order_address_id: 10301,
        tracking_number: '1Z-BC-301',
        tracking_carrier: 'ups',
        items: [{ order_product_id: 3011, quantity: 2 }],
      }),
    ]);
    const post = bc.calls.find((c) => c.method === 'POST' && c.path === 'v2/orders/301/shipments')!;
    expect(post.headers['content-type']).toBe('application/json');
    expect(post.headers['x-auth-token']).toBe('bc_good');

    // Sent again (its answer lost): the shipment with this tracking is found, nothing is made twice.
    const row = await t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });
    const again = await connectorFor('BIGCOMMERCE').fulfill(
      openConnection(row),
      { allowPrivate: true },
      { remote_id: '301', order_number: '#301' },
      [{ remote_id: '3011', quantity: 2 }],
      { number: '1Z-BC-301', url: null, company: 'UPS' },
      true,
    );
    expect(again).toMatch(/already holds shipment \d+ of #301/);
    expect(bc.shipments.get(301)).toHaveLength(1);
  });

  it('a push BigCommerce fails (HTTP 503) is RETRYING with its words, sent again after the backoff, then PUSHED once', async () => {
    bc.orders.set(310, bcOrder(310, [{ sku: 'BC-MUG', quantity: 1 }]));
    await bcDelivery(t, shopId, 'store/order/created', 310);
    const [order] = await orderOf(310);
    await shipAll(t, order!.id, '1Z-BC-310');
    bc.failNext('POST v2/orders/310/shipments', 1, 503);
    await pushRetriedOnce(t, order!.id, {
      failed: 'BigCommerce: double fault on POST v2/orders/310/shipments (HTTP 503)',
      pushed: expect.stringMatching(/created for #310$/),
      sent: () => bc.shipments.get(310)?.length ?? 0,
      calls: () => bc.calls.filter((c) => c.method === 'POST' && c.path === 'v2/orders/310/shipments').length,
    });
    expect(bc.shipments.get(310)).toEqual([expect.objectContaining({ tracking_number: '1Z-BC-310' })]);
  });

  it("a revoked token: the push is FAILED at once with BigCommerce's message, shown on the order", async () => {
    bc.orders.set(302, bcOrder(302, [{ sku: 'BC-MUG', quantity: 1 }]));
    await bcDelivery(t, shopId, 'store/order/created', 302);
    const [order] = await orderOf(302);
    await shipAll(t, order!.id, '1Z-BC-302');
    bc.token = 'rotated';
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    const pushes = (await t.call('GET', `/v1/ops/orders/${order!.id}`)).json().sales_channel_pushes;
    expect(pushes[0]).toMatchObject({
      status: 'FAILED',
      detail:
        'BigCommerce refused the API account (HTTP 401): You are not authorized to access this resource: the X-Auth-Token is invalid.',
    });
    expect(bc.shipments.get(302)).toBeUndefined();
    const check = (await t.call('POST', `/v1/ops/shops/${shopId}/check`)).json();
    expect(check).toMatchObject({ ok: false, error: expect.stringContaining('HTTP 401') });
  });

  it('imports variants as listings and pushes stock as an absolute adjustment, waiting out a 429 as its headers say', async () => {
    bc.products = [
      {
        id: 77,
        name: 'Mug',
        sku: 'MUG',
        price: 12,
        weight: 0.4,
        images: [{ url_standard: 'https://cdn.example/mug.jpg' }],
        variants: [
          { id: 501, product_id: 77, sku: 'BC-MUG', price: 12.5, upc: '012345678905', option_values: [{ label: 'Blue' }] },
          { id: 502, product_id: 77, sku: 'BC-OTHER', price: 12.5, option_values: [{ label: 'Red' }] },
        ],
      },
    ];
    const row = await t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });
    await t.db.prisma.shopConnection.update({ where: { shop_id: shopId }, data: { sync_lease_until: null } });
    const s = await syncConnection(t.db, row, { allowPrivate: true });
    expect(s!.listings).toEqual({ imported: 1, unmatched: 1 }); // BC-OTHER has no fos product
    const listing = await t.db.prisma.productListingVariant.findFirstOrThrow({ where: { shop_id: shopId, remote_id: '501' } });
    expect(listing).toMatchObject({ product_listing_id: '77', sku: 'BC-MUG', barcode: '012345678905' });
    expect(bc.calls.find((c) => c.path === 'v3/catalog/products')!.query).toMatchObject({ include: 'variants,images', page: '1' });

    bc.failNext('PUT v3/inventory/adjustments/absolute', 1, 429, {
      'X-Rate-Limit-Time-Reset-Ms': '1500',
      'X-Rate-Limit-Requests-Left': '0',
    });
    const stats = await pushStock(t.db, { allowPrivate: true });
    expect(stats).toMatchObject({ failed: 0 });
    expect(waits).toEqual([1500]); // X-Rate-Limit-Time-Reset-Ms, not a guess
    expect(bc.calls.filter((c) => c.path === 'v3/inventory/adjustments/absolute')).toHaveLength(2);
    const level = await t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { product_id: listing.product_id } });
    expect(bc.adjustments.at(-1)).toEqual({
      reason: 'fos: available quantity',
      items: [{ location_id: 1, variant_id: 501, quantity: level.on_hand - level.committed - level.unavailable }],
    });
    expect((await pushStock(t.db, { allowPrivate: true })).pushed).toBe(0); // nothing changed: no call

    // A read throttled too: the same header's wait, then the order is read.
    bc.orders.set(401, bcOrder(401, [{ sku: 'BC-MUG', quantity: 1 }]));
    bc.failNext('GET v2/orders/401', 2, 429, { 'X-Rate-Limit-Time-Reset-Ms': '700' });
    expect((await bcDelivery(t, shopId, 'store/order/created', 401)).json().status).toBe('PROCESSED');
    expect(waits).toEqual([1500, 700, 700]);
    expect(await orderOf(401)).toHaveLength(1);
  });

  it('deleting a shop removes its store/order/* hook (DELETE /v3/hooks/{id}), best effort, the outcome logged', async () => {
    const first = bc.hooks.map((h) => h.id);
    const other = await connectBigCommerce(t, w.merchant.teamId, bc);
    const hookId = bc.hooks.at(-1)!.id;
    const res = await t.call('DELETE', `/v1/ops/shops/${other.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deleted: true, disconnected: true });
    expect(bc.calls.at(-1)).toMatchObject({ method: 'DELETE', path: `v3/hooks/${hookId}`, body: null });
    expect(bc.calls.at(-1)!.headers['x-auth-token']).toBe('bc_good');
    expect(bc.hooks.map((h) => h.id)).toEqual(first); // the other shop's hook is left alone

    const logs: Array<[string, string]> = [];
    const log = {
      info: (_o: object, m: string) => void logs.push(['info', m]),
      warn: (_o: object, m: string) => void logs.push(['warn', m]),
    };
    const fulfiller = { teamId: t.teamId, teamKind: 'FULFILLER' } as Principal;
    const env = { allowPrivate: true };

    // Removed: logged as done.
    const a = await connectBigCommerce(t, w.merchant.teamId, bc);
    const aHook = bc.hooks.at(-1)!.id;
    expect(await deleteShop(t.db, fulfiller, a.id, env, log)).toEqual({ deleted: true, disconnected: true });
    expect(logs.pop()).toEqual(['info', `shop deleted: BigCommerce hook ${aHook} (store/order/*) removed`]);

    // BigCommerce fails (HTTP 500, and a write is not sent again): logged, the shop deleted all the same, the hook stays there.
    const b = await connectBigCommerce(t, w.merchant.teamId, bc);
    const bHook = bc.hooks.at(-1)!.id;
    bc.failNext(`DELETE v3/hooks/${bHook}`, 1, 500);
    expect(await deleteShop(t.db, fulfiller, b.id, env, log)).toEqual({ deleted: true, disconnected: true });
    expect(logs.pop()).toEqual([
      'warn',
      `shop deleted, but its platform registration stays: BigCommerce: double fault on DELETE v3/hooks/${bHook} (HTTP 500)`,
    ]);
    expect(bc.calls.filter((c) => c.method === 'DELETE' && c.path === `v3/hooks/${bHook}`)).toHaveLength(1);
    expect(await t.db.prisma.shop.findUnique({ where: { id: b.id } })).toBeNull();
    expect(bc.hooks.map((h) => h.id)).toContain(bHook);

    // Removed in the control panel already: the 404 is what the delete wanted.
    const c = await connectBigCommerce(t, w.merchant.teamId, bc);
    const cHook = bc.hooks.pop()!.id;
    await deleteShop(t.db, fulfiller, c.id, env, log);
    expect(logs.pop()).toEqual(['info', `shop deleted: BigCommerce hook ${cHook} was gone already`]);

    // A revoked token: 401 logged with BigCommerce's words; the shop is gone here.
    const d = await connectBigCommerce(t, w.merchant.teamId, bc);
    bc.token = 'rotated';
    await deleteShop(t.db, fulfiller, d.id, env, log);
    expect(logs.pop()).toEqual(['warn', expect.stringMatching(/registration stays: BigCommerce refused the API account \(HTTP 401\)/)]);
    expect(await t.db.prisma.shop.findUnique({ where: { id: d.id } })).toBeNull();
    expect(logs).toEqual([]);
  });
});
