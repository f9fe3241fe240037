import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { link, publish, shipPackage } from '../helpers/rate-cards.js';

// Every charge follows the application's clock (AppConfig.clock; FOS_NOW for `fos serve`), not the
// machine's: the charges billed inside a fulfill, a purchase-order receipt, a return, a work order
// and an ad-hoc post are dated by it and priced by the version in force at it, and the stock the
// day's storage snapshot reads was moved at it, so a month simulated with a clock in the past is
// invoiced whole (issue 40: fulfillment charges carried the real date, received stock the real time).

// The clock: the middle of the month before last, so a version effective at the start of last
// month is in force by the real clock and not by the app's (whatever day the suite runs).
const real = new Date();
const monthStart = (back: number) => Date.UTC(real.getUTCFullYear(), real.getUTCMonth() - back, 1);
const NOW = monthStart(2) + 14 * 86_400_000 + 15 * 3_600_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const PERIOD = { period_start: day(monthStart(2)), period_end: day(monthStart(1) - 1) };

let now = NOW;
let t: TestApp;
let token: string;
let merchant: { teamId: string; delegationId: string };

const fees = (k: number) => [
  { id: 'ship', event: 'SHIPPING', price: { type: 'LABEL_MARKUP', markup_percent: 10 * k, amount: 1 } },
  { id: 'pick', event: 'PICK', price: { type: 'PER_UNIT', amount: 0.5 * k } },
  { id: 'pack', event: 'PACK', price: { type: 'PER_ORDER', amount: 0.75 * k } },
  { id: 'receive', event: 'RECEIVING', price: { type: 'PER_UNIT', amount: 0.1 * k } },
  { id: 'receive-po', event: 'RECEIVING_PO', price: { type: 'FLAT', amount: 15 * k } },
  { id: 'returns', event: 'RETURN', price: { type: 'PER_UNIT', amount: 2 * k } },
  { id: 'kit', event: 'KITTING', price: { type: 'PER_UNIT', amount: 0.8 * k } },
  { id: 'adhoc', event: 'AD_HOC', price: { type: 'PER_UNIT', amount: 55 * k } },
  { id: 'store', event: 'STORAGE', price: { type: 'PER_UNIT', amount: 0.1 * k } },
];
const doc = (semantic_version: string, effective_at: string, k: number) => ({
  rate_card_name: 'Clocked',
  semantic_version,
  effective_at,
  currency: 'USD',
  fees: fees(k),
});

beforeAll(async () => {
  t = await testApp({ clock: () => now });
  token = (await t.key({ tier: 4 })).token;
  merchant = await t.merchant();
  const v1 = await publish(t, token, doc('1.0.0', '2020-01-01T00:00:00.000Z', 1));
  // In force from the start of last month: by the real clock, not by the app's.
  await publish(t, token, doc('2.0.0', new Date(monthStart(1)).toISOString(), 2));
  await link(t, token, merchant.delegationId, v1.rate_card_id);
});
afterAll(() => t?.close());

const call = async (method: string, url: string, body: unknown, status: number) => {
  const res = await t.call(method, url, { token, body });
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
};

async function receiveAndKit() {
  const warehouse = await t.db.prisma.warehouse.create({ data: { team_id: t.teamId, name: 'Clock DC' } });
  const part = await t.db.prisma.product.create({
    data: {
      team_id: merchant.teamId,
      merchant_team_id: merchant.teamId,
      name: 'Part',
      sku: 'CLK-PART',
      measurement_unit: 'MM',
      weight_unit: 'G',
    },
  });
  const po = await call(
    'POST',
    '/v1/ops/purchase-orders',
    { warehouse_id: warehouse.id, merchant_team_id: merchant.teamId, lines: [{ sku: 'CLK-PART', quantity: 10 }] },
    201,
  );
  await call('POST', `/v1/ops/purchase-orders/${po.id}/receive`, { lines: [{ sku: 'CLK-PART', quantity: 10 }] }, 200);
  const kit = await call(
    'POST',
    '/v1/ops/products',
    {
      merchant_team_id: merchant.teamId,
      name: 'Gift set',
      sku: 'CLK-SET',
      type: 'ASSEMBLY',
      measurement_unit: 'MM',
      weight_unit: 'G',
      assembly_components: [{ component_product_id: part.id, component_quantity: 2 }],
    },
    201,
  );
  await call('POST', '/v1/ops/work-orders', { product_id: kit.id, quantity: 3, warehouse_id: warehouse.id }, 201);
  return warehouse.id;
}

describe('a month simulated with the app clock in the past', () => {
  it('dates every charge by the app clock, prices it by the version in force then, and invoices it in that month', async () => {
    const warehouseId = await receiveAndKit();
    const shipped = await shipPackage(t, token, { merchantTeamId: merchant.teamId, lines: [{ quantity: 3 }], cost: 10 });
    const sku = shipped.f.products[0].sku;
    const ret = await call('POST', '/v1/ops/returns', { order_id: shipped.f.order.id, lines: [{ sku, quantity: 2 }] }, 201);
    await call('POST', `/v1/ops/returns/${ret.id}/receive`, { lines: [{ sku, quantity: 2 }] }, 200);
    await call(
      'POST',
      '/v1/ops/charges/ad-hoc',
      { merchant_team_id: merchant.teamId, name: 'Relabel', note: 'by e-mail', quantity: 1 },
      201,
    );

    // The next day the storage of the day before is taken: 4 parts and 3 kits in the kitting warehouse.
    now = NOW + 86_400_000;
    await call('POST', '/v1/ops/billing/storage-runs', { date: day(NOW), warehouse_id: warehouseId }, 201);
    const stored = await t.db.prisma.charge.findMany({ where: { merchant_team_id: merchant.teamId, category: 'STORAGE' } });
    expect(
      stored.map((c) => [c.quantity, c.created_at.getTime(), (c.pricing_trace as { semantic_version: string }).semantic_version]),
    ).toEqual([[7, now, '1.0.0']]);

    const charges = await t.db.prisma.charge.findMany({
      where: { merchant_team_id: merchant.teamId, category: { not: 'STORAGE' } },
      orderBy: { id: 'asc' },
    });
    expect(charges.map((c) => c.category).sort()).toEqual([
      'AD_HOC',
      'KITTING',
      'PACK',
      'PICK',
      'RECEIVING',
      'RECEIVING',
      'RETURNS',
      'SHIPPING',
    ]);
    for (const c of charges) {
      expect([c.category, c.created_at.toISOString()]).toEqual([c.category, new Date(NOW).toISOString()]);
      expect([c.category, (c.pricing_trace as { semantic_version: string }).semantic_version]).toEqual([c.category, '1.0.0']);
    }
    // Spec 2.8's warehouse fields are filled wherever the event happened in a warehouse.
    expect(charges.filter((c) => c.category !== 'AD_HOC').map((c) => [c.category, typeof c.warehouse_name])).toEqual(
      charges.filter((c) => c.category !== 'AD_HOC').map((c) => [c.category, 'string']),
    );
    // The API and the charge.created webhook say the same date.
    const listed = await call('GET', `/v1/ops/charges?merchant_team_id=${merchant.teamId}&category=PICK`, undefined, 200);
    expect(new Set(listed.data.map((c: { created_at: string }) => c.created_at))).toEqual(new Set([new Date(NOW).toISOString()]));
    const events = await t.db.prisma.outboxEvent.findMany({ where: { team_id: merchant.teamId, kind: 'charge.created' } });
    expect(events).toHaveLength(charges.length + 1);
    const dated = (e: { payload: unknown }) => (e.payload as { created_at: string; category: string }).category !== 'STORAGE';
    for (const e of events.filter(dated)) expect((e.payload as { created_at: string }).created_at).toBe(new Date(NOW).toISOString());

    const inv = await call('POST', '/v1/ops/invoices', { merchant_team_id: merchant.teamId, ...PERIOD }, 201);
    expect(inv.charge_count).toBe(charges.length + 1);
    expect(
      inv.lines.map((l: { category: string; amount: number; charge_count: number }) => [l.category, l.amount, l.charge_count]),
    ).toEqual([
      ['AD_HOC', 55, 1],
      ['KITTING', 2.4, 1], // 3 x 0.8
      ['PACK', 0.75, 1],
      ['PICK', 1.5, 1], // 3 x 0.5
      ['RECEIVING', 16, 2], // 10 x 0.1 + 15 the purchase order
      ['RETURNS', 4, 1], // 2 x 2
      ['SHIPPING', 12, 1], // 10 + 10 % + 1
      ['STORAGE', 0.7, 1], // 7 units x 0.1
    ]);
    expect(inv.subtotal).toBe(92.35);
    expect(await t.db.prisma.charge.count({ where: { merchant_team_id: merchant.teamId, invoice_id: null } })).toBe(0);
  });
});
