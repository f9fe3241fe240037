import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silent, type TestApp } from '../helpers/app.js';
import { type ChannelsWorld, channelsWorld, connectShopify, shipAll, shopifyDelivery, stockedProduct } from '../helpers/channels.js';
import { shopifyWebhookOrder, type ShopifyDouble } from '../helpers/platform-doubles.js';
import { RETRY_SCHEDULE_MS } from '../../src/domain/webhooks/dispatch.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// Tracking pushes to Shopify under failure (issue 37 item 4): one fulfillmentCreate per location
// (Shopify refuses fulfillment orders of two locations in one call); an answer lost after
// Shopify created the fulfillment is reconciled by the tracking number, never doubled nor FAILED;
// a cut JSON answer and a 429 are retried; what the double holds is asserted each time.

let w: ChannelsWorld;
let t: TestApp;
let shopify: ShopifyDouble;
let merchant: { teamId: string };
let shopId: string;

beforeAll(async () => {
  w = await channelsWorld();
  ({ t, merchant, shopify } = w);
  await Promise.all([stockedProduct(t, merchant.teamId, 'LAMP-1', 50), stockedProduct(t, merchant.teamId, 'SHADE-1', 50)]);
  shopId = (await connectShopify(t, merchant.teamId, shopify)).id;
});
afterAll(async () => {
  await w?.close();
});

const fo = (n: number, k: number, location: string, lines: [number, number][]) => ({
  id: `gid://shopify/FulfillmentOrder/${n}${k}`,
  status: 'OPEN',
  assignedLocation: { location: { id: location } },
  lineItems: {
    nodes: lines.map(([i, q]) => ({
      id: `gid://shopify/FulfillmentOrderLineItem/${n}${k}${i}`,
      remainingQuantity: q,
      lineItem: { id: `gid://shopify/LineItem/${n * 10 + i}` },
    })),
  },
});

/** A Shopify order of LAMP-1 x2 and SHADE-1 x1 taken in, its fulfillment orders set in the double, shipped in one box. */
async function shippedOrder(n: number, fos: ReturnType<typeof fo>[]) {
  await shopifyDelivery(
    t,
    shopId,
    'orders/create',
    shopifyWebhookOrder(n, [
      { sku: 'LAMP-1', quantity: 2 },
      { sku: 'SHADE-1', quantity: 1 },
    ]),
  );
  const order = await t.db.prisma.order.findFirstOrThrow({ where: { shop_id: shopId, remote_id: `gid://shopify/Order/${n}` } });
  shopify.fulfillmentOrders.set(`gid://shopify/Order/${n}`, fos);
  await shipAll(t, order.id, `1Z${n}`);
  return order.id;
}

const pushOf = async (orderId: string) => (await t.call('GET', `/v1/ops/orders/${orderId}`)).json().sales_channel_pushes[0];
const creates = () => shopify.calls.filter((c) => /fulfillmentCreate\(/.test(c.body?.query ?? ''));
const worker = () => createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true });

describe('Shopify pushes', () => {
  it('sends one fulfillmentCreate per location for an order split across two locations', async () => {
    const orderId = await shippedOrder(7101, [
      fo(7101, 1, 'gid://shopify/Location/1', [[0, 2]]),
      fo(7101, 2, 'gid://shopify/Location/2', [[1, 1]]),
    ]);
    const before = creates().length;
    await worker().runOnce(new Date());
    const sent = creates().slice(before);
    expect(sent.map((c) => c.body.variables.fulfillment.lineItemsByFulfillmentOrder.map((g: any) => g.fulfillmentOrderId))).toEqual([
      ['gid://shopify/FulfillmentOrder/71011'],
      ['gid://shopify/FulfillmentOrder/71012'],
    ]);
    expect(await pushOf(orderId)).toMatchObject({ status: 'PUSHED', attempts: 1, detail: expect.stringMatching(/Fulfillment\/\d+, gid/) });
    expect(shopify.fulfillmentOrders.get('gid://shopify/Order/7101')!.map((x) => x.status)).toEqual(['CLOSED', 'CLOSED']);
  });

  it('reconciles a push whose answer was lost after Shopify created the fulfillment: PUSHED, one fulfillment', async () => {
    const orderId = await shippedOrder(7102, [
      fo(7102, 1, 'gid://shopify/Location/1', [
        [0, 2],
        [1, 1],
      ]),
    ]);
    const held = shopify.fulfillments.length;
    shopify.failNext('fulfillmentCreate', 1, 'lost');
    const t0 = new Date();
    await worker().runOnce(t0);
    expect(shopify.fulfillments.length).toBe(held + 1); // Shopify has it
    expect(await pushOf(orderId)).toMatchObject({ status: 'RETRYING', attempts: 1 });
    await worker().runOnce(new Date(t0.getTime() + RETRY_SCHEDULE_MS[0]!));
    expect(shopify.fulfillments.length).toBe(held + 1); // not sent again
    expect(await pushOf(orderId)).toMatchObject({ status: 'PUSHED', attempts: 2, detail: expect.stringContaining('answer was lost') });
  });

  it('retries a truncated JSON answer and a 429 with Retry-After within the push; a cut mutation answer is reconciled later', async () => {
    const orderId = await shippedOrder(7103, [
      fo(7103, 1, 'gid://shopify/Location/1', [
        [0, 2],
        [1, 1],
      ]),
    ]);
    shopify.failNext('fulfillmentState', 1, 'truncated');
    shopify.failNext('fulfillmentCreate', 1, 429);
    await worker().runOnce(new Date());
    expect(await pushOf(orderId)).toMatchObject({ status: 'PUSHED', attempts: 1 });
    expect(shopify.owners.filter((o) => o.order === 'gid://shopify/Order/7103')).toHaveLength(1);

    const other = await shippedOrder(7104, [
      fo(7104, 1, 'gid://shopify/Location/1', [
        [0, 2],
        [1, 1],
      ]),
    ]);
    shopify.failNext('fulfillmentCreate', 1, 'truncated');
    const t0 = new Date();
    await worker().runOnce(t0);
    expect(await pushOf(other)).toMatchObject({ status: 'RETRYING', detail: expect.stringContaining('unreadable body') });
    await worker().runOnce(new Date(t0.getTime() + RETRY_SCHEDULE_MS[0]!));
    expect(await pushOf(other)).toMatchObject({ status: 'PUSHED', attempts: 2 });
    expect(shopify.owners.filter((o) => o.order === 'gid://shopify/Order/7104')).toHaveLength(1);
  });

  it('ends FAILED at once with the reason when Shopify holds nothing open for the shipped lines (not retried)', async () => {
    const orderId = await shippedOrder(7105, []);
    await worker().runOnce(new Date());
    expect(await pushOf(orderId)).toMatchObject({
      status: 'FAILED',
      attempts: 1,
      detail: expect.stringContaining('no open fulfillment order lines'),
    });
  });
});
