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
import { shopifyWebhookOrder, wooOrder } from '../helpers/platform-doubles.js';

// Automation rules at channel intake (issue 41 item 1): orders arriving by Shopify and WooCommerce
// webhook (the loopback platform doubles) get the rules' decisions and trace in the transaction
// that writes them (orders/place.ts writeOrder).

let w: ChannelsWorld;
let t: TestApp;
beforeAll(async () => {
  w = await channelsWorld();
  t = w.t;
  await stockedProduct(t, w.merchant.teamId, 'MUG-1', 20);
});
afterAll(async () => {
  await w?.close();
});

async function rule(body: Record<string, unknown>) {
  const r = await t.call('POST', '/v1/ops/automation-rules', { body });
  expect(r.statusCode, r.body).toBe(201);
  return r.json();
}
async function orderOf(remoteId: string) {
  const row = await t.db.prisma.order.findFirstOrThrow({ where: { remote_id: remoteId } });
  return (await t.call('GET', `/v1/ops/orders/${row.id}`)).json();
}

describe('rules at channel intake', () => {
  it('Shopify and WooCommerce webhook orders carry the decisions of the rules for their shop type', async () => {
    const shopifyRule = await rule({
      name: 'Shopify ships UPS',
      conditions: { shop_type: ['SHOPIFY'], skus_all: ['MUG-1'] },
      actions: { carrier_id: 'ups', service_id: 'ups_ground', add_tags: ['from-shopify'] },
    });
    const wooRule = await rule({
      name: 'Woo abroad waits',
      conditions: { shop_type: ['WOOCOMMERCE'], not: { country: ['US'] } },
      actions: { carrier_id: 'dhl', hold: { reason: 'CUSTOMER_REQUEST', notes: 'customs papers' }, stop: true },
    });
    const shop = await connectShopify(t, w.merchant.teamId, w.shopify);
    const s = await shopifyDelivery(t, shop.id, 'orders/create', shopifyWebhookOrder(9101, [{ sku: 'MUG-1', quantity: 1, price: '9.50' }]));
    expect(s.statusCode, s.body).toBe(200);
    const so = await orderOf('gid://shopify/Order/9101');
    expect(so).toMatchObject({ shop_type: 'SHOPIFY', carrier_id: 'ups', service_id: 'ups_ground' });
    expect(so.tags).toContain('from-shopify');
    expect(so.automation_trace).toMatchObject({ trigger: 'INTAKE', decisions: [{ rule_id: shopifyRule.id, version: 1 }] });

    const wooShop = await connectWoo(t, w.merchant.teamId, w.woo);
    const r = await wooDelivery(t, wooShop.id, 'order.created', wooOrder(9201, [{ sku: 'MUG-1', quantity: 1, price: 12 }]));
    expect(r.statusCode, r.body).toBe(200);
    const wo = await orderOf('9201');
    expect(wo).toMatchObject({ shop_type: 'WOOCOMMERCE', carrier_id: 'dhl' });
    expect(wo.order_fulfillment_holds).toContainEqual(
      expect.objectContaining({ active: true, reason: 'CUSTOMER_REQUEST', reason_notes: 'customs papers' }),
    );
    expect(wo.automation_trace.decisions).toEqual([expect.objectContaining({ rule_id: wooRule.id, stopped: true })]);
  });
});
