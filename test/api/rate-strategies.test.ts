import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { fixtureWarehouse, fulfillmentFixture } from '../helpers/fixtures.js';

// Rate strategies (docs/automation.md "Rate strategies"): CHEAPEST_WITHIN_DAYS and
// rate_exclude_carrier_ids at a label purchase, on a package, from a rule through the order's
// selection, and in a label batch; a rate list where the cheapest is slower than N days; an
// excluded carrier's cheaper rate skipped; nothing left -> 422 naming why.

let t: TestApp;
let token: string;
let warehouse: string;

// [carrier_id, service_id, amount, estimated_days]
const RATES: [string, string, number, number | null][] = [
  ['nodays', 'nd_basic', 3, null], // cheapest, no estimate
  ['usps', 'usps_ground', 4, 6], // cheapest with an estimate, slow
  ['fedex', 'fedex_2day', 6, 2],
  ['ups', 'ups_3day', 7, 3],
  ['dhl', 'dhl_express', 20, 1],
];

beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  warehouse = await fixtureWarehouse(t);
  for (const [carrier_id, service_id, amount, estimated_days] of RATES) {
    const r = await call('POST', '/v1/ops/carrier-rates', {
      carrier_id,
      carrier_name: carrier_id.toUpperCase(),
      service_id,
      service_name: service_id,
      amount,
      estimated_days,
    });
    expect(r.statusCode, r.body).toBe(201);
  }
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });

async function pkg(fields: Record<string, unknown> = {}) {
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED', warehouseId: warehouse });
  const p = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    weight: 900,
    weight_unit: 'G',
    package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
    ...fields,
  });
  expect(p.statusCode, p.body).toBe(201);
  return p.json().id as string;
}

async function buy(body: Record<string, unknown>, fields: Record<string, unknown> = {}) {
  const id = await pkg(fields);
  return { id, res: await call('POST', `/v1/ops/packages/${id}/label`, body) };
}
const bought = async (body: Record<string, unknown>, fields: Record<string, unknown> = {}) => {
  const { res } = await buy(body, fields);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().service_id as string;
};

describe('rate strategies at a label purchase', () => {
  it('CHEAPEST_WITHIN_DAYS takes the cheapest rate within N days (the cheaper slow and unestimated ones left out)', async () => {
    expect(await bought({ rate_strategy: 'CHEAPEST' })).toBe('nd_basic');
    expect(await bought({ rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 3 })).toBe('fedex_2day');
    expect(await bought({ rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 6 })).toBe('usps_ground');
    expect(await bought({ rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 1 })).toBe('dhl_express');
  });

  it("rate_exclude_carrier_ids skips an excluded carrier's cheaper rate, whatever the strategy (case-insensitive)", async () => {
    expect(await bought({ rate_strategy: 'CHEAPEST', rate_exclude_carrier_ids: ['NoDays', 'usps'] })).toBe('fedex_2day');
    expect(await bought({ rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 3, rate_exclude_carrier_ids: ['fedex'] })).toBe(
      'ups_3day',
    );
    expect(await bought({ rate_strategy: 'FASTEST', rate_exclude_carrier_ids: ['dhl'] })).toBe('fedex_2day');
  });

  it('no rate left: 422 naming which option left out what; the failure is kept on the package', async () => {
    const { id, res } = await buy({ rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 1, rate_exclude_carrier_ids: ['dhl'] });
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json();
    expect(body.detail).toMatch(/of 5 matching rates, 1 left out by rate_exclude_carrier_ids \(dhl\); 4 slower than 1 days/);
    expect(body.rate_error_data.available_rates).toHaveLength(5);
    const row = await t.db.prisma.package.findUniqueOrThrow({ where: { id } });
    expect(row.error_message).toMatch(/No rate is left by the rate strategy/);
    expect(await t.db.prisma.shippingLabel.count({ where: { package_id: id } })).toBe(0);
  });

  it('refuses options that cannot work together, with the path', async () => {
    const id = await pkg();
    for (const [body, path] of [
      [{ rate_strategy: 'CHEAPEST_WITHIN_DAYS' }, 'body.rate_within_days'],
      [{ rate_strategy: 'CHEAPEST', rate_within_days: 2 }, 'body.rate_within_days'],
      [{ rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 0 }, 'body.rate_within_days'],
      [{ rate_strategy: 'CHEAPEST', rate_exclude_carrier_ids: 'usps' }, 'body.rate_exclude_carrier_ids'],
    ] as const) {
      const r = await call('POST', `/v1/ops/packages/${id}/label`, body);
      expect(r.statusCode, r.body).toBe(400);
      expect(
        r
          .json()
          .errors.map((e: any) => e.path)
          .join(' '),
      ).toContain(path);
    }
  });
});

describe('rate strategies kept on a package, set by a rule, and in a label batch', () => {
  it("a package's own strategy and options are used by a label purchase with an empty body", async () => {
    expect(await bought({}, { rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 3, rate_exclude_carrier_ids: ['fedex'] })).toBe(
      'ups_3day',
    );
    // The request's strategy brings its own days; the package's exclusions still hold.
    expect(await bought({ rate_strategy: 'CHEAPEST' }, { rate_exclude_carrier_ids: ['nodays'] })).toBe('usps_ground');
    const bad = await call('POST', '/v1/ops/packages', { rate_strategy: 'CHEAPEST_WITHIN_DAYS' });
    expect(bad.statusCode).toBe(400);
  });

  it('a rule action sets the strategy on the order; its packages inherit it; a rule without the days is refused', async () => {
    const bad = await call('POST', '/v1/ops/automation-rules', {
      name: 'bad',
      conditions: {},
      actions: { rate_strategy: 'CHEAPEST_WITHIN_DAYS' },
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.actions.rate_within_days');
    const rule = await call('POST', '/v1/ops/automation-rules', {
      name: 'two-day',
      conditions: {},
      actions: { rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 2, rate_exclude_carrier_ids: ['dhl'] },
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED', warehouseId: warehouse });
    const applied = await call('POST', `/v1/ops/orders/${f.order.id}/apply-rules`);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 2, rate_exclude_carrier_ids: ['dhl'] });
    const p = await call('POST', '/v1/ops/packages', {
      fulfillment_order_id: f.fo.id,
      weight: 900,
      weight_unit: 'G',
      package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
    });
    expect(p.statusCode, p.body).toBe(201);
    const label = await call('POST', `/v1/ops/packages/${p.json().id}/label`, {});
    expect(label.statusCode, label.body).toBe(200);
    expect(label.json().service_id).toBe('fedex_2day');
    // A person's choice on the order (PATCH) beats the rule: another strategy takes the days away;
    // days without CHEAPEST_WITHIN_DAYS are refused.
    const patched = await call('PATCH', `/v1/ops/orders/${f.order.id}`, { rate_strategy: 'FASTEST' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ rate_strategy: 'FASTEST', rate_exclude_carrier_ids: ['dhl'] });
    expect(patched.json().rate_within_days).toBeUndefined();
    // A re-run keeps the person's strategy; the rule's days would mean nothing beside it and are not set.
    const again = (await call('POST', `/v1/ops/orders/${f.order.id}/apply-rules`)).json();
    expect(again).toMatchObject({ rate_strategy: 'FASTEST', rate_exclude_carrier_ids: ['dhl'] });
    expect(again.rate_within_days).toBeUndefined();
    expect(again.automation_trace.decisions[0].kept).toEqual(['rate_strategy']);
    const days = await call('PATCH', `/v1/ops/orders/${f.order.id}`, { rate_within_days: 3 });
    expect(days.statusCode).toBe(400);
    expect(days.json().errors[0].path).toBe('body.rate_within_days');
    expect((await call('DELETE', `/v1/ops/automation-rules/${rule.json().id}`)).statusCode).toBe(204);
  });

  it('a label batch applies its strategy and options to every package and shows them', async () => {
    const ids = [await pkg(), await pkg()];
    const res = await call('POST', '/v1/ops/label-batches', {
      package_ids: ids,
      rate_strategy: 'CHEAPEST_WITHIN_DAYS',
      rate_within_days: 3,
      rate_exclude_carrier_ids: ['fedex'],
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ rate_strategy: 'CHEAPEST_WITHIN_DAYS', rate_within_days: 3, rate_exclude_carrier_ids: ['fedex'] });
    await t.app.labelBatches.idle();
    const b = (await call('GET', `/v1/ops/label-batches/${res.json().id}`)).json();
    expect(b.items.map((i: any) => [i.status, i.service_id])).toEqual([
      ['BOUGHT', 'ups_3day'],
      ['BOUGHT', 'ups_3day'],
    ]);
    const none = await call('POST', '/v1/ops/label-batches', { package_ids: [await pkg()], rate_strategy: 'CHEAPEST_WITHIN_DAYS' });
    expect(none.statusCode).toBe(400);
  });
});
