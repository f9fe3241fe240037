import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silent, type TestApp } from '../helpers/app.js';
import { type ChannelsWorld, channelsWorld, pushRetriedOnce, shipAll, stockedProduct } from '../helpers/channels.js';
import { amazonConnection, amazonDouble, amzOrder, connectAmazon, type AmazonDouble } from '../helpers/amazon-double.js';
import { setRateLimitSleep } from '../../src/connectors/channels/amazon/client.js';
import { connectorFor, openConnection } from '../../src/domain/channels/connection.js';
import { intakeOrder } from '../../src/domain/channels/intake.js';
import { pushStock } from '../../src/domain/channels/stock.js';
import { DEFAULT_SYNC_INTERVAL_MS, syncConnection, syncDueShops } from '../../src/domain/channels/sync.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// Amazon SP-API (issue 39 item 3) against a double speaking the documented shapes: LWA's token
// form, x-amz-access-token on every call, getOrders with NextToken paging, getOrderItems, the
// address through a Restricted Data Token (or, without the restricted role, an order held without
// a street), FBA orders skipped with the reason, confirmShipment with tracking, patchListingsItem
// stock, an expired token renewed, a 429 waited out as x-amzn-RateLimit-Limit says.

let w: ChannelsWorld;
let t: TestApp;
let amz: AmazonDouble;
let shopId: string;
const waits: number[] = [];
let restoreSleep: (ms: number) => Promise<void>;
const env = { allowPrivate: true };

beforeAll(async () => {
  w = await channelsWorld();
  t = w.t;
  amz = await amazonDouble();
  restoreSleep = setRateLimitSleep(async (ms) => void waits.push(ms));
  await stockedProduct(t, w.merchant.teamId, 'AMZ-MUG', 500);
  shopId = (await connectAmazon(t, w.merchant.teamId, amz)).id;
});
afterAll(async () => {
  if (restoreSleep) setRateLimitSleep(restoreSleep);
  await amz?.close();
  await w?.close();
});
afterEach(() => {
  waits.length = 0;
  amz.pii = true;
});

const orderOf = (id: string) => t.db.prisma.order.findMany({ where: { shop_id: shopId, remote_id: id } });
const row = () => t.db.prisma.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });
const sync = async (since?: Date) => syncConnection(t.db, await row(), env, since ? { since } : {});
const callsTo = (path: string) => amz.calls.filter((c) => c.path === path);

describe('Amazon', () => {
  it('connects: LWA refresh-token form, then getMarketplaceParticipations with the token; credentials sealed', async () => {
    const form = callsTo('/auth/o2/token')[0]!;
    expect(form.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(form.body).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'Atzr|good-refresh',
      client_id: 'amzn1.application-oa2-client.fos',
      client_secret: 'lwa-secret',
    });
    const check = callsTo('/sellers/v1/marketplaceParticipations')[0]!;
    expect(check.headers['x-amz-access-token']).toBe('Atza|access-1');
    const stored = await row();
    for (const secret of ['Atzr|good-refresh', 'lwa-secret', 'Atza|access-1']) expect(stored.credentials).not.toContain(secret);
    expect(stored.shop_domain).toBe('ATVPDKIKX0DER');
    const view = (await t.call('GET', `/v1/ops/shops/${shopId}`)).json();
    expect(view).toMatchObject({
      shop_type: 'AMAZON',
      connected: true,
      connection: { shop_domain: 'ATVPDKIKX0DER', api_base_url: amz.url },
    });
    expect(JSON.stringify(view)).not.toMatch(/Atzr|lwa-secret/);

    // A refresh token LWA refuses: 400 with LWA's words, nothing stored.
    const bad = await t.call('POST', '/v1/ops/shops', {
      body: {
        name: 'Amazon refused',
        shop_type: 'AMAZON',
        merchant_team_id: w.merchant.teamId,
        connection: { ...amazonConnection(amz), refresh_token: 'Atzr|wrong' },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/Login with Amazon refused the token request \(invalid_grant: The request has an invalid grant/);
    expect(await t.db.prisma.shop.findFirst({ where: { name: 'Amazon refused' } })).toBeNull();
    // SP-API sends no webhooks: a delivery to an Amazon shop is refused.
    const hook = await t.call('POST', `/v1/channels/${shopId}/webhooks`, {
      token: null,
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(hook.statusCode).toBe(401);
  });

  it('syncs merchant-fulfilled orders page by page, the address by RDT; FBA and Pending orders skipped with the reason', async () => {
    amz.orders.set(
      '111-0000001-0000001',
      amzOrder('111-0000001-0000001', [
        { sku: 'AMZ-MUG', quantity: 2, price: 12.5 },
        { sku: 'AMZ-MUG', quantity: 1 },
      ]),
    );
    amz.orders.set('111-0000001-0000002', amzOrder('111-0000001-0000002', [{ sku: 'AMZ-MUG', quantity: 1 }]));
    amz.orders.set('111-0000001-0000003', amzOrder('111-0000001-0000003', [{ sku: 'AMZ-MUG', quantity: 1 }], { channel: 'AFN' }));
    amz.orders.set('111-0000001-0000004', amzOrder('111-0000001-0000004', [{ sku: 'AMZ-MUG', quantity: 1 }]));
    amz.orders.set('111-0000001-0000005', amzOrder('111-0000001-0000005', [{ sku: 'AMZ-MUG', quantity: 1 }], { status: 'Shipped' }));
    const s = await sync();
    expect(s!.errors).toEqual([]);
    expect(s!.orders).toMatchObject({ created: 3, ignored: 1, failed: 0 });
    expect(s!.skipped).toEqual([
      {
        remote_id: '111-0000001-0000003',
        order_number: '111-0000001-0000003',
        reason: expect.stringContaining('fulfilled by Amazon (FulfillmentChannel AFN)'),
      },
    ]);
    // The first sync: open orders, by CreatedAfter; the next page with NextToken and the same filters.
    const lists = callsTo('/orders/v0/orders');
    expect(lists).toHaveLength(2);
    expect(lists[0]!.query).toEqual({
      MarketplaceIds: 'ATVPDKIKX0DER',
      CreatedAfter: expect.any(String),
      OrderStatuses: 'Unshipped,PartiallyShipped',
      MaxResultsPerPage: '100',
    });
    expect(lists[1]!.query).toEqual({ ...lists[0]!.query, NextToken: expect.any(String) });
    for (const c of lists) expect(c.headers['x-amz-access-token']).toMatch(/^Atza\|/);
    // Items paged by NextToken too; one RDT per page for the address path of every order.
    expect(callsTo('/orders/v0/orders/111-0000001-0000001/orderItems').map((c) => c.query)).toEqual([{}, { NextToken: 'items1' }]);
    const rdt = callsTo('/tokens/2021-03-01/restrictedDataToken');
    expect(rdt).toHaveLength(2);
    expect(rdt[0]!.body).toEqual({ restrictedResources: [{ method: 'GET', path: '/orders/v0/orders/{orderId}/address' }] });
    expect(callsTo('/orders/v0/orders/111-0000001-0000001/address')[0]!.headers['x-amz-access-token']).toMatch(/^Atz\.sprdt\|/);

    const [order] = await orderOf('111-0000001-0000001');
    expect(order).toMatchObject({ order_number: '111-0000001-0000001', payment_status: 'PAID', currency: 'USD' });
    expect(order!.shipping_address).toMatchObject({
      name: 'Ada Lovelace',
      address1: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zip: '78751',
      country: 'US',
    });
    const lines = await t.db.prisma.orderLineItem.findMany({ where: { order_id: order!.id, kind: 'CORE' }, orderBy: { remote_id: 'asc' } });
    expect(lines.map((l) => [l.remote_id, l.sku, l.total_quantity, l.price])).toEqual([
      ['111000000100000011', 'AMZ-MUG', 2, 12.5],
      ['111000000100000012', 'AMZ-MUG', 1, 10],
    ]);
    expect(await t.db.prisma.orderFulfillmentHold.count({ where: { order_id: order!.id, active: true } })).toBe(0);
    expect(await orderOf('111-0000001-0000003')).toHaveLength(0); // FBA
    expect(await orderOf('111-0000001-0000005')).toHaveLength(0); // already shipped: not backfilled
  }, 120_000);

  it('makes one order per Amazon order under repeated and concurrent syncs', async () => {
    amz.orders.set('111-0000001-0000006', amzOrder('111-0000001-0000006', [{ sku: 'AMZ-MUG', quantity: 1 }], { status: 'Pending' }));
    const again = await sync(new Date(Date.now() - 3_600_000));
    expect(again!.orders).toMatchObject({ created: 0, unchanged: 3, ignored: 3 });
    expect(again!.skipped.map((k) => [k.remote_id, k.reason.split(':')[0]])).toEqual([
      ['111-0000001-0000003', 'fulfilled by Amazon (FulfillmentChannel AFN)'],
      ['111-0000001-0000005', 'Shipped'],
      ['111-0000001-0000006', 'Pending'],
    ]);
    expect(callsTo('/orders/v0/orders').at(-1)!.query).toMatchObject({
      LastUpdatedAfter: expect.any(String),
      MarketplaceIds: 'ATVPDKIKX0DER',
    });
    const conn = openConnection(await row(), t.db);
    const since = new Date(Date.now() - 3_600_000);
    const page = await connectorFor('AMAZON').orders(conn, env, since, null);
    // getOrders shows a change about two minutes late: the sync reads that much further back.
    expect(callsTo('/orders/v0/orders').at(-1)!.query.LastUpdatedAfter).toBe(new Date(since.getTime() - 120_000).toISOString());
    const shop = await t.db.prisma.shop.findUniqueOrThrow({ where: { id: shopId } });
    const o = page.items.find((x) => x.remote_id === '111-0000001-0000002')!;
    await Promise.all(Array.from({ length: 6 }, () => intakeOrder(t.db, shop, o, env)));
    for (const id of ['111-0000001-0000001', '111-0000001-0000002', '111-0000001-0000004']) expect(await orderOf(id)).toHaveLength(1);
  }, 120_000);

  it('without the restricted-data role: the order comes in without a street, held, the reason in its note', async () => {
    amz.pii = false;
    amz.orders.set('111-0000002-0000001', amzOrder('111-0000002-0000001', [{ sku: 'AMZ-MUG', quantity: 1 }]));
    const s = await sync(new Date(Date.now() - 60_000));
    expect(s!.errors).toEqual([]);
    const [order] = await orderOf('111-0000002-0000001');
    expect(order!.shipping_address).toBeNull();
    expect(order!.note).toMatch(
      /^Amazon gave no buyer name or street for this order \(Amazon refused the call \(HTTP 403\): Unauthorized: .*\); it names AUSTIN, TX, 78751-1234, US\. .*Direct-to-Consumer Shipping/,
    );
    const holds = await t.db.prisma.orderFulfillmentHold.findMany({ where: { order_id: order!.id, active: true } });
    expect(holds.map((h) => h.reason)).toEqual(['ADDRESS_VERIFICATION_FAILED']);
    // Orders fos already has, read again without the role, keep their address.
    expect((await orderOf('111-0000001-0000001'))[0]!.shipping_address).toMatchObject({ address1: '1 Main St' });
  });

  it('renews an expired access token once, stores it sealed, and waits out a 429 as x-amzn-RateLimit-Limit says', async () => {
    const before = amz.tokensIssued;
    const sealed = (await row()).credentials;
    amz.expireTokens();
    amz.failNext('GET /orders/v0/orders', 1, 429, { 'x-amzn-RateLimit-Limit': '0.0167' });
    amz.orders.set('111-0000003-0000001', amzOrder('111-0000003-0000001', [{ sku: 'AMZ-MUG', quantity: 1 }]));
    const s = await sync(new Date(Date.now() - 60_000));
    expect(s!.errors).toEqual([]);
    expect(amz.tokensIssued).toBe(before + 1); // the 403 "expired" renewed it; the 429 did not
    expect(waits).toEqual([Math.ceil(1000 / 0.0167)]); // 1 / the operation's rate, not a guess
    expect(await orderOf('111-0000003-0000001')).toHaveLength(1);
    expect((await row()).credentials).not.toBe(sealed);
    expect((await row()).credentials).not.toContain(`Atza|access-${before + 1}`);
  });

  it('confirms the shipment with tracking (confirmShipment), once', async () => {
    const [order] = await orderOf('111-0000001-0000002');
    await shipAll(t, order!.id, '1Z-AMZ-2');
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    const pushes = (await t.call('GET', `/v1/ops/orders/${order!.id}`)).json().sales_channel_pushes;
    expect(pushes[0]).toMatchObject({
      status: 'PUSHED',
      detail: expect.stringMatching(/^Amazon shipment confirmed for 111-0000001-0000002: package \d+, UPS 1Z-AMZ-2$/),
    });
    const [c] = amz.confirmations;
    expect(c!.body).toEqual({
      marketplaceId: 'ATVPDKIKX0DER',
      packageDetail: {
        packageReferenceId: expect.stringMatching(/^[1-9]\d*$/),
        carrierCode: 'UPS',
        trackingNumber: '1Z-AMZ-2',
        shipDate: expect.any(String),
        orderItems: [{ orderItemId: '111000000100000021', quantity: 1 }],
      },
    });
    const post = callsTo('/orders/v0/orders/111-0000001-0000002/shipmentConfirmation')[0]!;
    expect(post.headers['content-type']).toBe('application/json');
    // Sent again (its answer lost): Amazon already counts the items shipped, nothing is confirmed twice.
    const again = await connectorFor('AMAZON').fulfill(
      openConnection(await row()),
      env,
      { remote_id: '111-0000001-0000002', order_number: '111-0000001-0000002' },
      [{ remote_id: '111000000100000021', quantity: 1 }],
      { number: '1Z-AMZ-2', url: null, company: 'UPS' },
      true,
    );
    expect(again).toMatch(/already counts the items of 111-0000001-0000002 shipped/);
    expect(amz.confirmations).toHaveLength(1);
  });

  it('a confirmation Amazon fails (HTTP 503) is RETRYING with its words, sent again after the backoff, then PUSHED once', async () => {
    const id = '111-0000005-0000001';
    amz.orders.set(id, amzOrder(id, [{ sku: 'AMZ-MUG', quantity: 1 }]));
    await sync(new Date(Date.now() - 60_000));
    const [order] = await orderOf(id);
    await shipAll(t, order!.id, '1Z-AMZ-51');
    const post = `/orders/v0/orders/${id}/shipmentConfirmation`;
    amz.failNext(`POST ${post}`, 1, 503);
    await pushRetriedOnce(t, order!.id, {
      failed: `Amazon: InternalFailure: double fault on POST ${post} (HTTP 503)`,
      pushed: expect.stringContaining('UPS 1Z-AMZ-51'),
      sent: () => amz.confirmations.filter((c) => c.orderId === id).length,
      calls: () => callsTo(post).length,
    });
  });

  it('imports listings (searchListingsItems) and pushes stock by patchListingsItem', async () => {
    amz.listings = [
      {
        sku: 'AMZ-MUG',
        summaries: [
          {
            marketplaceId: 'ATVPDKIKX0DER',
            asin: 'B0MUG',
            productType: 'DRINKING_CUP',
            itemName: 'Mug',
            status: ['BUYABLE'],
            createdDate: '2025-01-01T00:00:00Z',
            lastUpdatedDate: '2025-01-01T00:00:00Z',
            mainImage: { link: 'https://m.media-amazon.com/mug.jpg', height: 500, width: 500 },
          },
        ],
        offers: [{ marketplaceId: 'ATVPDKIKX0DER', offerType: 'B2C', price: { currencyCode: 'USD', amount: 12.5 } }],
      },
      {
        sku: 'AMZ-OTHER',
        summaries: [
          {
            marketplaceId: 'ATVPDKIKX0DER',
            asin: 'B0OTHER',
            productType: 'PRODUCT',
            itemName: 'Other',
            status: [],
            createdDate: '2025-01-01T00:00:00Z',
            lastUpdatedDate: '2025-01-01T00:00:00Z',
          },
        ],
      },
    ];
    const s = await sync(new Date(Date.now() - 60_000));
    expect(s!.listings).toEqual({ imported: 1, unmatched: 1 });
    expect(callsTo(`/listings/2021-08-01/items/${amz.sellerId}`)[0]!.query).toEqual({
      marketplaceIds: 'ATVPDKIKX0DER',
      includedData: 'summaries,offers',
      pageSize: '20',
    });
    const listing = await t.db.prisma.productListingVariant.findFirstOrThrow({ where: { shop_id: shopId, remote_id: 'AMZ-MUG' } });
    expect(listing).toMatchObject({
      product_listing_id: 'B0MUG',
      sku: 'AMZ-MUG',
      price: 12.5,
      currency: 'USD',
      remote_inventory_item_id: 'DRINKING_CUP',
    });

    // A write throttled (429: refused before Amazon did anything) is sent again after 1 / the operation's rate.
    amz.failNext(`PATCH /listings/2021-08-01/items/${amz.sellerId}/AMZ-MUG`, 1, 429, { 'x-amzn-RateLimit-Limit': '5' });
    const stats = await pushStock(t.db, env);
    expect(stats).toMatchObject({ failed: 0 });
    expect(waits).toEqual([200]);
    expect(callsTo(`/listings/2021-08-01/items/${amz.sellerId}/AMZ-MUG`).filter((c) => c.method === 'PATCH')).toHaveLength(2);
    const level = await t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { product_id: listing.product_id } });
    expect(amz.patches.at(-1)).toEqual({
      sku: 'AMZ-MUG',
      query: { marketplaceIds: 'ATVPDKIKX0DER' },
      body: {
        productType: 'DRINKING_CUP',
        patches: [
          {
            op: 'replace',
            path: '/attributes/fulfillment_availability',
            value: [{ fulfillment_channel_code: 'DEFAULT', quantity: level.on_hand - level.committed - level.unavailable }],
          },
        ],
      },
    });
  });

  it("a refresh token Amazon no longer takes: the push is FAILED at once with LWA's message, on the order", async () => {
    amz.orders.set('111-0000004-0000001', amzOrder('111-0000004-0000001', [{ sku: 'AMZ-MUG', quantity: 1 }]));
    await sync(new Date(Date.now() - 60_000));
    const [order] = await orderOf('111-0000004-0000001');
    await shipAll(t, order!.id, '1Z-AMZ-4');
    amz.refreshToken = 'Atzr|rotated';
    amz.expireTokens();
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    const pushes = (await t.call('GET', `/v1/ops/orders/${order!.id}`)).json().sales_channel_pushes;
    expect(pushes[0]).toMatchObject({
      status: 'FAILED',
      detail: expect.stringContaining('Login with Amazon refused the token request (invalid_grant'),
    });
    expect(amz.confirmations.filter((c) => c.orderId === '111-0000004-0000001')).toHaveLength(0);
    const check = (await t.call('POST', `/v1/ops/shops/${shopId}/check`)).json();
    expect(check).toMatchObject({ ok: false, error: expect.stringContaining('invalid_grant') });
    amz.refreshToken = 'Atzr|good-refresh';
  });

  it('orders come by the background poll (on its interval) and by POST …/sync (now), as for every platform', async () => {
    const [a, b] = ['111-0000006-0000001', '111-0000006-0000002'];
    amz.orders.set(a, amzOrder(a, [{ sku: 'AMZ-MUG', quantity: 1 }]));
    await t.db.prisma.shopConnection.update({ where: { shop_id: shopId }, data: { sync_lease_until: null } });
    const now = await t.call('POST', `/v1/ops/shops/${shopId}/sync`);
    expect(now.statusCode, now.body).toBe(200);
    expect(now.json()).toMatchObject({ orders: { created: 1, failed: 0 }, errors: [] });
    expect(await orderOf(a)).toHaveLength(1);
    amz.orders.set(b, amzOrder(b, [{ sku: 'AMZ-MUG', quantity: 1 }]));
    await t.db.prisma.shopConnection.update({ where: { shop_id: shopId }, data: { sync_lease_until: null } });
    expect(await syncDueShops(t.db, env, DEFAULT_SYNC_INTERVAL_MS)).toBe(0); // synced a moment ago: not due
    const later = new Date(Date.now() + DEFAULT_SYNC_INTERVAL_MS + 6 * 60_000);
    expect(await syncDueShops(t.db, env, DEFAULT_SYNC_INTERVAL_MS, later)).toBe(1);
    expect(await orderOf(b)).toHaveLength(1);
  });
});
