import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
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

// Orders in by webhook: signed deliveries become fos orders through the draft-conversion code,
// once however often (or concurrently) they arrive; bad signatures change nothing; payloads fos
// does not understand are kept, answered 2xx and replayable; holds and cancellations.

let w: ChannelsWorld;
let t: TestApp;
let shopify: ShopifyDouble;
let woo: WooDouble;
let merchant: { teamId: string; token: string };
let shop: { id: string; slug: string };
let mug: { product: { id: string }; warehouseId: string };

beforeAll(async () => {
  w = await channelsWorld();
  ({ t, merchant, shopify, woo } = w);
  shop = await connectShopify(t, merchant.teamId, shopify);
  mug = await stockedProduct(t, merchant.teamId, 'MUG-1', 20);
  await stockedProduct(t, merchant.teamId, 'TEE-1', 20);
});
afterAll(async () => {
  await w?.close();
});

const orderOf = async (remoteId: string) => {
  const row = await t.db.prisma.order.findMany({ where: { shop_id: { not: null }, remote_id: remoteId } });
  expect(row).toHaveLength(1);
  return (await t.call('GET', `/v1/ops/orders/${row[0]!.id}`)).json();
};

describe('Shopify webhooks', () => {
  it('turns a signed orders/create into a fos order with the platform fields, lines and committed stock', async () => {
    const res = await shopifyDelivery(
      t,
      shop.id,
      'orders/create',
      shopifyWebhookOrder(5001, [{ sku: 'MUG-1', quantity: 2, price: '9.50' }]),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'PROCESSED' });
    const order = await orderOf('gid://shopify/Order/5001');
    expect(order).toMatchObject({
      order_number: '#5001',
      remote_id: 'gid://shopify/Order/5001',
      shop_id: shop.id,
      shop_type: 'SHOPIFY',
      payment_status: 'PAID',
      customer_email: 'grace@example.com',
      customer_name: 'Grace Hopper',
      note: 'Leave at door',
      tags: ['vip', 'web'],
      shipping_address_city: 'Arlington',
      shipping_address_state: 'VA',
      shipping_method: 'Priority',
      total_tax: 2,
      total_shipping: 5,
    });
    expect(order.synced_at).not.toBeNull();
    expect(order.metadata.shopify).toEqual([{ key: 'gift_wrap', value: 'yes' }]);
    expect(order.original_order_line_items[0]).toMatchObject({
      sku: 'MUG-1',
      price: 9.5,
      remote_id: 'gid://shopify/LineItem/50010',
      total_quantity: 2,
      shop_id: shop.id,
    });
    expect(order.core_order_line_items[0]).toMatchObject({ product_id: mug.product.id, total_quantity: 2 });
    expect(order.order_fulfillment_holds).toEqual([]);
    const level = await t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { product_id: mug.product.id } });
    expect(level.committed).toBe(2);
    const health = (await t.call('GET', `/v1/ops/shops/${shop.id}`)).json().health;
    expect(health.webhooks_received).toBeGreaterThanOrEqual(1);
  });

  it('makes one order from the same delivery repeated and from concurrent deliveries', async () => {
    const body = shopifyWebhookOrder(5002, [{ sku: 'TEE-1', quantity: 1 }]);
    const results = await Promise.all(Array.from({ length: 6 }, () => shopifyDelivery(t, shop.id, 'orders/create', body)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    await shopifyDelivery(t, shop.id, 'orders/updated', body);
    expect(await t.db.prisma.order.count({ where: { shop_id: shop.id, remote_id: 'gid://shopify/Order/5002' } })).toBe(1);
    const order = await orderOf('gid://shopify/Order/5002');
    expect(order.core_order_line_items).toHaveLength(1);
    expect(await t.db.prisma.fulfillmentOrder.count({ where: { order_id: order.id } })).toBe(1);
  });

  it('refuses a bad or missing signature with 401 problem+json and changes nothing', async () => {
    const before = await t.db.prisma.channelDelivery.count();
    const body = shopifyWebhookOrder(5003, [{ sku: 'MUG-1', quantity: 1 }]);
    const bad = await shopifyDelivery(t, shop.id, 'orders/create', body, { secret: 'wrong' });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    const raw = JSON.stringify(body);
    const none = await t.call('POST', `/v1/channels/${shop.id}/webhooks`, {
      token: null,
      body: raw,
      headers: { 'content-type': 'application/json', 'x-shopify-topic': 'orders/create' },
    });
    expect(none.statusCode).toBe(401);
    const unknownShop = await shopifyDelivery(t, '0190f0f0-0000-7000-8000-000000000000', 'orders/create', body);
    expect(unknownShop.statusCode).toBe(401);
    expect(await t.db.prisma.channelDelivery.count()).toBe(before);
    expect(await t.db.prisma.order.count({ where: { remote_id: 'gid://shopify/Order/5003' } })).toBe(0);
  });

  it('keeps a payload it does not understand (2xx, FAILED with the reason) and replays it', async () => {
    const res = await shopifyDelivery(t, shop.id, 'orders/create', { id: 5004, surprise: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('FAILED');
    const list = await t.call('GET', `/v1/ops/shops/${shop.id}/deliveries`, { query: { status: 'FAILED' } });
    const failed = list.json().data.find((d: { id: string }) => d.id === res.json().delivery_id);
    expect(failed).toMatchObject({ topic: 'orders/create', status: 'FAILED' });
    expect(failed.error).toMatch(/not a Shopify order/);
    const notJson = await t.call('POST', `/v1/channels/${shop.id}/webhooks`, {
      token: null,
      body: 'not json',
      headers: {
        'content-type': 'text/plain',
        'x-shopify-topic': 'orders/create',
        'x-shopify-hmac-sha256': (await import('../helpers/platform-doubles.js')).sign('shopify-webhook-secret', 'not json'),
      },
    });
    expect(notJson.statusCode).toBe(200);
    expect(notJson.json().status).toBe('FAILED');
    const replay = await t.call('POST', `/v1/ops/shops/${shop.id}/deliveries/${failed.id}/replay`);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ status: 'FAILED', attempts: 2 });
    expect((await t.call('GET', `/v1/ops/shops/${shop.id}`)).json().health.failed_deliveries).toBeGreaterThanOrEqual(2);
  });

  it('replays a delivery that failed for a reason since fixed: the order is created once', async () => {
    // A SKU fos does not know yet: the order is taken with an UNMAPPED_ITEM hold.
    const res = await shopifyDelivery(
      t,
      shop.id,
      'orders/create',
      shopifyWebhookOrder(5005, [
        { sku: 'NEW-SKU', quantity: 1 },
        { sku: 'MUG-1', quantity: 1 },
      ]),
    );
    expect(res.json().status).toBe('PROCESSED');
    const order = await orderOf('gid://shopify/Order/5005');
    expect(order.order_fulfillment_holds).toEqual([
      expect.objectContaining({ active: true, reason: 'UNMAPPED_ITEM', reason_notes: expect.stringContaining('NEW-SKU') }),
    ]);
    expect(order.original_order_line_items).toHaveLength(2);
    expect(order.core_order_line_items).toHaveLength(1);
    const again = await t.call('POST', `/v1/ops/shops/${shop.id}/deliveries/${res.json().delivery_id}/replay`);
    expect(again.json()).toMatchObject({ status: 'PROCESSED', order_id: order.id });
    expect(await t.db.prisma.order.count({ where: { remote_id: 'gid://shopify/Order/5005' } })).toBe(1);
  });

  it('holds an unpaid order (AWAITING_PAYMENT) until orders/updated says it is paid', async () => {
    const body = shopifyWebhookOrder(5006, [{ sku: 'MUG-1', quantity: 1 }], { financial_status: 'pending' });
    await shopifyDelivery(t, shop.id, 'orders/create', body);
    let order = await orderOf('gid://shopify/Order/5006');
    expect(order.payment_status).toBe('PENDING');
    expect(order.order_fulfillment_holds).toEqual([expect.objectContaining({ active: true, reason: 'AWAITING_PAYMENT' })]);
    await shopifyDelivery(t, shop.id, 'orders/updated', { ...body, financial_status: 'paid' });
    order = await orderOf('gid://shopify/Order/5006');
    expect(order.payment_status).toBe('PAID');
    expect(order.order_fulfillment_holds.filter((h: { active: boolean }) => h.active)).toEqual([]);
  });

  it('cancels what is not shipped and releases its stock on orders/cancelled', async () => {
    const body = shopifyWebhookOrder(5007, [{ sku: 'TEE-1', quantity: 3 }]);
    const level = () => t.db.prisma.inventoryLevel.findFirstOrThrow({ where: { product: { sku: 'TEE-1' } } });
    const before = (await level()).committed;
    await shopifyDelivery(t, shop.id, 'orders/create', body);
    expect((await level()).committed).toBe(before + 3);
    const res = await shopifyDelivery(t, shop.id, 'orders/cancelled', { ...body, cancelled_at: '2026-11-24T11:00:00-05:00' });
    expect(res.json().status).toBe('PROCESSED');
    const order = await orderOf('gid://shopify/Order/5007');
    expect(order.status).toBe('CANCELLED');
    expect(order.cancelled_at).not.toBeNull();
    expect((await level()).committed).toBe(before);
    const fo = await t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: order.id } });
    expect(fo.status).toBe('CANCELLED');
    // Released by the cancel of the order (fulfillment/cancel.ts), per fulfillment order.
    const released = await t.db.prisma.inventoryMovement.findMany({ where: { reference_id: fo.id, kind: 'RELEASED' } });
    expect(released.map((m) => m.delta)).toEqual([-3]);
    // A cancellation delivered again changes nothing more.
    await shopifyDelivery(t, shop.id, 'orders/cancelled', { ...body, cancelled_at: '2026-11-24T11:00:00-05:00' });
    expect((await level()).committed).toBe(before);
  });

  it('acknowledges topics it does not handle without touching orders', async () => {
    const res = await shopifyDelivery(t, shop.id, 'products/update', { id: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('IGNORED');
  });
});

describe('WooCommerce webhooks', () => {
  it('answers the unsigned ping, takes order.created once, and cancels on order.deleted', async () => {
    const wooShop = await connectWoo(t, merchant.teamId, woo);
    const ping = await t.call('POST', `/v1/channels/${wooShop.id}/webhooks`, {
      token: null,
      body: 'webhook_id=17',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(ping.statusCode).toBe(200);
    expect(ping.json()).toEqual({ status: 'PING', delivery_id: null });

    const body = wooOrder(7001, [{ sku: 'MUG-1', quantity: 1, price: 12 }]);
    const [a, b] = await Promise.all([
      wooDelivery(t, wooShop.id, 'order.created', body),
      wooDelivery(t, wooShop.id, 'order.created', body),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const order = await orderOf('7001');
    expect(order).toMatchObject({
      order_number: '#7001',
      payment_status: 'PAID',
      currency: 'EUR',
      customer_name: 'Alan Turing',
      note: 'Ring twice',
      shipping_address_zip: 'MK3 6EB',
      total_shipping: 4,
    });
    expect(order.metadata.meta_data).toEqual([{ key: 'delivery_slot', value: 'morning' }]);
    expect(order.original_order_line_items[0]).toMatchObject({ remote_id: '70010', price: 12 });

    const bad = await wooDelivery(t, wooShop.id, 'order.created', body, { secret: 'nope' });
    expect(bad.statusCode).toBe(401);
    const del = await wooDelivery(t, wooShop.id, 'order.deleted', { id: 7001 });
    expect(del.json().status).toBe('PROCESSED');
    expect((await orderOf('7001')).status).toBe('CANCELLED');
  });
});
