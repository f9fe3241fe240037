import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silent, type TestApp } from '../helpers/app.js';
import { type ChannelsWorld, channelsWorld, pushRetriedOnce, shipAll, stockedProduct } from '../helpers/channels.js';
import { connectEtsy, etsyDouble, type EtsyDouble } from '../helpers/etsy-double.js';
import { etsyInventory, etsyReceipt, money, propertyValue as pv } from '../helpers/etsy-fixtures.js';
import { setRateLimitSleep } from '../../src/connectors/channels/etsy/client.js';
import type { EtsyCredentials } from '../../src/connectors/channels/etsy/types.js';
import { connectorFor, openConnection } from '../../src/domain/channels/connection.js';
import { intakeOrder } from '../../src/domain/channels/intake.js';
import { pushStock } from '../../src/domain/channels/stock.js';
import { DEFAULT_SYNC_INTERVAL_MS, syncConnection, syncDueShops } from '../../src/domain/channels/sync.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// Etsy (issue 39 item 5) against a double speaking the documented Open API v3 shapes: connect mints
// an access token with the refresh token (form body, client_id = keystring) and reads getMe and
// getShop with x-api-key keystring:shared_secret; receipts come by sync only (unshipped first, then
// min_last_modified since the last sync, paged by limit/offset against count); tracking becomes a
// receipt shipment (createReceiptShipment, form body) once; stock reads the listing's inventory
// and writes it back whole with only the quantity changed; an expired token is refreshed; a 429
// waits Retry-After.

let w: ChannelsWorld;
let t: TestApp;
let et: EtsyDouble;
let shopId: string;
const waits: number[] = [];
let restoreSleep: (ms: number) => Promise<void>;
const env = { allowPrivate: true };
const MUG = 4001; // a listing without variations
const SCARF = 4002; // a listing with a colour variation (property 200), quantity per colour

beforeAll(async () => {
  w = await channelsWorld();
  t = w.t;
  et = await etsyDouble();
  restoreSleep = setRateLimitSleep(async (ms) => void waits.push(ms));
  await stockedProduct(t, w.merchant.teamId, 'ET-MUG', 500);
  await stockedProduct(t, w.merchant.teamId, 'ET-SCARF-BLUE', 40);
  shopId = (await connectEtsy(t, w.merchant.teamId, et)).id;
});
afterAll(async () => {
  if (restoreSleep) setRateLimitSleep(restoreSleep);
  await et?.close();
  await w?.close();
});
afterEach(() => {
  waits.length = 0;
});

const orderOf = (remoteId: string) => t.db.prisma.order.findMany({ where: { shop_id: shopId, remote_id: remoteId } });
const row = () => t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });
const creds = async () => openConnection(await row()).credentials as EtsyCredentials;
const sync = async (since?: Date) => {
  await t.db.prisma.shopConnection.update({ where: { shop_id: shopId }, data: { sync_lease_until: null } });
  return syncConnection(t.db, await row(), env, since ? { since } : {});
};

describe('Etsy', () => {
  it('connects with a refresh-token grant, getMe and getShop; keys, tokens and the shop id stored sealed; webhooks refused', async () => {
    const [grant, me, shop] = et.calls;
    expect(grant).toMatchObject({ method: 'POST', path: '/v3/public/oauth/token' });
    expect(grant!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(grant!.body).toEqual({ grant_type: 'refresh_token', client_id: et.keystring, refresh_token: '77001.refresh-0' });
    expect(me).toMatchObject({ method: 'GET', path: '/v3/application/users/me' });
    expect(me!.headers['x-api-key']).toBe(`${et.keystring}:${et.sharedSecret}`);
    expect(me!.headers.authorization).toBe(`Bearer ${et.tokens[0]}`);
    expect(shop).toMatchObject({ method: 'GET', path: `/v3/application/shops/${et.shopId}` });
    const r = await row();
    for (const secret of [et.sharedSecret, et.refreshToken, et.tokens[0]!]) expect(r.credentials).not.toContain(secret);
    // The refresh token Etsy gave with the access token replaces the one given at connect.
    expect(await creds()).toMatchObject({ access_token: et.tokens[0], refresh_token: '77001.refresh-1', etsy_shop_id: String(et.shopId) });
    const view = (await t.call('GET', `/v1/ops/shops/${shopId}`)).json();
    expect(view).toMatchObject({
      shop_type: 'ETSY',
      connected: true,
      connection: { shop_domain: new URL(et.url).host, api_base_url: et.url },
    });
    expect(JSON.stringify(view)).not.toContain(et.sharedSecret);

    const bad = await t.call('POST', '/v1/ops/shops', {
      body: {
        name: 'Etsy refused',
        shop_type: 'ETSY',
        merchant_team_id: w.merchant.teamId,
        connection: { client_id: et.keystring, client_secret: et.sharedSecret, refresh_token: 'stale', api_base_url: et.url },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/Etsy refused the token refresh \(invalid_grant: Invalid refresh token\)/);
    // A shop id the token's seller does not own: refused before anything is stored.
    const other = await t.call('POST', '/v1/ops/shops', {
      body: {
        name: 'Etsy other',
        shop_type: 'ETSY',
        merchant_team_id: w.merchant.teamId,
        connection: {
          client_id: et.keystring,
          client_secret: et.sharedSecret,
          refresh_token: et.refreshToken,
          etsy_shop_id: '999',
          api_base_url: et.url,
        },
      },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().detail).toMatch(/the refresh token is Etsy shop 55001's, not shop 999's/);
    for (const name of ['Etsy refused', 'Etsy other']) expect(await t.db.prisma.shop.findFirst({ where: { name } })).toBeNull();
    const missing = await t.call('POST', '/v1/ops/shops', {
      body: {
        name: 'Etsy half',
        shop_type: 'ETSY',
        merchant_team_id: w.merchant.teamId,
        connection: { client_id: 'x', client_secret: 'y' },
      },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('refresh_token');

    const hook = await t.call('POST', `/v1/channels/${shopId}/webhooks`, {
      token: null,
      body: '{"receipt_id":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(hook.statusCode).toBe(401);
    expect(await t.db.prisma.channelDelivery.count({ where: { shop_id: shopId } })).toBe(0);
  });

  it('syncs: unshipped receipts first, page by page, then what changed since; listings with their inventory', async () => {
    et.listings = [
      { listing_id: MUG, shop_id: et.shopId, title: 'Mug', state: 'active', item_weight: 0.4, item_weight_unit: 'kg', price: money(10) },
      { listing_id: SCARF, shop_id: et.shopId, title: 'Scarf', state: 'active', has_variations: true, price: money(30) },
    ];
    et.inventories.set(MUG, etsyInventory([{ id: 501, sku: 'ET-MUG', quantity: 3, price: 10 }]));
    et.inventories.set(
      SCARF,
      etsyInventory(
        [
          { id: 601, sku: 'ET-SCARF-BLUE', quantity: 2, price: 30, values: [pv('Blue', 11)] },
          { id: 602, sku: 'ET-SCARF-RED', quantity: 9, price: 32.5, values: [pv('Red', 12)] },
        ],
        { onProperty: [200] },
      ),
    );
    const old = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 51; i++)
      et.receipts.set(1000 + i, etsyReceipt(1000 + i, [{ listingId: MUG, sku: 'ET-MUG', quantity: 1 }], { modified: old }));
    et.receipts.set(1999, etsyReceipt(1999, [{ listingId: MUG, sku: 'ET-MUG', quantity: 1 }], { shipped: true, modified: old }));
    et.receipts.set(1998, etsyReceipt(1998, [{ listingId: MUG, sku: 'ET-MUG', quantity: 1 }], { digital: true, modified: old }));
    const first = await sync();
    expect(first!.errors).toEqual([]);
    expect(first!.listings).toEqual({ imported: 2, unmatched: 1 });
    const scarf = await t.db.prisma.productListingVariant.findFirstOrThrow({ where: { shop_id: shopId, sku: 'ET-SCARF-BLUE' } });
    expect(scarf).toMatchObject({ remote_id: `${SCARF}:200=11`, product_listing_id: String(SCARF), name: 'Scarf (Blue)', price: 30 });
    const mug = await t.db.prisma.productListingVariant.findFirstOrThrow({ where: { shop_id: shopId, sku: 'ET-MUG' } });
    expect(mug).toMatchObject({ remote_id: String(MUG), weight: 0.4, weight_unit: 'KG' });
    const lists = et.calls.filter((c) => c.path === `/v3/application/shops/${et.shopId}/receipts`);
    expect(lists.map((c) => c.query)).toEqual([
      { was_shipped: 'false', was_canceled: 'false', sort_on: 'created', sort_order: 'asc', limit: '50', offset: '0' },
      { was_shipped: 'false', was_canceled: 'false', sort_on: 'created', sort_order: 'asc', limit: '50', offset: '50' },
    ]);
    expect(et.calls.find((c) => c.path === `/v3/application/shops/${et.shopId}/listings`)!.query).toMatchObject({
      includes: 'Inventory',
      state: 'active',
    });
    expect(first!.orders.created).toBe(51);
    expect(await orderOf('1999')).toHaveLength(0);
    expect(await orderOf('1998')).toHaveLength(0); // digital downloads only: nothing to ship
    const [order] = await orderOf('1000');
    expect(order).toMatchObject({
      order_number: '1000',
      payment_status: 'PAID',
      currency: 'USD',
      note: 'gift wrap please',
      total_shipping: 5,
      total_tax: 0.8,
    });
    expect(order!.shipping_address).toMatchObject({
      name: 'Ada Lovelace',
      address1: '1 Main St',
      address2: 'Apt 2',
      city: 'Austin',
      state: 'TX',
      zip: '78751',
      country: 'US',
    });
    expect((order!.metadata as { custom: unknown }).custom).toEqual([
      { key: 'etsy_buyer_user_id', value: '88001' },
      { key: 'etsy_payment_method', value: 'cc' },
    ]);
    const lines = await t.db.prisma.orderLineItem.findMany({ where: { order_id: order!.id, kind: 'CORE' } });
    expect(lines).toEqual([
      expect.objectContaining({ sku: 'ET-MUG', total_quantity: 1, price: 10, remote_id: '100001', product_id: mug.product_id }),
    ]);

    // Later: receipts changed since the last sync (unix seconds, with the sync's overlap); a cancellation is taken too.
    et.receipts.set(
      2000,
      etsyReceipt(2000, [
        { listingId: SCARF, sku: 'ET-SCARF-BLUE', quantity: 2, price: 30, variations: [{ property_id: 200, value_id: 11 }] },
      ]),
    );
    et.receipts.set(1001, etsyReceipt(1001, [{ listingId: MUG, sku: 'ET-MUG', quantity: 1 }], { status: 'canceled' }));
    const second = await sync();
    expect(second!.orders).toMatchObject({ created: 1, cancelled: 1 });
    const q = et.calls.filter((c) => c.path === `/v3/application/shops/${et.shopId}/receipts`).at(-1)!.query;
    expect(q).toMatchObject({ sort_on: 'updated', sort_order: 'asc', limit: '50', offset: '0' });
    expect(Number(q.min_last_modified)).toBeGreaterThan(old.getTime() / 1000);
    const [scarfOrder] = await orderOf('2000');
    const scarfLine = await t.db.prisma.orderLineItem.findFirstOrThrow({ where: { order_id: scarfOrder!.id, kind: 'CORE' } });
    expect(scarfLine).toMatchObject({ sku: 'ET-SCARF-BLUE', product_id: scarf.product_id, total_quantity: 2 });
    expect((await orderOf('1001'))[0]!.status).toBe('CANCELLED');
  }, 180_000);

  it('reads each listing inventory on its own when Etsy refuses the Inventory association', async () => {
    et.refuseIncludes = true;
    // A listing never edited with Etsy's inventory tools has no inventory (404): no variants, no failure.
    const CARD = 4004;
    et.listings.push({ listing_id: CARD, shop_id: et.shopId, title: 'Card', state: 'active', price: money(4) });
    try {
      const n = et.calls.length;
      const page = await connectorFor('ETSY').variants(openConnection(await row(), t.db), env, null, null);
      expect(page.items.map((v) => [v.remote_id, v.sku])).toEqual([
        [String(MUG), 'ET-MUG'],
        [`${SCARF}:200=11`, 'ET-SCARF-BLUE'],
        [`${SCARF}:200=12`, 'ET-SCARF-RED'],
      ]);
      expect(page.next).toBeNull();
      const listings = `/v3/application/shops/${et.shopId}/listings`;
      expect(et.calls.slice(n).map((c) => `${c.method} ${c.path}${c.query.includes ? `?includes=${c.query.includes}` : ''}`)).toEqual([
        `GET ${listings}?includes=Inventory`,
        `GET ${listings}`,
        `GET /v3/application/listings/${MUG}/inventory`,
        `GET /v3/application/listings/${SCARF}/inventory`,
        `GET /v3/application/listings/${CARD}/inventory`,
      ]);
    } finally {
      et.refuseIncludes = false;
      et.listings.pop();
    }
  });

  it('makes one order per receipt from repeated syncs and from concurrent intakes of the same receipt', async () => {
    et.receipts.set(3000, etsyReceipt(3000, [{ listingId: MUG, sku: 'ET-MUG', quantity: 1 }]));
    const since = new Date(Date.now() - 60_000);
    expect((await sync(since))!.orders.created).toBe(1);
    expect((await sync(since))!.orders.created).toBe(0);
    expect(await orderOf('3000')).toHaveLength(1);
    const shop = await t.db.prisma.shop.findUniqueOrThrow({ where: { id: shopId } });
    const page = await connectorFor('ETSY').orders(openConnection(await row(), t.db), env, since, null);
    const o = page.items.find((x) => x.remote_id === '3000')!;
    const race = { ...o, remote_id: '3001', order_number: '3001' };
    await Promise.all(Array.from({ length: 6 }, () => intakeOrder(t.db, shop, race, env)));
    expect(await orderOf('3001')).toHaveLength(1);
    const committed = await t.db.prisma.orderLineItem.aggregate({
      where: { order: { shop_id: shopId, remote_id: '3001' }, kind: 'CORE' },
      _sum: { total_quantity: true },
    });
    expect(committed._sum.total_quantity).toBe(1);
  }, 120_000);

  it('pushes tracking as a receipt shipment, once, and PUSHED only after Etsy took it', async () => {
    et.receipts.set(4000, etsyReceipt(4000, [{ listingId: MUG, sku: 'ET-MUG', quantity: 2 }]));
    await sync(new Date(Date.now() - 60_000));
    const [order] = await orderOf('4000');
    await shipAll(t, order!.id, '1Z-ET-401');
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    const pushes = (await t.call('GET', `/v1/ops/orders/${order!.id}`)).json().sales_channel_pushes;
    expect(pushes[0]).toMatchObject({ status: 'PUSHED', detail: 'Etsy shipment created for receipt 4000 (ups 1Z-ET-401)' });
    const posts = et.calls.filter((c) => c.method === 'POST' && c.path === `/v3/application/shops/${et.shopId}/receipts/4000/tracking`);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(posts[0]!.headers['x-api-key']).toBe(`${et.keystring}:${et.sharedSecret}`);
    expect(posts[0]!.body).toEqual({ tracking_code: '1Z-ET-401', carrier_name: 'ups' });
    expect(et.receipts.get(4000)!.shipments).toEqual([expect.objectContaining({ tracking_code: '1Z-ET-401', carrier_name: 'ups' })]);

    // Sent again (its answer lost): the shipment with this tracking code is found, nothing is sent twice.
    const again = await connectorFor('ETSY').fulfill(
      openConnection(await row(), t.db),
      env,
      { remote_id: '4000', order_number: '4000' },
      [{ remote_id: '400001', quantity: 2 }],
      { number: '1Z-ET-401', url: null, company: 'UPS' },
      true,
    );
    expect(again).toMatch(/already holds shipment 3001 of receipt 4000 with this tracking/);
    expect(et.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/receipts/4000/tracking'))).toHaveLength(1);
    expect(et.receipts.get(4000)!.shipments).toHaveLength(1);
  });

  it('a shipment Etsy fails (HTTP 503) is RETRYING with its words, sent again after the backoff, then PUSHED once', async () => {
    et.receipts.set(4100, etsyReceipt(4100, [{ listingId: MUG, sku: 'ET-MUG', quantity: 1 }]));
    await sync(new Date(Date.now() - 60_000));
    const [order] = await orderOf('4100');
    await shipAll(t, order!.id, '1Z-ET-4100');
    const post = `/v3/application/shops/${et.shopId}/receipts/4100/tracking`;
    et.failNext(`POST ${post}`, 1, 503);
    await pushRetriedOnce(t, order!.id, {
      failed: expect.stringMatching(new RegExp(`^Etsy: .*double fault on POST ${post}.*\\(HTTP 503\\)$`)),
      pushed: 'Etsy shipment created for receipt 4100 (ups 1Z-ET-4100)',
      sent: () => et.receipts.get(4100)!.shipments.length,
      calls: () => et.calls.filter((c) => c.method === 'POST' && c.path === post).length,
    });
  });

  it('an expired token is refreshed (by its expiry, and on a 401) and stored sealed with the new refresh token', async () => {
    const before = et.tokens.length;
    et.expireTokens(); // Etsy no longer takes the cached token; fos still thinks it good: 401, one refresh, one retry
    const s = await sync(new Date());
    expect(s!.errors).toEqual([]);
    expect(et.tokens).toHaveLength(before + 1);
    const refused = et.calls.filter((c) => c.headers.authorization === `Bearer ${et.tokens[before - 1]}`).at(-1)!;
    expect(refused.path).toMatch(/^\/v3\/application\//);
    expect(await creds()).toMatchObject({ access_token: et.tokens.at(-1), refresh_token: et.refreshToken });

    // The cached token's expiry passed: a new one is asked for before any call, no 401 needed.
    const r = await row();
    const conn = openConnection(r, t.db);
    conn.credentials = { ...(conn.credentials as EtsyCredentials), token_expires_at: new Date(Date.now() - 1000).toISOString() };
    const n = et.calls.length;
    await connectorFor('ETSY').check(conn, env);
    expect(et.calls.slice(n).map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /v3/public/oauth/token',
      'GET /v3/application/users/me',
      `GET /v3/application/shops/${et.shopId}`,
    ]);
    expect(await creds()).toMatchObject({ access_token: et.tokens.at(-1), refresh_token: et.refreshToken });
  });

  it('pushes stock: reads the listing inventory, writes it back whole with only the quantity changed; a 429 waits Retry-After', async () => {
    const blue = await t.db.prisma.productListingVariant.findFirstOrThrow({ where: { shop_id: shopId, sku: 'ET-SCARF-BLUE' } });
    const before = structuredClone(et.inventories.get(SCARF));
    const n = et.calls.length;
    et.failNext(`PUT /v3/application/listings/${SCARF}/inventory`, 1, 429, { 'retry-after': '2' });
    const stats = await pushStock(t.db, env);
    expect(stats).toMatchObject({ failed: 0 });
    expect(waits).toEqual([2000]);
    const level = await t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { product_id: blue.product_id } });
    const available = level.on_hand - level.committed - level.unavailable;
    const scarfCalls = et.calls.slice(n).filter((c) => c.path === `/v3/application/listings/${SCARF}/inventory`);
    expect(scarfCalls.map((c) => c.method)).toEqual(['GET', 'PUT', 'PUT']);
    // Every product as read (property values, SKUs, prices as floats, the on_property lists); only Blue's quantity changed.
    expect(scarfCalls[2]!.body).toEqual({
      products: [
        { sku: 'ET-SCARF-BLUE', property_values: [pv('Blue', 11)], offerings: [{ price: 30, quantity: available, is_enabled: true }] },
        { sku: 'ET-SCARF-RED', property_values: [pv('Red', 12)], offerings: [{ price: 32.5, quantity: 9, is_enabled: true }] },
      ],
      price_on_property: [200],
      quantity_on_property: [200],
      sku_on_property: [200],
    });
    expect(before.products[0].offerings[0].quantity).toBe(2);
    const now = et.inventories.get(SCARF)!;
    expect(now.products.map((p: any) => [p.sku, p.offerings[0].quantity])).toEqual([
      ['ET-SCARF-BLUE', available],
      ['ET-SCARF-RED', 9],
    ]);
    expect((await pushStock(t.db, env)).pushed).toBe(0); // nothing changed: no call

    // Etsy gave the products new ids when it took the inventory: the variant (listing + colour) still finds Blue.
    waits.length = 0;
    et.failNext(`PUT /v3/application/listings/${SCARF}/inventory`, 2, 429);
    await connectorFor('ETSY').setStock(openConnection(await row(), t.db), env, [
      { remote_id: blue.remote_id, listing_id: String(SCARF), inventory_item_id: null, quantity: 7 },
    ]);
    expect(waits).toEqual([1000, 2000]);
    expect(et.inventories.get(SCARF)!.products.map((p: any) => [p.sku, p.offerings[0].quantity])).toEqual([
      ['ET-SCARF-BLUE', 7],
      ['ET-SCARF-RED', 9],
    ]);

    // A listing whose quantity does not vary by size (quantity_on_property empty): one figure for all its products.
    const PRINT = 4003;
    const size = (value: string, id: number) => pv(value, id, 100, 'Size');
    et.inventories.set(
      PRINT,
      etsyInventory(
        [
          { id: 701, sku: 'ET-PRINT-S', quantity: 4, price: 20, values: [size('S', 21)] },
          { id: 702, sku: 'ET-PRINT-L', quantity: 4, price: 25, values: [size('L', 22)] },
        ],
        { onProperty: [100], quantityShared: true },
      ),
    );
    await connectorFor('ETSY').setStock(openConnection(await row(), t.db), env, [
      { remote_id: `${PRINT}:100=22`, listing_id: String(PRINT), inventory_item_id: null, quantity: 6 },
    ]);
    expect(et.inventories.get(PRINT)!.products.map((p: any) => [p.sku, p.offerings[0].quantity, p.offerings[0].price.amount])).toEqual([
      ['ET-PRINT-S', 6, 2000],
      ['ET-PRINT-L', 6, 2500],
    ]);

    // Processing profiles: each offering's readiness state and the properties it varies by are written back as read.
    const MADE = 4005;
    const colour = [pv('Green', 31), pv('Grey', 32)];
    et.inventories.set(
      MADE,
      etsyInventory(
        [
          { id: 801, sku: 'ET-MADE-G', quantity: 1, price: 40, values: [colour[0]!] },
          { id: 802, sku: 'ET-MADE-Y', quantity: 1, price: 40, values: [colour[1]!] },
        ],
        { onProperty: [200], readiness: (id) => (id === 801 ? 9001 : 9002), readinessOnProperty: [200] },
      ),
    );
    await connectorFor('ETSY').setStock(openConnection(await row(), t.db), env, [
      { remote_id: `${MADE}:200=31`, listing_id: String(MADE), inventory_item_id: null, quantity: 5 },
    ]);
    const made = et.inventories.get(MADE)!;
    expect(made.readiness_state_on_property).toEqual([200]);
    expect(made.products.map((p: any) => [p.sku, p.offerings[0].quantity, p.offerings[0].readiness_state_id])).toEqual([
      ['ET-MADE-G', 5, 9001],
      ['ET-MADE-Y', 1, 9002],
    ]);

    // A variation Etsy no longer has: refused with the reason, nothing written for it.
    await expect(
      connectorFor('ETSY').setStock(openConnection(await row(), t.db), env, [
        { remote_id: `${SCARF}:200=99`, listing_id: String(SCARF), inventory_item_id: null, quantity: 1 },
      ]),
    ).rejects.toThrow(`Etsy: no quantity set for ${SCARF}:200=99: listing ${SCARF} has no such variation`);
  });

  it('receipts come by the background poll (on its interval) and by POST …/sync (now), as for every platform', async () => {
    et.receipts.set(6000, etsyReceipt(6000, [{ listingId: MUG, sku: 'ET-MUG', quantity: 1 }]));
    await t.db.prisma.shopConnection.update({ where: { shop_id: shopId }, data: { sync_lease_until: null } });
    const now = await t.call('POST', `/v1/ops/shops/${shopId}/sync`);
    expect(now.statusCode, now.body).toBe(200);
    expect(now.json()).toMatchObject({ orders: { created: 1, failed: 0 }, errors: [] });
    expect(await orderOf('6000')).toHaveLength(1);
    et.receipts.set(6001, etsyReceipt(6001, [{ listingId: MUG, sku: 'ET-MUG', quantity: 1 }]));
    await t.db.prisma.shopConnection.update({ where: { shop_id: shopId }, data: { sync_lease_until: null } });
    expect(await syncDueShops(t.db, env, DEFAULT_SYNC_INTERVAL_MS)).toBe(0); // synced a moment ago: not due
    const later = new Date(Date.now() + DEFAULT_SYNC_INTERVAL_MS + 6 * 60_000);
    expect(await syncDueShops(t.db, env, DEFAULT_SYNC_INTERVAL_MS, later)).toBe(1);
    expect(await orderOf('6001')).toHaveLength(1);
  });

  it("a revoked refresh token: the push is FAILED at once with Etsy's message, shown on the order", async () => {
    et.receipts.set(5000, etsyReceipt(5000, [{ listingId: MUG, sku: 'ET-MUG', quantity: 1 }]));
    await sync(new Date(Date.now() - 60_000));
    const [order] = await orderOf('5000');
    await shipAll(t, order!.id, '1ZET502');
    et.revokeRefreshTokens();
    et.expireTokens();
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    const pushes = (await t.call('GET', `/v1/ops/orders/${order!.id}`)).json().sales_channel_pushes;
    expect(pushes[0]).toMatchObject({
      status: 'FAILED',
      detail: expect.stringContaining('Etsy refused the token refresh (invalid_grant: Invalid refresh token)'),
    });
    expect(et.receipts.get(5000)!.shipments).toEqual([]);
    const check = (await t.call('POST', `/v1/ops/shops/${shopId}/check`)).json();
    expect(check).toMatchObject({ ok: false, error: expect.stringContaining('invalid_grant') });
  });
});
