import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';
import { billShipping, type ShippingChargeInput } from '../../src/domain/charges/shipping.js';

// billShipping inside a transaction, on rows inserted directly (as the fulfill transaction would
// see them), then the resulting charge through the HTTP API.

let t: TestApp;
let token: string;
let warehouseId: string;

const CARD = {
  id: 'rc_ship',
  name: 'Shipping card',
  version_id: 'v_9',
  semantic_version: '2.0.0',
  shipping: { fee_per_package: 1.5, markup_percent: 10, by_service: { 'svc-express': { fee_per_package: 4 } } },
};

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  warehouseId = (await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'East DC' })).id;
});
afterAll(() => t?.close());

let seq = 0;
/** Order, fulfillment order, package, label and fulfillment rows for one shipped package. */
async function shippedPackage(merchantTeamId: string, label: { price: number; service_id: string } | null, shopType?: 'SHOPIFY') {
  const p = t.db.prisma;
  const n = ++seq;
  const shop = shopType
    ? await p.shop.create({ data: { merchant_team_id: merchantTeamId, name: 'Store', slug: `store-${n}`, shop_type: shopType } })
    : null;
  const order = await p.order.create({
    data: {
      order_number: `#10${n}`,
      merchant_team_id: merchantTeamId,
      fulfiller_team_id: t.teamId,
      shop_id: shop?.id,
      tags: ['vip', 'gift'],
      line_item_image_urls: [],
      priority: 'HIGH',
      is_fragile: true,
      unique_core_line_item_count: 2,
      address_residential: 'RESIDENTIAL',
    },
  });
  const fo = await p.fulfillmentOrder.create({
    data: { order_id: order.id, warehouse_id: warehouseId, fulfiller_team_id: t.teamId, merchant_team_id: merchantTeamId },
  });
  const pkg = await p.package.create({
    data: {
      fulfiller_team_id: t.teamId,
      merchant_team_id: merchantTeamId,
      fulfillment_order_id: fo.id,
      warehouse_id: warehouseId,
      carton_id: 'ct-1',
      carton_name: 'Small box',
    },
  });
  const lbl = label
    ? await p.shippingLabel.create({
        data: {
          package_id: pkg.id,
          fulfiller_team_id: t.teamId,
          merchant_team_id: merchantTeamId,
          tracking_code: `1Z${n}`,
          price: label.price,
          currency: 'USD',
          zone: '5',
          formatted_service: 'UPS Ground',
          service_id: label.service_id,
          carrier_id: 'ups',
          carrier_integration_id: 'ci-1',
          carrier_integration_name: 'UPS',
          carrier_integration_type: 'GENERIC',
          from_address: { country: 'US', zip: '10001', state: 'NY', city: 'New York' },
          to_address: { country: 'US', zip: '94105', state: 'CA', city: 'San Francisco' },
        },
      })
    : null;
  const fulfillment = await p.fulfillment.create({
    data: {
      package_id: pkg.id,
      fulfillment_order_id: fo.id,
      order_id: order.id,
      fulfiller_team_id: t.teamId,
      merchant_team_id: merchantTeamId,
      name: `F-${n}`,
    },
  });
  const input: ShippingChargeInput = {
    fulfillmentId: fulfillment.id,
    fulfillmentOrderId: fo.id,
    orderId: order.id,
    packageId: pkg.id,
    merchantTeamId,
    fulfillerTeamId: t.teamId,
    package: pkg,
    label: lbl,
  };
  return { order, fo, pkg, label: lbl, input };
}

const bill = (input: ShippingChargeInput) => t.db.prisma.$transaction((tx) => billShipping(tx, input));

describe('billShipping', () => {
  it('creates one SHIPPING charge priced from the label and the rate card', async () => {
    const m = await t.merchant({ rate_card: CARD });
    const s = await shippedPackage(m.teamId, { price: 10, service_id: 'svc-ground' }, 'SHOPIFY');
    const result = await bill(s.input);
    expect(result).toEqual({ id: expect.any(String) });

    const res = await t.call('GET', `/v1/ops/charges/${result!.id}`, { token });
    expect(res.statusCode).toBe(200);
    const c = res.json();
    expect(c).toMatchObject({
      category: 'SHIPPING',
      quantity: 1,
      original_amount: 10,
      calculated_amount: 12.5,
      currency: 'USD',
      merchant_team_id: m.teamId,
      fulfiller_team_id: t.teamId,
      fulfillment_delegation_id: m.delegationId,
      order_id: s.order.id,
      fulfillment_id: s.input.fulfillmentId,
      fulfillment_order_id: s.fo.id,
      shipping_label_id: s.label!.id,
      carrier_id: 'ups',
      carrier_integration_id: 'ci-1',
      carrier_integration_name: 'UPS',
      carrier_integration_type: 'GENERIC',
      service_id: 'svc-ground',
      carton_id: 'ct-1',
      carton_name: 'Small box',
      warehouse_id: warehouseId,
      warehouse_name: 'East DC',
    });
    const label = {
      from_address_country: 'US',
      from_address_zip: '10001',
      from_address_state: 'NY',
      from_address_city: 'New York',
      to_address_country: 'US',
      to_address_zip: '94105',
      to_address_state: 'CA',
      to_address_city: 'San Francisco',
      zone: '5',
      price: 10,
      formatted_service: 'UPS Ground',
      carrier_integration_name: 'UPS',
      carrier_integration_type: 'GENERIC',
      tracking_code: s.label!.tracking_code,
    };
    const order = {
      address_residential: 'RESIDENTIAL',
      priority: 'HIGH',
      is_fragile: true,
      tags: ['vip', 'gift'],
      unique_core_line_item_count: 2,
      shop_type: 'SHOPIFY',
      order_number: s.order.order_number,
    };
    expect(c.pricing_config).toEqual({ category: 'SHIPPING', original_amount: 10, origination: 'ORDER', shipping_label: label, order });
    expect(c.pricing_trace).toMatchObject({
      rate_card_id: 'rc_ship',
      version_id: 'v_9',
      semantic_version: '2.0.0',
      decision: 'pricing_matched',
      category: 'SHIPPING',
      trigger_step_id: 'shipping',
      pricing_step_id: 'shipping.default',
      calculated_amount: 12.5,
    });
    expect(c.pricing_trace.pricing_config.shipping_label).toEqual({
      ...label,
      id: s.label!.id,
      service_id: 'svc-ground',
      carrier_integration_id: 'ci-1',
      carrier_id: 'ups',
    });
    expect(c.pricing_trace.pricing_config.order).toEqual({ ...order, id: s.order.id });
    expect(c.pricing_trace.events).toContainEqual({ event_type: 'trigger', step_id: 'shipping', category: 'SHIPPING', matched: true });

    const events = await t.db.prisma.outboxEvent.findMany({ where: { kind: 'charge.created' } });
    expect(
      events
        .filter((e) => (e.payload as { id: string }).id === c.id)
        .map((e) => e.team_id)
        .sort(),
    ).toEqual([t.teamId, m.teamId].sort());
    // Each team's event carries the charge as GET /v1/ops/charges/{id} shows it.
    for (const e of events.filter((x) => (x.payload as { id: string }).id === c.id)) expect(e.payload).toEqual(c);

    const byOrder = (await t.call('GET', '/v1/ops/charges', { token, query: { order_id: s.order.id } })).json();
    expect(byOrder.data.map((x: { id: string }) => x.id)).toEqual([c.id]);
    const shipping = (await t.call('GET', '/v1/ops/charges', { token, query: { category: 'SHIPPING' } })).json();
    expect(shipping.data.some((x: { id: string }) => x.id === c.id)).toBe(true);
  });

  it('never bills a fulfillment twice', async () => {
    const m = await t.merchant({ rate_card: CARD });
    const s = await shippedPackage(m.teamId, { price: 8, service_id: 'svc-ground' });
    const first = await bill(s.input);
    const second = await bill(s.input);
    expect(second).toEqual(first);
    expect(await t.db.prisma.charge.count({ where: { fulfillment_id: s.input.fulfillmentId } })).toBe(1);
    // Its billing key (unique) is the last line of defence, the same key a versioned card's SHIPPING charge has.
    const key = `SHIPPING:fulfillment:${s.input.fulfillmentId}`;
    expect((await t.db.prisma.charge.findUniqueOrThrow({ where: { id: first!.id } })).billing_key).toBe(key);
    await expect(
      t.db.prisma.charge.create({
        data: {
          name: 'dup',
          category: 'SHIPPING',
          quantity: 1,
          calculated_amount: 1,
          original_amount: 1,
          merchant_team_id: m.teamId,
          fulfiller_team_id: t.teamId,
          fulfillment_id: s.input.fulfillmentId,
          billing_key: key,
        },
      }),
    ).rejects.toThrow();
  });

  it('applies a by_service rule and defaults shop_type to MANUAL', async () => {
    const m = await t.merchant({ rate_card: CARD });
    const s = await shippedPackage(m.teamId, { price: 20, service_id: 'svc-express' });
    const charge = await t.db.prisma.charge.findUniqueOrThrow({ where: { id: (await bill(s.input))!.id } });
    expect(charge.calculated_amount).toBe(24); // 20 + 0% markup (service rule has none) + 4
    expect((charge.pricing_trace as { pricing_step_id: string }).pricing_step_id).toBe('shipping.by_service.svc-express');
    expect((charge.pricing_config as { order: { shop_type: string } }).order.shop_type).toBe('MANUAL');
  });

  it('bills the fee alone when the package has no label', async () => {
    const m = await t.merchant({ rate_card: CARD });
    const s = await shippedPackage(m.teamId, null);
    const charge = await t.db.prisma.charge.findUniqueOrThrow({ where: { id: (await bill(s.input))!.id } });
    expect(charge).toMatchObject({ calculated_amount: 1.5, original_amount: 0, shipping_label_id: null });
    expect((charge.pricing_config as { shipping_label: unknown }).shipping_label).toBeNull();
  });

  it('returns null and bills nothing without a shipping section or rate card', async () => {
    for (const rate_card of [undefined, { ...CARD, shipping: undefined, receiving: { rate_per_unit: 1 } }]) {
      const m = await t.merchant({ rate_card });
      const s = await shippedPackage(m.teamId, { price: 10, service_id: 'svc-ground' });
      expect(await bill(s.input)).toBeNull();
      expect(await t.db.prisma.charge.count({ where: { merchant_team_id: m.teamId } })).toBe(0);
    }
  });
});
