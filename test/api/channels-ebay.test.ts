import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silent, type TestApp } from '../helpers/app.js';
import { type ChannelsWorld, channelsWorld, pushRetriedOnce, shipAll, stockedProduct } from '../helpers/channels.js';
import { connectEbay, ebayDouble, ebayOrder, type EbayDouble } from '../helpers/ebay-double.js';
import { setRateLimitSleep } from '../../src/connectors/channels/ebay/client.js';
import type { EbayCredentials } from '../../src/connectors/channels/ebay/types.js';
import { connectorFor, openConnection } from '../../src/domain/channels/connection.js';
import { intakeOrder } from '../../src/domain/channels/intake.js';
import { pushStock } from '../../src/domain/channels/stock.js';
import { DEFAULT_SYNC_INTERVAL_MS, syncConnection, syncDueShops } from '../../src/domain/channels/sync.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';
import { onOutbound, type Outcome } from '../../src/net/outbound.js';

// eBay (issue 39 item 4) against a double speaking the documented REST shapes: connect mints a
// User access token with the refresh token (Basic app keys) and reads one page of orders; orders
// come by sync only (getOrders: unshipped first, then lastmodifieddate since the last sync, paged
// by offset); a fulfill's tracking becomes a shipping fulfillment of the shipped line items; stock
// is bulk_update_price_quantity by SKU, with the SKU's published offers (getOffers); an expired token is refreshed; a 429 waits Retry-After.
// Listings made outside the Inventory API come from the Trading API (GetMyeBaySelling) and take
// their stock by ReviseInventoryStatus (XML, four per call).

let w: ChannelsWorld;
let t: TestApp;
let eb: EbayDouble;
let shopId: string;
const waits: number[] = [];
let restoreSleep: (ms: number) => Promise<void>;
const env = { allowPrivate: true };

beforeAll(async () => {
  w = await channelsWorld();
  t = w.t;
  eb = await ebayDouble();
  restoreSleep = setRateLimitSleep(async (ms) => void waits.push(ms));
  await stockedProduct(t, w.merchant.teamId, 'EB-MUG', 500);
  shopId = (await connectEbay(t, w.merchant.teamId, eb)).id;
});
afterAll(async () => {
  if (restoreSleep) setRateLimitSleep(restoreSleep);
  await eb?.close();
  await w?.close();
});
afterEach(() => {
  waits.length = 0;
});

const orderOf = (remoteId: string) => t.db.prisma.order.findMany({ where: { shop_id: shopId, remote_id: remoteId } });
const row = () => t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });
const sync = async (since?: Date) => {
  await t.db.prisma.shopConnection.update({ where: { shop_id: shopId }, data: { sync_lease_until: null } });
  return syncConnection(t.db, await row(), env, since ? { since } : {});
};

describe('eBay', () => {
  it('connects with a refresh-token grant and one getOrders read; keys and tokens stored sealed; webhooks refused', async () => {
    const [grant, check] = eb.calls;
    expect(grant).toMatchObject({ method: 'POST', path: '/identity/v1/oauth2/token' });
    expect(grant!.headers.authorization).toBe(`Basic ${Buffer.from(`${eb.clientId}:${eb.clientSecret}`).toString('base64')}`);
    expect(grant!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(grant!.body).toEqual({
      grant_type: 'refresh_token',
      refresh_token: eb.refreshToken,
      scope: 'https://api.ebay.com/oauth/api_scope/sell.fulfillment https://api.ebay.com/oauth/api_scope/sell.inventory',
    });
    expect(check).toMatchObject({ method: 'GET', path: '/sell/fulfillment/v1/order', query: { limit: '1' } });
    expect(check!.headers.authorization).toBe(`Bearer ${eb.tokens[0]}`);
    const r = await row();
    for (const secret of [eb.clientSecret, eb.refreshToken, eb.tokens[0]!]) expect(r.credentials).not.toContain(secret);
    expect((openConnection(r).credentials as EbayCredentials).access_token).toBe(eb.tokens[0]); // cached, sealed
    const view = (await t.call('GET', `/v1/ops/shops/${shopId}`)).json();
    expect(view).toMatchObject({
      shop_type: 'EBAY',
      connected: true,
      connection: { shop_domain: new URL(eb.url).host, api_base_url: eb.url },
    });
    expect(JSON.stringify(view)).not.toContain(eb.refreshToken);

    // A refresh token eBay does not know: 400 with eBay's words, nothing stored.
    const bad = await t.call('POST', '/v1/ops/shops', {
      body: {
        name: 'eBay refused',
        shop_type: 'EBAY',
        merchant_team_id: w.merchant.teamId,
        connection: { client_id: eb.clientId, client_secret: eb.clientSecret, refresh_token: 'stale', api_base_url: eb.url },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(
      /eBay refused the token refresh \(invalid_grant: the provided authorization refresh token is invalid/,
    );
    expect(await t.db.prisma.shop.findFirst({ where: { name: 'eBay refused' } })).toBeNull();
    const missing = await t.call('POST', '/v1/ops/shops', {
      body: {
        name: 'eBay half',
        shop_type: 'EBAY',
        merchant_team_id: w.merchant.teamId,
        connection: { client_id: 'x', client_secret: 'y' },
      },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('refresh_token');

    // eBay sends fos no order events: a delivery to the shop's webhook address is refused, nothing stored.
    const hook = await t.call('POST', `/v1/channels/${shopId}/webhooks`, {
      token: null,
      body: '{"orderId":"x"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(hook.statusCode).toBe(401);
    expect(await t.db.prisma.channelDelivery.count({ where: { shop_id: shopId } })).toBe(0);
  });

  it('syncs: unshipped orders first, page by page by offset, then what was modified since; listings from the Inventory API', async () => {
    eb.items = [
      {
        sku: 'EB-MUG',
        locale: 'en_US',
        groupIds: ['MUG-GROUP'],
        product: { title: 'Mug', upc: ['012345678905'], imageUrls: ['https://i.ebayimg.com/mug.jpg'] },
        packageWeightAndSize: { weight: { value: 0.4, unit: 'KILOGRAM' } },
        availability: { shipToLocationAvailability: { quantity: 3 } },
      },
      { sku: 'EB-OTHER', product: { title: 'Other' } },
    ];
    const old = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 51; i++)
      eb.orders.set(`10-0000${100 + i}`, ebayOrder(`10-0000${100 + i}`, [{ sku: 'EB-MUG', quantity: 1 }], { modified: old }));
    eb.orders.set('10-shipped', ebayOrder('10-shipped', [{ sku: 'EB-MUG', quantity: 1 }], { status: 'FULFILLED', modified: old }));
    const first = await sync();
    expect(first!.errors).toEqual([]);
    expect(first!.listings).toEqual({ imported: 1, unmatched: 1 });
    const listing = await t.db.prisma.productListingVariant.findFirstOrThrow({ where: { shop_id: shopId, remote_id: 'EB-MUG' } });
    expect(listing).toMatchObject({
      product_listing_id: 'MUG-GROUP',
      sku: 'EB-MUG',
      barcode: '012345678905',
      weight: 0.4,
      weight_unit: 'KG',
    });
    const lists = eb.calls.filter((c) => c.path === '/sell/fulfillment/v1/order' && c.query.filter);
    expect(lists.map((c) => c.query)).toEqual([
      { filter: 'orderfulfillmentstatus:{NOT_STARTED|IN_PROGRESS}', limit: '50', offset: '0' },
      { filter: 'orderfulfillmentstatus:{NOT_STARTED|IN_PROGRESS}', limit: '50', offset: '50' },
    ]);
    expect(first!.orders.created).toBe(51);
    expect(await orderOf('10-shipped')).toHaveLength(0);
    const [order] = await orderOf('10-0000100');
    expect(order).toMatchObject({
      order_number: '10-0000100',
      payment_status: 'PAID',
      currency: 'USD',
      note: 'leave at the door',
      total_shipping: 5,
    });
    expect(order!.shipping_address).toMatchObject({
      name: 'Ada Lovelace',
      state: 'TX',
      country: 'US',
      city: 'Austin',
      address1: '1 Main St',
    });
    expect((order!.metadata as { custom: unknown }).custom).toEqual([
      { key: 'ebay_buyer', value: 'ada_buyer' },
      { key: 'ebay_sales_record', value: '1001' },
      { key: 'ebay_marketplace', value: 'EBAY_US' },
    ]);
    const lines = await t.db.prisma.orderLineItem.findMany({ where: { order_id: order!.id, kind: 'CORE' } });
    expect(lines).toEqual([
      expect.objectContaining({
        sku: 'EB-MUG',
        total_quantity: 1,
        price: 10,
        remote_id: '10-0000100-1',
        product_id: listing.product_id,
      }),
    ]);

    // Later: orders modified since the last sync (with its overlap); a cancellation is taken too.
    eb.orders.set('10-new', ebayOrder('10-new', [{ sku: 'EB-MUG', quantity: 2, price: 12.5 }]));
    eb.orders.set('10-0000101', ebayOrder('10-0000101', [{ sku: 'EB-MUG', quantity: 1 }], { cancelState: 'CANCELED' }));
    const second = await sync();
    expect(second!.orders).toMatchObject({ created: 1, cancelled: 1 });
    const q = eb.calls.filter((c) => c.path === '/sell/fulfillment/v1/order' && c.query.filter).at(-1)!.query;
    expect(q.filter).toMatch(/^lastmodifieddate:\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\.\.\]$/);
    expect(new Date(q.filter!.slice(18, -3)).getTime()).toBeGreaterThan(old.getTime());
    expect(await orderOf('10-new')).toHaveLength(1);
    expect((await orderOf('10-0000101'))[0]!.status).toBe('CANCELLED');
  }, 180_000);

  it('makes one order from a repeated sync and from concurrent intakes of the same order', async () => {
    eb.orders.set('20-dup', ebayOrder('20-dup', [{ sku: 'EB-MUG', quantity: 1 }]));
    const since = new Date(Date.now() - 60_000);
    expect((await sync(since))!.orders.created).toBe(1);
    const again = await sync(since);
    expect(again!.orders.created).toBe(0);
    expect(await orderOf('20-dup')).toHaveLength(1);
    const shop = await t.db.prisma.shop.findUniqueOrThrow({ where: { id: shopId } });
    const page = await connectorFor('EBAY').orders(openConnection(await row()), env, since, null);
    const o = page.items.find((x) => x.remote_id === '20-dup')!;
    eb.orders.set('20-race', ebayOrder('20-race', [{ sku: 'EB-MUG', quantity: 1 }]));
    const race = { ...o, remote_id: '20-race', order_number: '20-race' };
    await Promise.all(Array.from({ length: 6 }, () => intakeOrder(t.db, shop, race, env)));
    expect(await orderOf('20-race')).toHaveLength(1);
    const committed = await t.db.prisma.orderLineItem.aggregate({
      where: { order: { shop_id: shopId, remote_id: '20-race' }, kind: 'CORE' },
      _sum: { total_quantity: true },
    });
    expect(committed._sum.total_quantity).toBe(1);
  }, 120_000);

  it('pushes the fulfillment as a shipping fulfillment with tracking, once, and PUSHED only after eBay took it', async () => {
    eb.orders.set('30-ship', ebayOrder('30-ship', [{ sku: 'EB-MUG', quantity: 2 }]));
    await sync(new Date(Date.now() - 60_000));
    const [order] = await orderOf('30-ship');
    await shipAll(t, order!.id, '1Z-EB-301');
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    const pushes = (await t.call('GET', `/v1/ops/orders/${order!.id}`)).json().sales_channel_pushes;
    expect(pushes[0]).toMatchObject({ status: 'PUSHED', detail: 'eBay fulfillment 1ZEB301 created for 30-ship' });
    expect(eb.fulfillments.get('30-ship')).toEqual([
      expect.objectContaining({
        shipmentTrackingNumber: '1ZEB301',
        shippingCarrierCode: 'UPS',
        lineItems: [{ lineItemId: '30-ship-1', quantity: 2 }],
      }),
    ]);
    const post = eb.calls.find((c) => c.method === 'POST' && c.path === '/sell/fulfillment/v1/order/30-ship/shipping_fulfillment')!;
    expect(post.headers['content-type']).toBe('application/json');
    expect(post.headers.authorization).toMatch(/^Bearer v\^1\.1#i\^1#access-\d+$/);
    expect(Number.isNaN(Date.parse(post.body.shippedDate))).toBe(false);

    // Sent again (its answer lost): the fulfillment with this tracking is found, nothing is made twice.
    const again = await connectorFor('EBAY').fulfill(
      openConnection(await row()),
      env,
      { remote_id: '30-ship', order_number: '30-ship' },
      [{ remote_id: '30-ship-1', quantity: 2 }],
      { number: '1Z-EB-301', url: null, company: 'UPS' },
      true,
    );
    expect(again).toMatch(/already holds fulfillment 1ZEB301 of 30-ship/);
    expect(eb.fulfillments.get('30-ship')).toHaveLength(1);
  });

  it('a fulfillment eBay fails (HTTP 503) is RETRYING with its words, sent again after the backoff, then PUSHED once', async () => {
    eb.orders.set('31-retry', ebayOrder('31-retry', [{ sku: 'EB-MUG', quantity: 1 }]));
    await sync(new Date(Date.now() - 60_000));
    const [order] = await orderOf('31-retry');
    await shipAll(t, order!.id, '1ZEB311');
    const post = '/sell/fulfillment/v1/order/31-retry/shipping_fulfillment';
    eb.failNext(`POST ${post}`, 1, 503);
    await pushRetriedOnce(t, order!.id, {
      failed: expect.stringMatching(new RegExp(`^eBay: .*double fault on POST ${post}.*\\(HTTP 503\\)$`)),
      pushed: 'eBay fulfillment 1ZEB311 created for 31-retry',
      sent: () => eb.fulfillments.get('31-retry')?.length ?? 0,
      calls: () => eb.calls.filter((c) => c.method === 'POST' && c.path === post).length,
    });
  });

  it('an expired token is refreshed (by its expiry, and on a 401) and stored sealed', async () => {
    const before = eb.tokens.length;
    eb.expireTokens(); // eBay no longer takes the cached token; fos still thinks it good: 401, one refresh, one retry
    const s = await sync(new Date());
    expect(s!.errors).toEqual([]);
    expect(eb.tokens).toHaveLength(before + 1);
    const refused = eb.calls.filter((c) => c.headers.authorization === `Bearer ${eb.tokens[before - 1]}`).at(-1)!;
    expect(refused.path).toBe('/sell/fulfillment/v1/order');
    expect((openConnection(await row()).credentials as EbayCredentials).access_token).toBe(eb.tokens.at(-1));

    // The cached token's expiry passed: a new one is asked for before any call, no 401 needed.
    const r = await row();
    const creds = openConnection(r).credentials as EbayCredentials;
    const conn = openConnection(r, t.db);
    conn.credentials = { ...creds, token_expires_at: new Date(Date.now() - 1000).toISOString() };
    const n = eb.calls.length;
    await connectorFor('EBAY').check(conn, env);
    expect(eb.calls.slice(n).map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /identity/v1/oauth2/token',
      'GET /sell/fulfillment/v1/order',
    ]);
    expect((openConnection(await row()).credentials as EbayCredentials).access_token).toBe(eb.tokens.at(-1));
  });

  it('pushes stock with bulk_update_price_quantity by SKU, waiting out a 429 as Retry-After says (else a doubling backoff)', async () => {
    const listing = await t.db.prisma.productListingVariant.findFirstOrThrow({ where: { shop_id: shopId, remote_id: 'EB-MUG' } });
    eb.failNext('POST /sell/inventory/v1/bulk_update_price_quantity', 1, 429, { 'retry-after': '2' });
    const stats = await pushStock(t.db, env);
    expect(stats).toMatchObject({ failed: 0 });
    expect(waits).toEqual([2000]);
    const posts = eb.calls.filter((c) => c.path === '/sell/inventory/v1/bulk_update_price_quantity');
    expect(posts).toHaveLength(2);
    const level = await t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { product_id: listing.product_id } });
    const available = level.on_hand - level.committed - level.unavailable;
    expect(posts[1]!.body).toEqual({ requests: [{ sku: 'EB-MUG', shipToLocationAvailability: { quantity: available } }] });
    expect(eb.quantities.get('EB-MUG')).toBe(available);
    expect((await pushStock(t.db, env)).pushed).toBe(0); // nothing changed: no call

    // No Retry-After: 1 s, then 2 s.
    waits.length = 0;
    eb.failNext('POST /sell/inventory/v1/bulk_update_price_quantity', 2, 429);
    await connectorFor('EBAY').setStock(openConnection(await row(), t.db), env, [
      { remote_id: 'EB-MUG', listing_id: null, inventory_item_id: null, quantity: 7 },
    ]);
    expect(waits).toEqual([1000, 2000]);
    expect(eb.quantities.get('EB-MUG')).toBe(7);

    // A SKU with published offers: each gets the figure too (the listing shows the smaller of the two); an unpublished one is left alone.
    eb.offers.set('EB-MUG', [
      { offerId: 'of-us', sku: 'EB-MUG', marketplaceId: 'EBAY_US', status: 'PUBLISHED', availableQuantity: 2 },
      { offerId: 'of-draft', sku: 'EB-MUG', marketplaceId: 'EBAY_GB', status: 'UNPUBLISHED', availableQuantity: 0 },
    ]);
    try {
      await connectorFor('EBAY').setStock(openConnection(await row(), t.db), env, [
        { remote_id: 'EB-MUG', listing_id: null, inventory_item_id: null, quantity: 9 },
      ]);
      expect(eb.calls.filter((c) => c.path === '/sell/inventory/v1/offer').at(-1)!.query).toMatchObject({ sku: 'EB-MUG' });
      expect(eb.calls.filter((c) => c.path === '/sell/inventory/v1/bulk_update_price_quantity').at(-1)!.body).toEqual({
        requests: [{ sku: 'EB-MUG', shipToLocationAvailability: { quantity: 9 }, offers: [{ offerId: 'of-us', availableQuantity: 9 }] }],
      });
      expect(eb.offers.get('EB-MUG')!.map((o) => [o.offerId, o.availableQuantity])).toEqual([
        ['of-us', 9],
        ['of-draft', 0],
      ]);
      expect(eb.quantities.get('EB-MUG')).toBe(9);
    } finally {
      eb.offers.delete('EB-MUG');
    }

    // A SKU eBay does not know: refused (207) with eBay's words.
    await expect(
      connectorFor('EBAY').setStock(openConnection(await row(), t.db), env, [
        { remote_id: 'EB-GONE', listing_id: null, inventory_item_id: null, quantity: 1 },
      ]),
    ).rejects.toThrow('eBay refused the quantity of EB-GONE: SKU EB-GONE is not available in the system.');
  });

  it('Trading listings (Seller Hub): found by GetMyeBaySelling, inventory items left out; stock by ReviseInventoryStatus, four per call', async () => {
    const skus = ['EB-TR-SOLO', 'EB-TR-V1', 'EB-TR-V2', 'EB-TR-V3', 'EB-TR-V4', 'EB-TR-V5'];
    for (const [i, sku] of skus.entries()) await stockedProduct(t, w.merchant.teamId, sku, 10 + i);
    eb.listings.set('110000000101', { ItemID: '110000000101', Title: 'Solo & Co <mug>', SKU: 'EB-TR-SOLO', Quantity: 1, Price: 12.5 });
    eb.listings.set('110000000102', {
      ItemID: '110000000102',
      Title: 'Shirt',
      Variations: skus.slice(1).map((SKU) => ({ SKU, Quantity: 1 })),
    });
    // The Inventory API's own listing shows in GetMyeBaySelling too; a listing with no SKU cannot be linked.
    eb.listings.set('110000000103', { ItemID: '110000000103', Title: 'Mug (inventory model)', SKU: 'EB-MUG', Quantity: 3 });
    eb.listings.set('110000000104', { ItemID: '110000000104', Title: 'No SKU', Quantity: 2 });
    // An auction takes no ReviseInventoryStatus: not a listing variant.
    await stockedProduct(t, w.merchant.teamId, 'EB-TR-AUCTION', 1);
    eb.listings.set('110000000105', {
      ItemID: '110000000105',
      Title: 'Auction',
      SKU: 'EB-TR-AUCTION',
      Quantity: 1,
      ListingType: 'Chinese',
    });
    const s = await sync();
    expect(s!.errors).toEqual([]);
    const selling = eb.calls.filter((c) => c.path === '/ws/api.dll').at(-1)!;
    expect(selling.headers).toMatchObject({
      'x-ebay-api-call-name': 'GetMyeBaySelling',
      'x-ebay-api-iaf-token': eb.tokens.at(-1),
      'x-ebay-api-siteid': '0',
    });
    expect(selling.body).toContain(
      '<ActiveList><Include>true</Include><Pagination><EntriesPerPage>200</EntriesPerPage><PageNumber>1</PageNumber>',
    );
    const rows = await t.db.prisma.productListingVariant.findMany({ where: { shop_id: shopId }, orderBy: { remote_id: 'asc' } });
    expect(rows.map((r) => [r.remote_id, r.product_listing_id, r.remote_inventory_item_id])).toEqual([
      ['EB-MUG', 'MUG-GROUP', null],
      ['EB-TR-SOLO', '110000000101', 'trading:item:110000000101'],
      ...skus.slice(1).map((sku) => [sku, '110000000102', 'trading:variation:110000000102']),
    ]);
    expect(rows.find((r) => r.remote_id === 'EB-TR-SOLO')).toMatchObject({ name: 'Solo & Co <mug>', price: 12.5, currency: 'USD' });

    const before = eb.calls.length;
    const stats = await pushStock(t.db, env);
    expect(stats.failed).toBe(0);
    const revises = eb.calls.slice(before).filter((c) => c.path === '/ws/api.dll');
    expect(revises.map((c) => c.headers['x-ebay-api-call-name'])).toEqual(['ReviseInventoryStatus', 'ReviseInventoryStatus']);
    expect(revises[0]!.headers['content-type']).toBe('text/xml');
    const statuses = revises.map((c) => [...String(c.body).matchAll(/<InventoryStatus>(.*?)<\/InventoryStatus>/g)].map((m) => m[1]));
    expect(statuses.map((x) => x.length)).toEqual([4, 2]);
    expect(statuses.flat()).toEqual([
      '<ItemID>110000000101</ItemID><Quantity>10</Quantity>',
      ...skus.slice(1).map((sku, i) => `<ItemID>110000000102</ItemID><SKU>${sku}</SKU><Quantity>${11 + i}</Quantity>`),
    ]);
    expect(eb.listings.get('110000000101')!.Quantity).toBe(10);
    expect(eb.listings.get('110000000102')!.Variations!.map((v) => v.Quantity)).toEqual([11, 12, 13, 14, 15]);
    // The inventory item kept its own API: never in a Trading call.
    expect(revises.some((c) => String(c.body).includes('EB-MUG'))).toBe(false);
    expect(eb.listings.get('110000000103')!.Quantity).toBe(3);
  });

  it("Trading: a Failure Ack fails the push with eBay's LongMessage; a call limit (518) and an expired IAF token are waited out / refreshed", async () => {
    const conn = async () => openConnection(await row(), t.db);
    const solo = { remote_id: 'EB-TR-SOLO', listing_id: '110000000101', inventory_item_id: 'trading:item:110000000101' };
    eb.tradingFailNext('ReviseInventoryStatus', 2, '518');
    await connectorFor('EBAY').setStock(await conn(), env, [{ ...solo, quantity: 6 }]);
    expect(waits).toEqual([1000, 2000]);
    expect(eb.listings.get('110000000101')!.Quantity).toBe(6);

    const minted = eb.tokens.length;
    eb.expireTokens();
    await connectorFor('EBAY').setStock(await conn(), env, [{ ...solo, quantity: 5 }]);
    expect(eb.tokens.length).toBe(minted + 1);
    expect(eb.listings.get('110000000101')!.Quantity).toBe(5);

    // The listing ended: eBay answers Failure; the stock pass shows its words and retries later.
    const ended = eb.listings.get('110000000101')!;
    eb.listings.delete('110000000101');
    try {
      const product = await t.db.prisma.product.findFirstOrThrow({ where: { sku: 'EB-TR-SOLO' } });
      await t.db.prisma.channelStockPush.updateMany({ where: { shop_id: shopId, product_id: product.id }, data: { pushed_qty: 0 } });
      const stats = await pushStock(t.db, env);
      expect(stats.failed).toBe(1);
      const push = await t.db.prisma.channelStockPush.findFirstOrThrow({ where: { shop_id: shopId, product_id: product.id } });
      expect(push.last_error).toBe(
        'eBay refused the quantity of 110000000101: This item (110000000101) cannot be accessed because the listing has been deleted or you are not the seller. (error 17)',
      );
      const shop = (await t.call('GET', `/v1/ops/shops/${shopId}`)).json();
      expect(JSON.stringify(shop)).toContain('stock push: eBay refused the quantity of 110000000101');
    } finally {
      eb.listings.set('110000000101', ended);
    }

    // A Trading refusal at discovery does not stop the sync: orders still come (matched to the
    // Trading listing's product by SKU), and the summary says what was not read.
    eb.tradingFailNext('GetMyeBaySelling', 4, '518');
    eb.orders.set('30-trading', ebayOrder('30-trading', [{ sku: 'EB-TR-SOLO', quantity: 1 }]));
    waits.length = 0;
    const s = await sync(new Date(Date.now() - 60_000));
    expect(s!.errors).toEqual([
      'eBay Trading listings: eBay GetMyeBaySelling: call limit reached after 3 waits: Your application has exceeded usage limit on this call. (error 518)',
    ]);
    expect(waits).toEqual([1000, 2000, 4000]);
    const [order] = await orderOf('30-trading');
    const product = await t.db.prisma.product.findFirstOrThrow({ where: { sku: 'EB-TR-SOLO' } });
    const lines = await t.db.prisma.orderLineItem.findMany({ where: { order_id: order!.id, kind: 'CORE' } });
    expect(lines.map((l) => l.product_id)).toEqual([product.id]);
  });

  it('Trading: eBay never answers ReviseInventoryStatus: the outbound layer cuts the call at the push deadline and the quantity is not taken as set', async () => {
    const conn = await openConnection(await row(), t.db);
    const solo = { remote_id: 'EB-TR-SOLO', listing_id: '110000000101', inventory_item_id: 'trading:item:110000000101' };
    const before = eb.listings.get('110000000101')!.Quantity;
    const calls = eb.calls.length;
    const outcomes: Outcome[] = [];
    const unsubscribe = onOutbound((o) => outcomes.push(o));
    const deadline = process.env.FOS_DEADLINE_PUSH_MS;
    process.env.FOS_DEADLINE_PUSH_MS = '500';
    eb.tradingHangs.add('ReviseInventoryStatus');
    try {
      await expect(connectorFor('EBAY').setStock(conn, env, [{ ...solo, quantity: before + 3 }])).rejects.toThrow(/did not answer in time/);
    } finally {
      eb.tradingHangs.delete('ReviseInventoryStatus');
      unsubscribe();
      if (deadline === undefined) delete process.env.FOS_DEADLINE_PUSH_MS;
      else process.env.FOS_DEADLINE_PUSH_MS = deadline;
    }
    // The call reached eBay and was cut by fos's own timer, not answered.
    expect(eb.calls.slice(calls).some((c) => c.path === '/ws/api.dll')).toBe(true);
    expect(outcomes.some((o) => o.platform === 'ebay' && o.operation === 'push' && o.outcome === 'timeout')).toBe(true);
    expect(eb.listings.get('110000000101')!.Quantity).toBe(before);
  });

  it("a revoked refresh token: the push is FAILED at once with eBay's message, shown on the order", async () => {
    eb.orders.set('40-fail', ebayOrder('40-fail', [{ sku: 'EB-MUG', quantity: 1 }]));
    await sync(new Date(Date.now() - 60_000));
    const [order] = await orderOf('40-fail');
    await shipAll(t, order!.id, '1ZEB402');
    const good = eb.refreshToken;
    eb.refreshToken = 'rotated';
    eb.expireTokens();
    try {
      await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
      const pushes = (await t.call('GET', `/v1/ops/orders/${order!.id}`)).json().sales_channel_pushes;
      expect(pushes[0]).toMatchObject({
        status: 'FAILED',
        detail: expect.stringContaining(
          'eBay refused the token refresh (invalid_grant: the provided authorization refresh token is invalid or was issued to another client)',
        ),
      });
      expect(eb.fulfillments.get('40-fail')).toBeUndefined();
      const check = (await t.call('POST', `/v1/ops/shops/${shopId}/check`)).json();
      expect(check).toMatchObject({ ok: false, error: expect.stringContaining('invalid_grant') });
    } finally {
      eb.refreshToken = good;
    }
  });

  it('orders come by the background poll (on its interval) and by POST …/sync (now), as for every platform', async () => {
    eb.orders.set('50-route', ebayOrder('50-route', [{ sku: 'EB-MUG', quantity: 1 }]));
    await t.db.prisma.shopConnection.update({ where: { shop_id: shopId }, data: { sync_lease_until: null } });
    const now = await t.call('POST', `/v1/ops/shops/${shopId}/sync`);
    expect(now.statusCode, now.body).toBe(200);
    expect(now.json()).toMatchObject({ orders: { created: 1, failed: 0 }, errors: [] });
    expect(await orderOf('50-route')).toHaveLength(1);
    // The background pass (fos serve's channel worker), once the interval has passed.
    eb.orders.set('50-poll', ebayOrder('50-poll', [{ sku: 'EB-MUG', quantity: 1 }]));
    await t.db.prisma.shopConnection.update({ where: { shop_id: shopId }, data: { sync_lease_until: null } });
    expect(await syncDueShops(t.db, env, DEFAULT_SYNC_INTERVAL_MS)).toBe(0); // synced a moment ago: not due
    const later = new Date(Date.now() + DEFAULT_SYNC_INTERVAL_MS + 6 * 60_000);
    expect(await syncDueShops(t.db, env, DEFAULT_SYNC_INTERVAL_MS, later)).toBe(1);
    expect(await orderOf('50-poll')).toHaveLength(1);
  });
});
