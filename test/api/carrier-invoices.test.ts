import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';

// Carrier invoice imports through HTTP on real labels: the correction recorded on the label as
// spec 2.7 shapes it, the difference billed (and credited) through the merchant's rate card, a
// label corrected before its fulfill billed at the corrected cost, unmatched lines reported, and
// a re-import — sequential or two at once — changing nothing.

let t: TestApp;
let token: string;
let merchant: { teamId: string; token: string; delegationId: string };
// Label price 5 (flat rate); shipping billed 5 x 1.1 + 1.5 = 7.
const CARD = {
  id: 'rc_inv',
  name: 'Card',
  version_id: 'v1',
  semantic_version: '1.0.0',
  shipping: { markup_percent: 10, fee_per_package: 1.5 },
};

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  merchant = await t.merchant({ rate_card: CARD });
  const rate = await call('POST', '/v1/ops/carrier-rates', {
    carrier_id: 'ups',
    carrier_name: 'UPS',
    service_id: 'ground',
    service_name: 'Ground',
    amount: 5,
    per_unit_weight: 0,
    weight_unit: 'G',
    estimated_days: 3,
  });
  expect(rate.statusCode, rate.body).toBe(201);
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown, key = token) =>
  t.call(method, url, { token: key, ...(body !== undefined ? { body } : {}) });

/** A package of the rate-carded merchant, labelled (price 5), and fulfilled unless asked not to. */
async function labelled(fulfill = true) {
  const f = await fulfillmentFixture(t, { merchantTeamId: merchant.teamId, lines: [{ quantity: 1 }], status: 'ACCEPTED' });
  expect((await call('POST', `/v1/ops/fulfillment-orders/${f.fo.id}/lock`, { lock_owner: 'inv', timeout_minutes: 10 })).statusCode).toBe(
    200,
  );
  const p = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    weight: 500,
    weight_unit: 'G',
    package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
  });
  expect(p.statusCode, p.body).toBe(201);
  const l = await call('POST', `/v1/ops/packages/${p.json().id}/label`, { rate_strategy: 'CHEAPEST' });
  expect(l.statusCode, l.body).toBe(200);
  if (fulfill) expect((await call('POST', `/v1/ops/packages/${p.json().id}/fulfill`, { locked_by: 'inv' })).statusCode).toBe(200);
  const pkg = l.json();
  return { f, pkg, tracking: pkg.shipping_label_tracking_code as string, orderId: f.order.id as string };
}

const line = (tracking: string, cost: number, invoice = 'INV-100', extra: Record<string, unknown> = {}) => ({
  tracking_number: tracking,
  carrier_invoice_number: invoice,
  carrier_invoice_date: '2026-11-20',
  corrected_carrier_cost: cost,
  currency: 'USD',
  ...extra,
});
const shippingCharges = async (orderId: string) =>
  (await call('GET', `/v1/ops/charges?order_id=${orderId}&category=SHIPPING&limit=100`)).json().data as {
    id: string;
    calculated_amount: number;
    name: string;
    shipping_label_id: string;
  }[];

describe('carrier invoice imports', () => {
  it('records the correction on the label, bills the difference, reports unmatched lines, and a re-import changes nothing', async () => {
    const a = await labelled();
    expect((await shippingCharges(a.orderId)).map((c) => c.calculated_amount)).toEqual([7]);
    const body = {
      filename: 'ups-2026-11.csv',
      lines: [
        line(a.tracking, 8, 'INV-100', {
          correction_type: 'WEIGHT_CORRECTION',
          correction_reason: 'billed weight 2 kg',
          carrier_service_code: '003',
          published_amount: 9.5,
          incentive_amount: -1.5,
          transaction_date: '2026-11-18',
        }),
        line('1ZNOTOURS', 3),
      ],
    };
    const res = await call('POST', '/v1/ops/carrier-invoices', body);
    expect(res.statusCode, res.body).toBe(201);
    const imp = res.json();
    expect(imp).toMatchObject({
      filename: 'ups-2026-11.csv',
      replayed: false,
      line_count: 2,
      corrected: 1,
      unchanged: 0,
      unmatched: [{ line: 2, tracking_number: '1ZNOTOURS', reason: 'no label of this team has this tracking number' }],
      charges: [{ tracking_number: a.tracking, amount: 3.3, currency: 'USD' }],
    });

    const pkg = (await call('GET', `/v1/ops/packages/${a.pkg.id}`)).json();
    expect(pkg.shipping_label.carrier_correction).toEqual({
      version: 1,
      source_import: { filename: 'ups-2026-11.csv', import_id: imp.id },
      carrier_invoice_number: 'INV-100',
      carrier_invoice_date: '2026-11-20',
      transaction_date: '2026-11-18',
      confirmed_at: expect.any(String),
      tracking_number: a.tracking,
      correction_type: 'WEIGHT_CORRECTION',
      correction_reason: 'billed weight 2 kg',
      carrier_service_code: '003',
      published_amount: 9.5,
      incentive_amount: -1.5,
      original_carrier_cost: 5,
      carrier_adjustment_amount: 3,
      corrected_carrier_cost: 8,
      currency: 'USD',
    });
    const charges = await shippingCharges(a.orderId);
    expect(charges.map((c) => c.calculated_amount).sort()).toEqual([3.3, 7]);
    const correction = charges.find((c) => c.calculated_amount === 3.3)!;
    expect(correction).toMatchObject({
      shipping_label_id: pkg.shipping_label.id,
      name: `Carrier correction ${a.tracking} (invoice INV-100)`,
    });
    const told = await t.db.prisma.outboxEvent.findMany({ where: { kind: 'charge.created' } });
    expect(
      told
        .filter((e) => (e.payload as { id: string }).id === correction.id)
        .map((e) => e.team_id)
        .sort(),
    ).toEqual([t.teamId, merchant.teamId].sort());

    // The same lines again, even under another name: the first result, nothing billed.
    const again = await call('POST', '/v1/ops/carrier-invoices', { ...body, filename: 'copy.csv' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...imp, replayed: true });
    expect(await shippingCharges(a.orderId)).toHaveLength(2);

    // A later invoice repeating that line and crediting back below the bought price.
    const later = await call('POST', '/v1/ops/carrier-invoices', {
      filename: 'ups-2026-12.csv',
      lines: [line(a.tracking, 8), line(a.tracking, 4, 'INV-200')],
    });
    expect(later.statusCode, later.body).toBe(201);
    expect(later.json()).toMatchObject({ corrected: 1, unchanged: 1, charges: [{ amount: -4.4 }] });
    const v2 = (await call('GET', `/v1/ops/packages/${a.pkg.id}`)).json().shipping_label.carrier_correction;
    expect(v2).toMatchObject({
      version: 2,
      carrier_invoice_number: 'INV-200',
      original_carrier_cost: 5,
      carrier_adjustment_amount: -1,
      corrected_carrier_cost: 4,
    });
    expect((await shippingCharges(a.orderId)).reduce((s, c) => s + c.calculated_amount, 0)).toBeCloseTo(7 + 3.3 - 4.4, 6);

    expect((await call('GET', `/v1/ops/carrier-invoices/${imp.id}`)).json()).toEqual(imp);
    const list = (await call('GET', '/v1/ops/carrier-invoices')).json();
    expect(list.data.map((i: { id: string }) => i.id)).toContain(imp.id);
    const events = await t.db.prisma.outboxEvent.findMany({ where: { kind: 'shipping_label.corrected' } });
    expect(events.filter((e) => (e.payload as { import_id: string }).import_id === imp.id)).toHaveLength(1);
  });

  it('a label corrected before its fulfill is billed at the corrected cost, once', async () => {
    const b = await labelled(false);
    const res = await call('POST', '/v1/ops/carrier-invoices', { filename: 'early.csv', lines: [line(b.tracking, 9, 'INV-300')] });
    expect(res.json()).toMatchObject({ corrected: 1, charges: [] });
    expect((await call('POST', `/v1/ops/packages/${b.pkg.id}/fulfill`, { locked_by: 'inv' })).statusCode).toBe(200);
    expect((await shippingCharges(b.orderId)).map((c) => c.calculated_amount)).toEqual([11.4]); // 9 x 1.1 + 1.5
  });

  it('two identical imports at once give one import and one charge; a voided label or another currency is unmatched', async () => {
    const c = await labelled();
    const body = { filename: 'race.csv', lines: [line(c.tracking, 6, 'INV-400')] };
    const [r1, r2] = await Promise.all([call('POST', '/v1/ops/carrier-invoices', body), call('POST', '/v1/ops/carrier-invoices', body)]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 201]);
    expect(r1.json().id).toBe(r2.json().id);
    expect((await shippingCharges(c.orderId)).map((x) => x.calculated_amount).sort()).toEqual([1.1, 7]);

    const v = await labelled(false);
    expect((await call('POST', `/v1/ops/packages/${v.pkg.id}/label/void`)).statusCode).toBe(200);
    const d = await labelled(false);
    const res = await call('POST', '/v1/ops/carrier-invoices', {
      filename: 'misc.csv',
      lines: [line(v.tracking, 6), line(d.tracking, 6, 'INV-1', { currency: 'EUR' })],
    });
    expect(res.json()).toMatchObject({
      corrected: 0,
      unmatched: [
        { line: 1, reason: 'the label is voided' },
        { line: 2, reason: "currency EUR differs from the label's USD" },
      ],
    });
  });

  it('refuses bad input with problem+json, and needs WRITE_CHARGES', async () => {
    for (const body of [
      { filename: 'x.csv', lines: [] },
      {
        filename: 'x.csv',
        lines: [{ tracking_number: '1Z', carrier_invoice_number: 'I', carrier_invoice_date: '2026-11-20', currency: 'USD' }],
      },
      { filename: 'x.csv', lines: [line('1Z', 1, 'I', { currency: 'usd' })] },
      { filename: 'x.csv', lines: [line('1Z', -1)] },
      { filename: 'x.csv', lines: [line('1Z', 1, 'I', { colour: 'red' })] },
      { filename: '', lines: [line('1Z', 1)] },
    ]) {
      const r = await call('POST', '/v1/ops/carrier-invoices', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.headers['content-type']).toContain('application/problem+json');
    }
    const reader = await t.key({ permissions: ['READ_CHARGES'] });
    expect((await call('POST', '/v1/ops/carrier-invoices', { filename: 'x.csv', lines: [line('1Z', 1)] }, reader.token)).statusCode).toBe(
      403,
    );
    expect((await call('GET', '/v1/ops/carrier-invoices', undefined, reader.token)).statusCode).toBe(200);
  });
});
