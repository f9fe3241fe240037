// Sales-channel test setup: a connected shop (through the API, checked against a platform
// double), stocked products of its merchant, and signed webhook deliveries.

import { expect } from 'vitest';
import { RETRY_SCHEDULE_MS } from '../../src/domain/webhooks/dispatch.js';
import { createOutboxWorker } from '../../src/server/workers/outbox.js';
import { silent, testApp, type TestApp } from './app.js';
import { fixtureWarehouse } from './fixtures.js';
import { shopifyDouble, sign, wooDouble, type ShopifyDouble, type WooDouble } from './platform-doubles.js';

export interface ChannelsWorld {
  t: TestApp;
  merchant: Awaited<ReturnType<TestApp['merchant']>>;
  shopify: ShopifyDouble;
  woo: WooDouble;
  close(): Promise<void>;
}

/**
 * What every sales-channel test starts from: an app that may call loopback webhooks, a merchant,
 * and a Shopify and a WooCommerce double taking the good credentials (shpat_good, ck_good) that
 * connectShopify and connectWoo send. `close` ends the doubles, then the app.
 */
export async function channelsWorld(): Promise<ChannelsWorld> {
  const t = await testApp({ allowPrivateWebhooks: true });
  const [merchant, shopify, woo] = await Promise.all([t.merchant(), shopifyDouble({ token: 'shpat_good' }), wooDouble({ key: 'ck_good' })]);
  return {
    t,
    merchant,
    shopify,
    woo,
    close: async () => {
      await Promise.all([shopify.close(), woo.close()]);
      await t.close();
    },
  };
}

export const SHOPIFY_SECRET = 'shopify-webhook-secret';
export const WOO_SECRET = 'woo-webhook-secret';

export async function connectShopify(t: TestApp, merchantTeamId: string, double: ShopifyDouble, settings: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/v1/ops/shops', {
    body: {
      name: `Shopify ${Math.random().toString(36).slice(2, 8)}`,
      shop_type: 'SHOPIFY',
      merchant_team_id: merchantTeamId,
      settings,
      connection: {
        shop_domain: 'double.myshopify.com',
        access_token: 'shpat_good',
        webhook_secret: SHOPIFY_SECRET,
        api_base_url: double.url,
      },
    },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as { id: string; slug: string };
}

export async function connectWoo(t: TestApp, merchantTeamId: string, double: WooDouble, settings: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/v1/ops/shops', {
    body: {
      name: `Woo ${Math.random().toString(36).slice(2, 8)}`,
      shop_type: 'WOOCOMMERCE',
      merchant_team_id: merchantTeamId,
      settings,
      connection: {
        store_url: 'https://woo.example',
        consumer_key: 'ck_good',
        consumer_secret: 'cs_good',
        webhook_secret: WOO_SECRET,
        api_base_url: double.url,
      },
    },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as { id: string; slug: string };
}

/** A product of the merchant with stock on hand in the fixture warehouse (level and ledger agree). */
export async function stockedProduct(t: TestApp, merchantTeamId: string, sku: string, onHand: number) {
  const warehouseId = await fixtureWarehouse(t);
  const product = await t.db.prisma.product.create({
    data: {
      team_id: merchantTeamId,
      merchant_team_id: merchantTeamId,
      fulfiller_team_id: t.teamId,
      name: `Product ${sku}`,
      sku,
      measurement_unit: 'MM',
      weight_unit: 'G',
      weight: 200,
    },
  });
  await t.db.prisma.inventoryLevel.create({ data: { product_id: product.id, warehouse_id: warehouseId, on_hand: onHand } });
  await t.db.prisma.inventoryMovement.create({
    data: { product_id: product.id, sku, warehouse_id: warehouseId, bucket: 'on_hand', delta: onHand, kind: 'RECEIVED' } as never,
  });
  return { product, warehouseId };
}

export function shopifyDelivery(
  t: TestApp,
  shopId: string,
  topic: string,
  body: unknown,
  opts: { secret?: string; webhookId?: string } = {},
) {
  const raw = JSON.stringify(body);
  return t.call('POST', `/v1/channels/${shopId}/webhooks`, {
    token: null,
    body: raw,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-hmac-sha256': sign(opts.secret ?? SHOPIFY_SECRET, raw),
      'x-shopify-shop-domain': 'double.myshopify.com',
      'x-shopify-webhook-id': opts.webhookId ?? `wh-${Math.random()}`,
    },
  });
}

export function wooDelivery(t: TestApp, shopId: string, topic: string, body: unknown, opts: { secret?: string } = {}) {
  const raw = JSON.stringify(body);
  return t.call('POST', `/v1/channels/${shopId}/webhooks`, {
    token: null,
    body: raw,
    headers: {
      'content-type': 'application/json',
      'x-wc-webhook-topic': topic,
      'x-wc-webhook-signature': sign(opts.secret ?? WOO_SECRET, raw),
      'x-wc-webhook-source': 'https://woo.example/',
      'x-wc-webhook-delivery-id': String(Math.floor(Math.random() * 1e6)),
    },
  });
}

/** Accept, lock, pack every line in one package, label it and fulfill (the tracking.push follows). */
export async function shipAll(t: TestApp, orderId: string, tracking: string) {
  const fo = await t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: orderId }, include: { line_items: true } });
  const ok = (res: { statusCode: number; body: string }, code = 200) => {
    if (res.statusCode !== code) throw new Error(`${res.statusCode} ${res.body}`);
    return res;
  };
  ok(await t.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`));
  ok(await t.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { body: { lock_owner: 'packer', timeout_minutes: 15 } }));
  const pkg = ok(
    await t.call('POST', '/v1/ops/packages', {
      body: {
        fulfillment_order_id: fo.id,
        weight: 500,
        weight_unit: 'G',
        package_line_items: fo.line_items.map((l) => ({ sku: l.sku, quantity: l.remaining_quantity })),
      },
    }),
    201,
  ).json().id;
  ok(
    await t.call('POST', `/v1/ops/packages/${pkg}/label`, {
      body: {
        label_url: 'https://labels.example/l.pdf',
        tracking_number: tracking,
        carrier: 'UPS',
        service: 'Ground',
        cost: 8,
        cost_currency: 'USD',
      },
    }),
  );
  ok(await t.call('POST', `/v1/ops/packages/${pkg}/fulfill`, { body: { locked_by: 'packer' } }));
  return pkg as string;
}

/**
 * A push the platform failed once (the test made its double answer 503): the outbox worker's first
 * pass leaves it RETRYING with the platform's words (`failed`) and nothing on the platform; a pass
 * before the backoff is due sends nothing; the pass after it pushes (`pushed`), and one much later
 * sends nothing more. `sent` counts the platform's copies of the push, `calls` the POSTs it got.
 */
export async function pushRetriedOnce(
  t: TestApp,
  orderId: string,
  expected: { failed: unknown; pushed: unknown; sent: () => number; calls: () => number },
) {
  const worker = createOutboxWorker(t.db, silent, { allowPrivateWebhooks: true });
  const push = async () => (await t.call('GET', `/v1/ops/orders/${orderId}`)).json().sales_channel_pushes[0];
  const t0 = new Date();
  const at = (ms: number) => new Date(t0.getTime() + ms);
  await worker.runOnce(t0);
  expect(await push()).toMatchObject({ status: 'RETRYING', attempts: 1, detail: expected.failed });
  expect(expected.sent()).toBe(0);
  await worker.runOnce(at(1000)); // not due yet
  expect(expected.calls()).toBe(1);
  await worker.runOnce(at(RETRY_SCHEDULE_MS[0]!));
  expect(await push()).toMatchObject({ status: 'PUSHED', attempts: 2, detail: expected.pushed });
  expect(expected.sent()).toBe(1);
  await worker.runOnce(at(10 * RETRY_SCHEDULE_MS[0]!));
  expect(expected.calls()).toBe(2);
}
