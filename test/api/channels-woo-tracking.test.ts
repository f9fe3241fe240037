import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silent, type TestApp } from '../helpers/app.js';
import { type ChannelsWorld, channelsWorld, connectWoo, stockedProduct, wooDelivery } from '../helpers/channels.js';
import { wooDouble, wooOrder, type WooDouble } from '../helpers/platform-doubles.js';
import { RETRY_SCHEDULE_MS } from '../../src/domain/webhooks/dispatch.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';

// WooCommerce tracking (issue 37 item 6) against the WooCommerce double (OAuth 1.0a signatures
// verified): a store with the Shipment Tracking extension (found in system_status at connect)
// gets a tracking item on wc-shipment-tracking/v3, any other an order note; a push retried after
// its `completed` failed posts neither a second note nor a second tracking item.

let w: ChannelsWorld;
let t: TestApp;
let tracked: WooDouble;

beforeAll(async () => {
  w = await channelsWorld();
  t = w.t;
  tracked = await wooDouble({ key: 'ck_good', shipmentTracking: true });
  await stockedProduct(t, w.merchant.teamId, 'WT-1', 50);
});
afterAll(async () => {
  await tracked?.close();
  await w?.close();
});

/** Accept, lock, pack, label and fulfill the order's fulfillment order. */
async function ship(orderId: string, tracking: string) {
  const fo = await t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: orderId }, include: { line_items: true } });
  expect((await t.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).statusCode).toBe(200);
  await t.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { body: { lock_owner: 'packer', timeout_minutes: 15 } });
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
    body: {
      label_url: 'https://labels.example/l.pdf',
      tracking_number: tracking,
      carrier: 'UPS',
      service: 'Ground',
      cost: 8,
      cost_currency: 'USD',
    },
  });
  expect(label.statusCode, label.body).toBe(200);
  expect((await t.call('POST', `/v1/ops/packages/${pkg.json().id}/fulfill`, { body: { locked_by: 'packer' } })).statusCode).toBe(200);
}

/** Takes a WooCommerce order in through its webhook, ships it, and runs the push, failing `completed` once. */
async function shipWithFailedComplete(double: WooDouble, shopId: string, id: number, tracking: string) {
  double.orders.push(wooOrder(id, [{ sku: 'WT-1', quantity: 1 }]));
  await wooDelivery(t, shopId, 'order.created', double.orders.at(-1));
  const order = await t.db.prisma.order.findFirstOrThrow({ where: { shop_id: shopId, remote_id: String(id) } });
  await ship(order.id, tracking);
  double.failNext(`PUT orders/${id}`, 1, 500);
  const worker = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true });
  const t0 = new Date();
  await worker.runOnce(t0);
  const pushes = async () => (await t.call('GET', `/v1/ops/orders/${order.id}`)).json().sales_channel_pushes;
  expect((await pushes())[0], JSON.stringify(await pushes())).toMatchObject({ status: 'RETRYING' });
  await worker.runOnce(new Date(t0.getTime() + RETRY_SCHEDULE_MS[0]!));
  expect((await pushes())[0]).toMatchObject({ status: 'PUSHED' });
  expect(double.orders.at(-1).status).toBe('completed');
  return (await pushes())[0];
}

describe('WooCommerce tracking', () => {
  it('without the extension: one order note, also when `completed` failed and the push was retried', async () => {
    const shop = await connectWoo(t, w.merchant.teamId, w.woo);
    expect((await t.call('GET', `/v1/ops/shops/${shop.id}`)).json().settings.shipment_tracking).toBe(false);
    const push = await shipWithFailedComplete(w.woo, shop.id, 8201, 'TRK-NOTE-1');
    expect(push.detail).toMatch(/tracking note added, status completed/);
    expect(w.woo.notes.filter((n) => n.order_id === '8201')).toEqual([
      { order_id: '8201', body: { note: expect.stringContaining('tracking number TRK-NOTE-1'), customer_note: false } },
    ]);
    // The retry read the notes before posting.
    expect(w.woo.calls.filter((c) => c.method === 'GET' && c.path === '/wp-json/wc/v3/orders/8201/notes')).toHaveLength(2);
    expect(w.woo.calls.filter((c) => c.method === 'PUT' && c.path === '/wp-json/wc/v3/orders/8201')).toHaveLength(2);
  });

  it('with the Shipment Tracking extension (detected at connect): one tracking item, no note', async () => {
    const shop = await connectWoo(t, w.merchant.teamId, tracked);
    expect((await t.call('GET', `/v1/ops/shops/${shop.id}`)).json().settings.shipment_tracking).toBe(true);
    const push = await shipWithFailedComplete(tracked, shop.id, 8202, 'TRK-EXT-1');
    expect(push.detail).toMatch(/Shipment Tracking item added, status completed/);
    expect(tracked.trackings.get('8202')).toEqual([
      expect.objectContaining({
        tracking_number: 'TRK-EXT-1',
        custom_tracking_provider: 'UPS',
        custom_tracking_link: expect.stringContaining('TRK-EXT-1'),
      }),
    ]);
    const posts = tracked.calls.filter(
      (c) => c.method === 'POST' && c.path === '/wp-json/wc-shipment-tracking/v3/orders/8202/shipment-trackings',
    );
    expect(posts).toHaveLength(1);
    expect(tracked.notes.filter((n) => n.order_id === '8202')).toEqual([]);
  });

  it('the double checks the OAuth 1.0a signature: a wrong consumer secret is refused at connect', async () => {
    const res = await t.call('POST', '/v1/ops/shops', {
      body: {
        name: 'Woo wrong secret',
        shop_type: 'WOOCOMMERCE',
        merchant_team_id: w.merchant.teamId,
        connection: {
          store_url: 'https://woo.example',
          consumer_key: 'ck_good',
          consumer_secret: 'cs_wrong',
          webhook_secret: 'x',
          api_base_url: w.woo.url,
        },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/Invalid signature/);
  });
});
