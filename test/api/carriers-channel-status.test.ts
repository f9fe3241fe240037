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
import { easypostDouble, type EasyPostDouble } from '../helpers/easypost-double.js';
import { shopifyWebhookOrder, wooOrder, type ShopifyDouble, type WooDouble } from '../helpers/platform-doubles.js';
import { easypostSignature } from '../../src/connectors/carriers/easypost/webhook.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// Issue 26 item 5: a carrier's tracking update of a parcel already shipped to a shop's customer
// is pushed to that shop: Shopify gets a fulfillmentEventCreate on the fulfillment the fulfill's
// push created (found by its tracking number), WooCommerce an order note. The label is bought
// through the EasyPost double and the update arrives as its signed tracker webhook. A shop's
// order is also address-verified through EasyPost when it comes in (item 6).

let w: ChannelsWorld;
let t: TestApp;
let shopify: ShopifyDouble;
let woo: WooDouble;
let ep: EasyPostDouble;
let epId: string;
let merchant: { teamId: string };

beforeAll(async () => {
  [w, ep] = await Promise.all([channelsWorld(), easypostDouble()]);
  ({ t, merchant, shopify, woo } = w);
  await stockedProduct(t, merchant.teamId, 'LAMP-2', 50);
  const ci = await t.call('POST', '/v1/ops/carrier-integrations', {
    body: { name: 'EasyPost', type: 'EASYPOST', api_base_url: `${ep.url}/v2`, credentials: { api_key: ep.apiKey, webhook_secret: 'whs' } },
  });
  expect(ci.statusCode, ci.body).toBe(201);
  epId = ci.json().id;
});
afterAll(async () => {
  await ep?.close();
  await w?.close();
});

/** Accept, lock, pack, buy the label through EasyPost, fulfill; returns the tracking code. */
async function ship(orderId: string): Promise<string> {
  const fo = await t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: orderId }, include: { line_items: true } });
  expect((await t.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).statusCode).toBe(200);
  const lock = await t.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { body: { lock_owner: 'packer', timeout_minutes: 15 } });
  expect(lock.statusCode, lock.body).toBe(200);
  const pkg = await t.call('POST', '/v1/ops/packages', {
    body: {
      fulfillment_order_id: fo.id,
      weight: 500,
      weight_unit: 'G',
      package_line_items: fo.line_items.map((l) => ({ sku: l.sku, quantity: l.remaining_quantity })),
    },
  });
  expect(pkg.statusCode, pkg.body).toBe(201);
  const label = await t.call('POST', `/v1/ops/packages/${pkg.json().id}/label`, { body: { rate_strategy: 'CHEAPEST' } });
  expect(label.statusCode, label.body).toBe(200);
  expect(label.json().carrier_integration_id).toBe(epId);
  const fulfill = await t.call('POST', `/v1/ops/packages/${pkg.json().id}/fulfill`, { body: { locked_by: 'packer' } });
  expect(fulfill.statusCode, fulfill.body).toBe(200);
  return label.json().shipping_label_tracking_code;
}

/** EasyPost's signed tracker.updated: in transit, then delivered. */
async function delivered(code: string) {
  const raw = JSON.stringify({
    object: 'Event',
    description: 'tracker.updated',
    result: {
      object: 'Tracker',
      tracking_code: code,
      status: 'delivered',
      tracking_details: [
        { status: 'in_transit', message: 'Departed facility', datetime: '2026-11-20T08:00:00Z' },
        { status: 'delivered', message: 'Delivered, front door', datetime: '2026-11-21T15:00:00Z' },
      ],
    },
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/carriers/${epId}/webhooks`,
    payload: raw,
    headers: { 'content-type': 'application/json', 'x-hmac-signature': easypostSignature('whs', raw) },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ received: true, applied: true });
}

const pushesOf = async (orderId: string) => (await t.call('GET', `/v1/ops/orders/${orderId}`)).json().sales_channel_pushes as any[];

describe('carrier tracking pushed to the shop', () => {
  it('Shopify: a fulfillment event on the fulfillment with that tracking number', async () => {
    const shop = await connectShopify(t, merchant.teamId, shopify);
    await shopifyDelivery(t, shop.id, 'orders/create', shopifyWebhookOrder(9101, [{ sku: 'LAMP-2', quantity: 1 }]));
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { shop_id: shop.id, remote_id: 'gid://shopify/Order/9101' } });
    shopify.fulfillmentOrders.set('gid://shopify/Order/9101', [
      {
        id: 'gid://shopify/FulfillmentOrder/91',
        status: 'OPEN',
        lineItems: {
          nodes: [
            { id: 'gid://shopify/FulfillmentOrderLineItem/911', remainingQuantity: 1, lineItem: { id: 'gid://shopify/LineItem/91010' } },
          ],
        },
      },
    ]);
    const code = await ship(order.id);
    const worker = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true });
    await worker.runOnce(new Date());
    expect(shopify.fulfillments.at(-1).trackingInfo.number).toBe(code);
    expect(shopify.fulfillmentEvents).toHaveLength(0);

    await delivered(code);
    await worker.runOnce(new Date());
    expect(shopify.fulfillmentEvents).toEqual([
      {
        fulfillmentId: `gid://shopify/Fulfillment/${shopify.fulfillments.length}`,
        status: 'DELIVERED',
        message: 'Delivered, front door',
        happenedAt: '2026-11-21T15:00:00.000Z',
      },
    ]);
    expect((await pushesOf(order.id)).map((p) => p.status)).toEqual(['PUSHED', 'PUSHED']);

    // A repeated delivery of the same events changes nothing and pushes nothing.
    const before = await t.db.prisma.outboxEvent.count({ where: { kind: 'tracking.push' } });
    const raw = JSON.stringify({
      object: 'Event',
      description: 'tracker.updated',
      result: { object: 'Tracker', tracking_code: code, tracking_details: [{ status: 'delivered', datetime: '2026-11-21T15:00:00Z' }] },
    });
    await t.app.inject({
      method: 'POST',
      url: `/v1/carriers/${epId}/webhooks`,
      payload: raw,
      headers: { 'content-type': 'application/json', 'x-hmac-signature': easypostSignature('whs', raw) },
    });
    expect(await t.db.prisma.outboxEvent.count({ where: { kind: 'tracking.push' } })).toBe(before);
  });

  it('WooCommerce: an order note with the new status', async () => {
    const shop = await connectWoo(t, merchant.teamId, woo);
    woo.orders.push(wooOrder(8101, [{ sku: 'LAMP-2', quantity: 1 }]));
    await wooDelivery(t, shop.id, 'order.created', woo.orders.at(-1));
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { shop_id: shop.id, remote_id: '8101' } });
    const code = await ship(order.id);
    const worker = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true });
    await worker.runOnce(new Date());
    const notes = woo.notes.length;
    await delivered(code);
    await worker.runOnce(new Date());
    expect(woo.notes.slice(notes)).toEqual([
      { order_id: '8101', body: { note: `Shipment ${code}: delivered — Delivered, front door`, customer_note: false } },
    ]);
    expect((await pushesOf(order.id)).map((p) => p.status)).toEqual(['PUSHED', 'PUSHED']);
  });

  it("a shop order's address is verified through EasyPost when it comes in; a refused one is held", async () => {
    const shop = await connectShopify(t, merchant.teamId, shopify);
    const before = ep.calls(/^\/v2\/addresses$/, 'POST').length;
    const order = shopifyWebhookOrder(9201, [{ sku: 'LAMP-2', quantity: 1 }]);
    order.shipping_address.address1 = '99 Invalid Zip Way';
    order.shipping_address.zip = '22299';
    ep.addressResults.set('99 Invalid Zip Way', {
      success: false,
      errors: [{ code: 'E.ADDRESS.NOT_FOUND', message: 'Address not found' }],
    });
    const res = await shopifyDelivery(t, shop.id, 'orders/create', order);
    expect(res.statusCode, res.body).toBe(200);
    const sent = ep.calls(/^\/v2\/addresses$/, 'POST');
    expect(sent).toHaveLength(before + 1);
    expect(sent.at(-1)!.body.address).toMatchObject({ street1: '99 Invalid Zip Way', zip: '22299' });
    const row = await t.db.prisma.order.findFirstOrThrow({ where: { shop_id: shop.id, remote_id: 'gid://shopify/Order/9201' } });
    const got = (await t.call('GET', `/v1/ops/orders/${row.id}`)).json();
    expect(got).toMatchObject({ address_verified: false, address_verification_response: { verified: false } });
    expect(got.order_fulfillment_holds.filter((h: any) => h.active)).toEqual([
      expect.objectContaining({ reason: 'ADDRESS_VERIFICATION_FAILED', reason_notes: expect.stringContaining('Address not found') }),
    ]);
    // The same order delivered again (orders/updated) is an update: no second call, no second hold.
    await shopifyDelivery(t, shop.id, 'orders/updated', order);
    expect(ep.calls(/^\/v2\/addresses$/, 'POST')).toHaveLength(before + 1);
  });
});
