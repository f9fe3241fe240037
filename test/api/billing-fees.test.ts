import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { link, publish, shipPackage } from '../helpers/rate-cards.js';

// Versioned rate cards (issue 40, docs/billing.md): publish and round trip, the fees a fulfillment
// bills (shipping, pick with pick_fee_override, pack, packaging), receiving, returns, ad-hoc.

let t: TestApp;
let token: string;
let merchant: { teamId: string; delegationId: string };
let cardId: string;

const FEES = [
  { id: 'ship', event: 'SHIPPING', price: { type: 'LABEL_MARKUP', markup_percent: 10, amount: 1, minimum: 5 } },
  { id: 'pick', event: 'PICK', price: { type: 'FIRST_ADDITIONAL', first: 1, additional: 0.25 } },
  { id: 'pack', event: 'PACK', price: { type: 'PER_ORDER', amount: 0.75 } },
  { id: 'box-small', name: 'Small box', event: 'PACKAGING', conditions: { cartons: ['BOX-S'] }, price: { type: 'FLAT', amount: 0.4 } },
  { id: 'receive', event: 'RECEIVING', price: { type: 'PER_UNIT', amount: 0.1 } },
  { id: 'receive-po', event: 'RECEIVING_PO', price: { type: 'FLAT', amount: 15 } },
  { id: 'hours', event: 'RECEIVING_HOURS', price: { type: 'PER_UNIT', amount: 40 } },
  { id: 'returns', event: 'RETURN', price: { type: 'PER_UNIT', amount: 2 } },
  { id: 'adhoc', event: 'AD_HOC', price: { type: 'PER_UNIT', amount: 55 } },
];
const DOC = {
  rate_card_name: 'Standard',
  semantic_version: '1.0.0',
  effective_at: '2020-01-01T00:00:00.000Z',
  currency: 'USD',
  fees: FEES,
};

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  merchant = await t.merchant();
  const v = await publish(t, token, DOC);
  cardId = v.rate_card_id;
  await link(t, token, merchant.delegationId, cardId);
});
afterAll(() => t?.close());

describe('publishing', () => {
  it('round-trips: a version as GET returns it is accepted unchanged (the same version, 200)', async () => {
    const got = await t.call('GET', `/v1/ops/rate-cards/${cardId}/versions/1.0.0`, { token });
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json()).toMatchObject({ rate_card_id: cardId, rate_card_name: 'Standard', semantic_version: '1.0.0', fees: FEES });
    const again = await publish(t, token, got.json(), 200);
    expect(again).toEqual(got.json());
    const byName = await t.call('GET', '/v1/ops/rate-cards/Standard/versions/current', { token });
    expect(byName.json().version_id).toBe(got.json().version_id);
  });

  it('refuses a taken semantic_version with other content (409), unknown members (400), a price missing its amount (400)', async () => {
    await publish(t, token, { ...DOC, fees: FEES.slice(1) }, 409);
    await publish(t, token, { ...DOC, semantic_version: '1.0.9', surprise: 1 }, 400);
    const res = await t.call('POST', '/v1/ops/rate-cards/versions', {
      token,
      body: { ...DOC, semantic_version: '1.0.9', fees: [{ id: 'x', event: 'PICK', price: { type: 'PER_UNIT' } }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('price.amount');
    const label = await t.call('POST', '/v1/ops/rate-cards/versions', {
      token,
      body: { ...DOC, semantic_version: '1.0.9', fees: [{ id: 'x', event: 'PICK', price: { type: 'LABEL_PERCENT', percent: 5 } }] },
    });
    expect(label.statusCode).toBe(400);
  });

  it('lists the card with its versions and the delegation pointed at it', async () => {
    const list = await t.call('GET', '/v1/ops/rate-cards', { token });
    expect(list.json().data).toEqual([
      expect.objectContaining({
        id: cardId,
        name: 'Standard',
        delegation_ids: [merchant.delegationId],
        current_version_id: expect.any(String),
      }),
    ]);
    const d = await t.call('GET', '/v1/ops/delegations', { token });
    // The list names the merchant and the card pricing it (the versioned one, not the JSON card).
    expect(d.json().data.find((x: any) => x.id === merchant.delegationId)).toMatchObject({
      rate_card_id: cardId,
      rate_card_name: 'Standard',
      merchant_team_name: expect.stringMatching(/^Merchant \d+$/),
    });
  });
});

describe('a fulfillment bills shipping, pick, pack and packaging once each', () => {
  it('prices each fee by the card and fills the spec 2.8 fields', async () => {
    const shipped = await shipPackage(t, token, {
      merchantTeamId: merchant.teamId,
      lines: [{ quantity: 3 }, { quantity: 2 }],
      carton_id: 'BOX-S',
      cost: 10,
    });
    const c = shipped.byCategory;
    expect(Object.keys(c).sort()).toEqual(['PACK', 'PACKAGING', 'PICK', 'SHIPPING']);
    expect(c.SHIPPING).toMatchObject({
      calculated_amount: 12,
      original_amount: 10,
      quantity: 1,
      billing_key: expect.stringMatching(/^SHIPPING:fulfillment:/),
    });
    expect(c.PICK).toMatchObject({ calculated_amount: 2, quantity: 5 }); // 1 + 4 x 0.25
    expect(c.PACK).toMatchObject({ calculated_amount: 0.75 });
    expect(c.PACKAGING).toMatchObject({ calculated_amount: 0.4, carton_id: 'BOX-S' });
    const trace = c.PICK.pricing_trace as any;
    expect(trace).toMatchObject({
      rate_card_id: cardId,
      rate_card_name: 'Standard',
      semantic_version: '1.0.0',
      category: 'PICK',
      decision: 'pricing_matched',
      trigger_step_id: 'pick',
      pricing_step_id: 'pick',
      events: [
        { event_type: 'trigger', step_id: 'pick', category: 'PICK', matched: true },
        { event_type: 'trigger', step_id: 'pick', category: 'PICK', matched: true },
      ],
    });
    expect(c.SHIPPING.pricing_config).toMatchObject({ category: 'SHIPPING', original_amount: 10, origination: 'ORDER' });
    const api = await t.call('GET', `/v1/ops/charges/${c.PICK.id}`, { token });
    expect(api.json().pricing_trace.event).toMatchObject({ event: 'PICK', units: 5, lines: 2 });
  });

  it("a product's pick_fee_override replaces the per-unit pick fee for its units", async () => {
    const first = await shipPackage(t, token, { merchantTeamId: merchant.teamId, lines: [{ quantity: 1 }] });
    const overridden = await t.db.prisma.product.create({
      data: {
        team_id: merchant.teamId,
        merchant_team_id: merchant.teamId,
        name: 'Bulky',
        sku: `BULKY-${Date.now()}`,
        pick_fee_override: 1.5,
        measurement_unit: 'MM',
        weight_unit: 'G',
      },
    });
    const shipped = await shipPackage(t, token, {
      merchantTeamId: merchant.teamId,
      lines: [{ quantity: 2 }, { quantity: 3, productId: overridden.id, onHand: 10 }],
    });
    expect(first.byCategory.PICK.calculated_amount).toBe(1);
    // first unit 1, the other unit of the plain product 0.25, the three bulky units 1.5 each
    expect(shipped.byCategory.PICK.calculated_amount).toBe(5.75);
    expect(shipped.byCategory.PACKAGING).toBeUndefined(); // no carton, no packaging fee
  });
});

describe('carrier corrections of a label billed by a versioned card', () => {
  it('bill the price at the corrected cost by the same version, less the price at the cost before', async () => {
    const shipped = await shipPackage(t, token, { merchantTeamId: merchant.teamId, lines: [{ quantity: 1 }], cost: 3 });
    expect(shipped.byCategory.SHIPPING.calculated_amount).toBe(5); // max(5, 3 x 1.1 + 1)
    const label = await t.db.prisma.shippingLabel.findUniqueOrThrow({ where: { package_id: shipped.packageId } });
    const correct = (cost: number, invoice: string) =>
      t.call('POST', '/v1/ops/carrier-invoices', {
        token,
        body: {
          filename: `${invoice}.csv`,
          lines: [
            {
              tracking_number: label.tracking_code,
              carrier_invoice_number: invoice,
              carrier_invoice_date: '2026-11-20',
              corrected_carrier_cost: cost,
              currency: 'USD',
            },
          ],
        },
      });
    expect((await correct(10, 'C-1')).statusCode).toBe(201);
    expect((await correct(8, 'C-2')).statusCode).toBe(201);
    const corrections = await t.db.prisma.charge.findMany({
      where: { shipping_label_id: label.id, fulfillment_id: null },
      orderBy: { created_at: 'asc' },
    });
    // 10 x 1.1 + 1 = 12 less 5 (the minimum at 3); then 8 x 1.1 + 1 = 9.8 less 12
    expect(corrections.map((c) => c.calculated_amount)).toEqual([7, -2.2]);
    expect(corrections[0].pricing_trace).toMatchObject({ trigger_step_id: 'shipping.carrier_correction', pricing_step_id: 'ship' });
  });
});

describe('receiving, returns and ad-hoc', () => {
  it('a purchase-order receipt bills its units, and the order once however many receipts', async () => {
    const sku = `RCV-${Date.now()}`;
    await t.db.prisma.product.create({
      data: { team_id: merchant.teamId, merchant_team_id: merchant.teamId, name: 'Rcv', sku, measurement_unit: 'MM', weight_unit: 'G' },
    });
    const warehouse = await t.db.prisma.warehouse.create({ data: { team_id: t.teamId, name: 'Receiving DC' } });
    const po = await t.call('POST', '/v1/ops/purchase-orders', {
      token,
      body: { warehouse_id: warehouse.id, merchant_team_id: merchant.teamId, lines: [{ sku, quantity: 30 }] },
    });
    expect(po.statusCode, po.body).toBe(201);
    for (const quantity of [10, 20]) {
      const r = await t.call('POST', `/v1/ops/purchase-orders/${po.json().id}/receive`, { token, body: { lines: [{ sku, quantity }] } });
      expect(r.statusCode, r.body).toBe(200);
    }
    const charges = await t.db.prisma.charge.findMany({ where: { purchase_order_id: po.json().id }, orderBy: { created_at: 'asc' } });
    expect(charges.map((c) => [c.category, c.calculated_amount, c.pricing_trace && (c.pricing_trace as any).pricing_step_id])).toEqual([
      ['RECEIVING', 1, 'receive'],
      ['RECEIVING', 15, 'receive-po'],
      ['RECEIVING', 2, 'receive'],
    ]);
  });

  it('receiving hours and ad-hoc work are posted with a note; a reference makes the post idempotent', async () => {
    const body = {
      merchant_team_id: merchant.teamId,
      name: 'Relabel 200 units',
      note: 'customer asked for new barcodes',
      quantity: 2,
      reference: 'PRJ-1',
    };
    const [a, b] = await Promise.all([
      t.call('POST', '/v1/ops/charges/ad-hoc', { token, body }),
      t.call('POST', '/v1/ops/charges/ad-hoc', { token, body }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().id).toBe(b.json().id);
    expect(a.json()).toMatchObject({ category: 'AD_HOC', calculated_amount: 110, description: 'customer asked for new barcodes' });
    const hours = await t.call('POST', '/v1/ops/charges/ad-hoc', {
      token,
      body: {
        merchant_team_id: merchant.teamId,
        name: 'Unloading',
        note: 'floor-loaded container',
        event: 'RECEIVING_HOURS',
        quantity: 1.5,
      },
    });
    expect(hours.json()).toMatchObject({ category: 'RECEIVING', calculated_amount: 60, quantity: 1.5 });
    const manual = await t.call('POST', '/v1/ops/charges/ad-hoc', {
      token,
      body: { merchant_team_id: merchant.teamId, name: 'Photo shoot', note: 'agreed by e-mail', quantity: 1, unit_amount: 250 },
    });
    expect(manual.json()).toMatchObject({ category: 'AD_HOC', calculated_amount: 250 });
    expect(manual.json().pricing_trace.pricing_step_id).toBe('manual');
  });

  it('a return received bills returns processing per unit', async () => {
    const shipped = await shipPackage(t, token, { merchantTeamId: merchant.teamId, lines: [{ quantity: 3 }] });
    const sku = shipped.f.products[0].sku;
    const ret = await t.call('POST', '/v1/ops/returns', { token, body: { order_id: shipped.f.order.id, lines: [{ sku, quantity: 3 }] } });
    expect(ret.statusCode, ret.body).toBe(201);
    for (const quantity of [1, 2]) {
      const r = await t.call('POST', `/v1/ops/returns/${ret.json().id}/receive`, { token, body: { lines: [{ sku, quantity }] } });
      expect(r.statusCode, r.body).toBe(200);
    }
    const charges = await t.db.prisma.charge.findMany({ where: { return_id: ret.json().id }, orderBy: { created_at: 'asc' } });
    expect(charges.map((c) => [c.category, c.calculated_amount])).toEqual([
      ['RETURNS', 2],
      ['RETURNS', 4],
    ]);
  });
});
