import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silent, type TestApp } from '../helpers/app.js';
import { SHOPIFY_SECRET, type ChannelsWorld, channelsWorld, connectShopify, shipAll, stockedProduct } from '../helpers/channels.js';
import { sign, type ShopifyDouble } from '../helpers/platform-doubles.js';
import { SERVICE_LOCATION } from '../helpers/shopify-double-ops.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';
import { enqueueEvent } from '../../src/domain/events/outbox.js';

// Shopify fulfillment-service mode (issue 37 item 4): fos registers itself as the shop's
// fulfillment service, answers fulfillment requests (accepted -> a fos order; rejected with the
// reason for a SKU it has no product for), answers cancellation requests (accepted while nothing
// is packed, rejected once shipped) and pushes fulfillments per fulfillment order.

let w: ChannelsWorld;
let t: TestApp;
let shopify: ShopifyDouble;
let merchant: { teamId: string };
let shopId: string;

beforeAll(async () => {
  w = await channelsWorld();
  ({ t, merchant, shopify } = w);
  await stockedProduct(t, merchant.teamId, 'LAMP-1', 50);
  shopId = (await connectShopify(t, merchant.teamId, shopify)).id;
});
afterAll(async () => {
  await w?.close();
});

/** A fulfillment order as assignedFulfillmentOrders returns it, requested of the given location. */
function requested(n: number, sku: string, quantity: number, location = SERVICE_LOCATION) {
  const fo = {
    id: `gid://shopify/FulfillmentOrder/${n}`,
    status: 'OPEN',
    requestStatus: 'SUBMITTED',
    orderId: `gid://shopify/Order/${n}`,
    orderName: `#${n}`,
    assignedLocation: { location: { id: location } },
    destination: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: null,
      address1: '1 Main St',
      address2: null,
      city: 'Arlington',
      province: 'VA',
      countryCode: 'US',
      zip: '22201',
      phone: null,
      email: 'ada@example.com',
    },
    lineItems: {
      nodes: [
        {
          id: `gid://shopify/FulfillmentOrderLineItem/${n}0`,
          sku,
          productTitle: `Item ${sku}`,
          remainingQuantity: quantity,
          variant: null,
          financialSummaries: [{ originalUnitPriceSet: { shopMoney: { amount: '12.50', currencyCode: 'USD' } } }],
          lineItem: { id: `gid://shopify/LineItem/${n}0` },
        },
      ],
    },
  };
  shopify.fulfillmentOrders.set(`gid://shopify/Order/${n}`, [fo]);
  return fo;
}

const notify = (kind: string, secret = SHOPIFY_SECRET) => {
  const raw = JSON.stringify({ kind });
  return t.call('POST', `/v1/channels/${shopId}/fulfillment-service/fulfillment_order_notification`, {
    token: null,
    body: raw,
    headers: {
      'content-type': 'application/json',
      'x-shopify-hmac-sha256': sign(secret, raw),
      'x-shopify-shop-domain': 'double.myshopify.com',
    },
  });
};
const orderOf = (foGid: string) => t.db.prisma.order.findUnique({ where: { shop_id_remote_id: { shop_id: shopId, remote_id: foGid } } });

describe('Shopify fulfillment-service mode', () => {
  it('registers fos as a fulfillment service with its callback URL and keeps the location', async () => {
    const res = await t.call('POST', `/v1/ops/shops/${shopId}/fulfillment-service`);
    expect(res.statusCode, res.body).toBe(200);
    const service = res.json().settings.fulfillment_service;
    expect(service).toMatchObject({ id: 'gid://shopify/FulfillmentService/1', location_id: SERVICE_LOCATION });
    expect(service.callback_url).toMatch(new RegExp(`/v1/channels/${shopId}/fulfillment-service$`));
    expect(shopify.services[0]).toMatchObject({ callbackUrl: service.callback_url, trackingSupport: false, inventoryManagement: false });
    expect(res.json().settings.location_id).toBe(SERVICE_LOCATION);
    // Asked again: the same service, no second registration.
    await t.call('POST', `/v1/ops/shops/${shopId}/fulfillment-service`);
    expect(shopify.services).toHaveLength(1);
  });

  it('refuses a notification whose signature does not verify', async () => {
    expect((await notify('FULFILLMENT_REQUEST', 'wrong')).statusCode).toBe(401);
    expect(shopify.requests).toHaveLength(0);
  });

  it('accepts a request it can serve (a fos order) and rejects one with an unknown SKU, with the reason', async () => {
    requested(8001, 'LAMP-1', 2);
    requested(8002, 'NOPE-9', 1);
    requested(8003, 'LAMP-1', 1, 'gid://shopify/Location/1'); // the merchant's own location: not fos's
    const res = await notify('FULFILLMENT_REQUEST');
    expect(res.statusCode, res.body).toBe(200);
    const order = await orderOf('gid://shopify/FulfillmentOrder/8001');
    expect(order, res.body).not.toBeNull();
    expect(res.json().fulfillment_requests).toEqual([
      { fulfillment_order_id: 'gid://shopify/FulfillmentOrder/8001', outcome: 'ACCEPTED', order_id: order!.id, reason: null },
      {
        fulfillment_order_id: 'gid://shopify/FulfillmentOrder/8002',
        outcome: 'REJECTED',
        order_id: null,
        reason: 'fos has no product for SKU NOPE-9',
      },
    ]);
    expect(shopify.requests).toEqual([
      {
        op: 'fulfillmentOrderAcceptFulfillmentRequest',
        id: 'gid://shopify/FulfillmentOrder/8001',
        message: 'fos order #8001',
        reason: null,
      },
      {
        op: 'fulfillmentOrderRejectFulfillmentRequest',
        id: 'gid://shopify/FulfillmentOrder/8002',
        message: 'fos has no product for SKU NOPE-9',
        reason: 'INELIGIBLE_PRODUCT',
      },
    ]);
    expect(order).toMatchObject({ order_number: '#8001', status: 'OPEN' });
    const lines = await t.db.prisma.orderLineItem.findMany({ where: { order_id: order!.id, kind: 'CORE' } });
    expect(lines.map((l) => [l.sku, l.total_quantity, l.remote_id])).toEqual([
      ['LAMP-1', 2, 'gid://shopify/FulfillmentOrderLineItem/80010'],
    ]);
    expect(await orderOf('gid://shopify/FulfillmentOrder/8002')).toBeNull();
    expect(await orderOf('gid://shopify/FulfillmentOrder/8003')).toBeNull();
    // Notified again: nothing pending, nothing answered twice, no second order.
    expect((await notify('FULFILLMENT_REQUEST')).json().fulfillment_requests).toEqual([]);
    expect(shopify.requests).toHaveLength(2);
  });

  it('pushes the fulfillment of that fulfillment order, then rejects a cancellation once shipped', async () => {
    const order = (await orderOf('gid://shopify/FulfillmentOrder/8001'))!;
    await shipAll(t, order.id, '1ZSERVICE8001');
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    expect(shopify.fulfillments.at(-1)).toMatchObject({
      lineItemsByFulfillmentOrder: [
        {
          fulfillmentOrderId: 'gid://shopify/FulfillmentOrder/8001',
          fulfillmentOrderLineItems: [{ id: 'gid://shopify/FulfillmentOrderLineItem/80010', quantity: 2 }],
        },
      ],
      trackingInfo: { number: '1ZSERVICE8001' },
    });
    expect((await t.call('GET', `/v1/ops/orders/${order.id}`)).json().sales_channel_pushes[0]).toMatchObject({ status: 'PUSHED' });
    // A later carrier scan reaches that fulfillment order's fulfillment as an event.
    await t.db.prisma.$transaction((tx) =>
      enqueueEvent(tx, t.teamId, 'tracking.push', {
        tracking: { tracking_code: '1ZSERVICE8001' },
        shipment_status: 'DELIVERED',
        order: { id: order.id, order_number: order.order_number },
        shop: { id: shopId, shop_type: 'SHOPIFY' },
      }),
    );
    await createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true }).runOnce(new Date());
    expect(shopify.fulfillmentEvents.at(-1)).toMatchObject({ fulfillmentId: shopify.owners.at(-1)!.id, status: 'DELIVERED' });

    shopify.fulfillmentOrders.get('gid://shopify/Order/8001')![0].requestStatus = 'CANCELLATION_REQUESTED';
    const res = await notify('CANCELLATION_REQUEST');
    expect(res.json().cancellation_requests).toEqual([
      {
        fulfillment_order_id: 'gid://shopify/FulfillmentOrder/8001',
        outcome: 'REJECTED',
        order_id: order.id,
        reason: `fos order #8001 is already packed or shipped`,
      },
    ]);
    expect(shopify.requests.at(-1)).toMatchObject({
      op: 'fulfillmentOrderRejectCancellationRequest',
      id: 'gid://shopify/FulfillmentOrder/8001',
    });
    expect((await orderOf('gid://shopify/FulfillmentOrder/8001'))!.status).not.toBe('CANCELLED');
  });

  it('accepts a cancellation while nothing is packed: the fos order is cancelled and its stock released', async () => {
    requested(8004, 'LAMP-1', 3);
    await notify('FULFILLMENT_REQUEST');
    const order = (await orderOf('gid://shopify/FulfillmentOrder/8004'))!;
    shopify.fulfillmentOrders.get('gid://shopify/Order/8004')![0].requestStatus = 'CANCELLATION_REQUESTED';
    const res = await notify('CANCELLATION_REQUEST');
    expect(res.json().cancellation_requests).toEqual([
      { fulfillment_order_id: 'gid://shopify/FulfillmentOrder/8004', outcome: 'ACCEPTED', order_id: order.id, reason: null },
    ]);
    expect(shopify.fulfillmentOrders.get('gid://shopify/Order/8004')![0].requestStatus).toBe('CANCELLATION_ACCEPTED');
    expect((await orderOf('gid://shopify/FulfillmentOrder/8004'))!.status).toBe('CANCELLED');
    const fos = await t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id } });
    expect(fos.every((f) => f.status === 'CANCELLED')).toBe(true);
  });
});
