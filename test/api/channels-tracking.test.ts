import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silent, type TestApp } from '../helpers/app.js';
import {
  type ChannelsWorld,
  channelsWorld,
  connectShopify,
  connectWoo,
  shopifyDelivery,
  stockedProduct,
  wooDelivery,
} from '../helpers/channels.js';
import { shopifyWebhookOrder, wooOrder, type ShopifyDouble, type WooDouble } from '../helpers/platform-doubles.js';
import { enqueueEvent } from '../../src/domain/events/outbox.js';
import { RETRY_SCHEDULE_MS } from '../../src/domain/webhooks/dispatch.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';
import { pdfText } from '../helpers/pdf.js';

// Tracking out for real: a fulfill's tracking.push reaches the platform double as Shopify
// fulfillmentCreate (trackingInfo, shipped lines, notifyCustomer) or a WooCommerce note plus
// `completed`; PUSHED only after success; a platform 500 is retried and makes one fulfillment;
// a refusal ends FAILED with the platform's message on the order and in the shop's health.

let w: ChannelsWorld;
let t: TestApp;
let shopify: ShopifyDouble;
let woo: WooDouble;
let merchant: { teamId: string };

beforeAll(async () => {
  w = await channelsWorld();
  ({ t, merchant, shopify, woo } = w);
  await stockedProduct(t, merchant.teamId, 'LAMP-1', 50);
});
afterAll(async () => {
  await w?.close();
});

/** Accept, lock, pack everything, label and fulfill the order's one fulfillment order. */
async function ship(orderId: string, tracking: string, bought?: object) {
  const fo = await t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: orderId }, include: { line_items: true } });
  expect((await t.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).statusCode).toBe(200);
  expect(
    (await t.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { body: { lock_owner: 'packer', timeout_minutes: 15 } })).statusCode,
  ).toBe(200);
  const pkg = await t.call('POST', '/v1/ops/packages', {
    body: {
      fulfillment_order_id: fo.id,
      weight: 500,
      weight_unit: 'G',
      package_line_items: fo.line_items.map((l) => ({ sku: l.sku, quantity: l.remaining_quantity })),
    },
  });
  expect(pkg.statusCode, pkg.body).toBe(201);
  const label = await t.call('POST', `/v1/ops/packages/${pkg.json().id}/label`, {
    body: bought ?? {
      label_url: 'https://labels.example/l.pdf',
      tracking_number: tracking,
      carrier: 'UPS',
      service: 'Ground',
      cost: 8,
      cost_currency: 'USD',
    },
  });
  expect(label.statusCode, label.body).toBe(200);
  const fulfill = await t.call('POST', `/v1/ops/packages/${pkg.json().id}/fulfill`, { body: { locked_by: 'packer' } });
  expect(fulfill.statusCode, fulfill.body).toBe(200);
}

/** The tracking.push event of an order (filtered here: JSON paths differ between the databases). */
const eventOf = async (orderId: string) =>
  (await t.db.prisma.outboxEvent.findMany({ where: { kind: 'tracking.push' } })).find(
    (e) => (e.payload as { order: { id: string } }).order.id === orderId,
  )!;

const pushOf = async (orderId: string) => (await t.call('GET', `/v1/ops/orders/${orderId}`)).json().sales_channel_pushes;

describe('tracking to Shopify', () => {
  it('creates one fulfillment with the tracking and shipped lines, after a platform 500 is retried', async () => {
    const shop = await connectShopify(t, merchant.teamId, shopify, { notify_customer: true });
    await shopifyDelivery(t, shop.id, 'orders/create', shopifyWebhookOrder(9001, [{ sku: 'LAMP-1', quantity: 2 }]));
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { shop_id: shop.id, remote_id: 'gid://shopify/Order/9001' } });
    shopify.fulfillmentOrders.set('gid://shopify/Order/9001', [
      {
        id: 'gid://shopify/FulfillmentOrder/1',
        status: 'OPEN',
        lineItems: {
          nodes: [
            { id: 'gid://shopify/FulfillmentOrderLineItem/11', remainingQuantity: 2, lineItem: { id: 'gid://shopify/LineItem/90010' } },
          ],
        },
      },
    ]);
    await ship(order.id, '1ZTRACK9001');

    shopify.failNext('fulfillmentCreate', 1, 500);
    const worker = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true });
    const t0 = new Date();
    await worker.runOnce(t0);
    expect(shopify.fulfillments).toHaveLength(0);
    const event = await eventOf(order.id);
    expect(event).toMatchObject({ delivered_at: null, failed_at: null, attempts: 1 });
    expect((await pushOf(order.id))[0]).toMatchObject({ status: 'RETRYING', attempts: 1 });

    await worker.runOnce(new Date(t0.getTime() + RETRY_SCHEDULE_MS[0]!));
    expect(shopify.fulfillments).toHaveLength(1);
    expect(shopify.fulfillments[0]).toEqual({
      lineItemsByFulfillmentOrder: [
        {
          fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/1',
          fulfillmentOrderLineItems: [{ id: 'gid://shopify/FulfillmentOrderLineItem/11', quantity: 2 }],
        },
      ],
      notifyCustomer: true,
      trackingInfo: { number: '1ZTRACK9001', url: 'https://www.ups.com/track?tracknum=1ZTRACK9001', company: 'UPS' },
    });
    const mutation = shopify.calls.filter((c) => /fulfillmentCreate\(/.test(c.body?.query ?? '')).at(-1)!;
    expect(mutation.headers['x-shopify-access-token']).toBe('shpat_good');
    const done = await t.db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: event.id } });
    expect(done.result).toMatchObject({ tracking_push: { status: 'PUSHED', shop_type: 'SHOPIFY' } });
    expect((await pushOf(order.id))[0]).toMatchObject({ status: 'PUSHED', attempts: 2 });
    // Later passes send nothing again.
    await worker.runOnce(new Date(t0.getTime() + 10 * RETRY_SCHEDULE_MS[0]!));
    expect(shopify.fulfillments).toHaveLength(1);
  });

  it('never sends a TEST label (the rate table, recognised by type) to the shop: the push is SKIPPED, the reason on the order', async () => {
    const table = await t.call('POST', '/v1/ops/carrier-integrations', { body: { name: 'My table', type: 'TABLE' } });
    expect(table.statusCode, table.body).toBe(201);
    await t.call('POST', '/v1/ops/carrier-rates', {
      body: { carrier_id: 'usps', carrier_name: 'USPS', service_id: 'ground', service_name: 'Ground', amount: 4.5, estimated_days: 3 },
    });
    const shop = await connectShopify(t, merchant.teamId, shopify, { notify_customer: true });
    await shopifyDelivery(t, shop.id, 'orders/create', shopifyWebhookOrder(9031, [{ sku: 'LAMP-1', quantity: 1 }]));
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { shop_id: shop.id, remote_id: 'gid://shopify/Order/9031' } });
    await ship(order.id, '', { rate_strategy: 'CHEAPEST' });
    const label = await t.db.prisma.shippingLabel.findFirstOrThrow({ where: { package: { fulfillment_order: { order_id: order.id } } } });
    expect(label).toMatchObject({ carrier_integration_type: 'TABLE', carrier_integration_id: table.json().id });
    // Its printed label carries the TEST banner in both formats (the id is not 'table').
    const pdf = await t.call('GET', `/v1/ops/packages/${label.package_id}/label`);
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toContain('TEST LABEL - NOT VALID FOR SHIPPING');
    const zpl = await t.call('GET', `/v1/ops/packages/${label.package_id}/label?format=zpl`);
    expect(zpl.body).toContain('TEST LABEL');
    const before = shopify.fulfillments.length;
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    expect(shopify.fulfillments).toHaveLength(before);
    expect(shopify.calls.filter((c) => new RegExp(label.tracking_code!).test(JSON.stringify(c.body ?? '')))).toHaveLength(0);
    const push = (await pushOf(order.id))[0];
    expect(push).toMatchObject({ status: 'SKIPPED' });
    expect(push.detail).toMatch(/TEST label .* not sent to SHOPIFY/);
    await t.call('DELETE', `/v1/ops/carrier-integrations/${table.json().id}`);
  });

  it("ends FAILED with the platform's message, shown on the order and in the shop, when Shopify refuses", async () => {
    const shop = await connectShopify(t, merchant.teamId, shopify);
    await shopifyDelivery(t, shop.id, 'orders/create', shopifyWebhookOrder(9002, [{ sku: 'LAMP-1', quantity: 1 }]));
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { shop_id: shop.id, remote_id: 'gid://shopify/Order/9002' } });
    await ship(order.id, '1ZTRACK9002'); // Shopify knows no fulfillment order for it: a permanent refusal
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    const push = (await pushOf(order.id))[0];
    expect(push).toMatchObject({ status: 'FAILED', detail: expect.stringContaining('Shopify has no order gid://shopify/Order/9002') });
    const health = (await t.call('GET', `/v1/ops/shops/${shop.id}`)).json().health;
    expect(health).toMatchObject({ failed_pushes: 1, last_error: expect.stringContaining('tracking push for order #9002') });
    const event = await eventOf(order.id);
    expect(event.failed_at).not.toBeNull();
  });
});

describe('channel updates after fulfillment', () => {
  it('neither re-open nor duplicate work: orders/updated and orders/cancelled of a shipped order change nothing', async () => {
    const shop = await connectShopify(t, merchant.teamId, shopify);
    const body = shopifyWebhookOrder(9003, [{ sku: 'LAMP-1', quantity: 2 }]);
    await shopifyDelivery(t, shop.id, 'orders/create', body);
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { shop_id: shop.id, remote_id: 'gid://shopify/Order/9003' } });
    await ship(order.id, '1ZTRACK9003');
    const snapshot = async () => ({
      order: await t.db.prisma.order.findUniqueOrThrow({ where: { id: order.id }, select: { status: true, cancelled_at: true } }),
      fos: await t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id }, select: { id: true, status: true } }),
      lines: await t.db.prisma.orderLineItem.findMany({
        where: { order_id: order.id },
        select: { id: true, kind: true, remaining_quantity: true, total_quantity: true },
        orderBy: { id: 'asc' },
      }),
      level: await t.db.prisma.inventoryLevel.findFirstOrThrow({
        where: { product: { sku: 'LAMP-1' } },
        select: { on_hand: true, committed: true },
      }),
      pushes: (await t.db.prisma.outboxEvent.findMany({ where: { kind: 'tracking.push' } })).length,
    });
    const before = await snapshot();
    expect(before.fos).toHaveLength(1);
    expect(before.order.cancelled_at).toBeNull();

    const updated = await shopifyDelivery(t, shop.id, 'orders/updated', {
      ...body,
      note: 'changed',
      updated_at: '2026-11-25T10:00:00-05:00',
    });
    expect(updated.json().status).toBe('PROCESSED');
    const cancelled = await shopifyDelivery(t, shop.id, 'orders/cancelled', { ...body, cancelled_at: '2026-11-25T11:00:00-05:00' });
    expect(cancelled.statusCode).toBe(200);
    expect(await t.db.prisma.order.count({ where: { shop_id: shop.id, remote_id: 'gid://shopify/Order/9003' } })).toBe(1);
    expect(await snapshot()).toEqual(before);
  });
});

describe('tracking to WooCommerce', () => {
  it('adds the tracking note and sets the order completed once everything shipped', async () => {
    const shop = await connectWoo(t, merchant.teamId, woo, { notify_customer: true });
    woo.orders.push(wooOrder(8001, [{ sku: 'LAMP-1', quantity: 1 }]));
    await wooDelivery(t, shop.id, 'order.created', woo.orders[0]);
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { shop_id: shop.id, remote_id: '8001' } });
    await ship(order.id, 'TRACK-WOO-1');
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    expect(woo.notes).toEqual([
      {
        order_id: '8001',
        body: {
          note: 'Shipped with UPS: tracking number TRACK-WOO-1 — https://www.ups.com/track?tracknum=TRACK-WOO-1',
          customer_note: true,
        },
      },
    ]);
    const put = woo.calls.find((c) => c.method === 'PUT' && c.path === '/wp-json/wc/v3/orders/8001')!;
    expect(put.body).toEqual({ status: 'completed' });
    expect(woo.orders[0].status).toBe('completed');
    expect((await pushOf(order.id))[0]).toMatchObject({ status: 'PUSHED' });
  });
});

describe('a shop without its connection', () => {
  it('skips the push, saying so on the order: an ETSY shop whose connection is gone (older data, an import)', async () => {
    // Every platform but MANUAL has a connector; a shop row may still lack its connection.
    const shop = await t.db.prisma.shop.create({
      data: { merchant_team_id: merchant.teamId, fulfiller_team_id: t.teamId, name: 'ETSY', slug: 's-ETSY', shop_type: 'ETSY' },
    });
    const order = await t.db.prisma.order.create({
      data: {
        order_number: '#ETSY-1',
        merchant_team_id: merchant.teamId,
        fulfiller_team_id: t.teamId,
        shop_id: shop.id,
        remote_id: 'ETSY-remote-1',
        tags: [],
        line_item_image_urls: [],
      },
    });
    const event = await t.db.prisma.$transaction((tx) =>
      enqueueEvent(tx, t.teamId, 'tracking.push', { tracking: { tracking_code: 'T1' }, order: { id: order.id } }),
    );
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    const row = await t.db.prisma.outboxEvent.findUniqueOrThrow({ where: { id: event.id } });
    expect(row).toMatchObject({ failed_at: null, attempts: 1 });
    expect(row.delivered_at).not.toBeNull();
    expect(await pushOf(order.id)).toEqual([
      expect.objectContaining({ status: 'SKIPPED', detail: `Shop ${shop.id} has no active ETSY connection: nothing was sent.` }),
    ]);
  });
});
