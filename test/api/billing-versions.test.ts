import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../../src/db/tx.js';
import { billEvents, delegationOf } from '../../src/domain/charges/billing.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { link, publish, shipPackage } from '../helpers/rate-cards.js';

// Versions in force by the event's time (issue 40, docs/billing.md): a version published mid-month
// prices the events after it, re-rating a draft applies the versions in force at each event's
// time, a finalized invoice is never re-priced; a billable event bills once however often it is
// billed; kitting bills by the card.

let now = Date.parse('2026-01-10T12:00:00Z');
let t: TestApp;
let token: string;
let merchant: { teamId: string; delegationId: string };
let cardId: string;

const doc = (semantic_version: string, effective_at: string, adhoc: number, extra: object[] = []) => ({
  rate_card_name: 'Monthly',
  semantic_version,
  effective_at,
  currency: 'USD',
  fees: [
    { id: 'adhoc', event: 'AD_HOC', price: { type: 'PER_UNIT', amount: adhoc } },
    { id: 'pack', event: 'PACK', price: { type: 'FLAT', amount: adhoc / 10 } },
    ...extra,
  ],
});
const adhoc = async (name: string) => {
  const res = await t.call('POST', '/v1/ops/charges/ad-hoc', {
    token,
    body: { merchant_team_id: merchant.teamId, name, note: 'test', quantity: 1 },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};

beforeAll(async () => {
  t = await testApp({ clock: () => now });
  token = (await t.key({ tier: 4 })).token;
  merchant = await t.merchant();
  cardId = (await publish(t, token, doc('1.0.0', '2020-01-01T00:00:00Z', 10))).rate_card_id;
  await link(t, token, merchant.delegationId, cardId);
});
afterAll(() => t?.close());

describe('the version in force at the event', () => {
  let invoiceId: string;
  it('a version published mid-month prices the events after its effective date; those before keep theirs', async () => {
    const before = await adhoc('before');
    await publish(t, token, doc('1.1.0', '2026-01-15T00:00:00Z', 20));
    now = Date.parse('2026-01-14T23:59:59Z');
    const still = await adhoc('still before');
    now = Date.parse('2026-01-20T08:00:00Z');
    const after = await adhoc('after');
    expect([before, still, after].map((c) => [c.calculated_amount, c.pricing_trace.semantic_version])).toEqual([
      [10, '1.0.0'],
      [10, '1.0.0'],
      [20, '1.1.0'],
    ]);
    const inv = await t.call('POST', '/v1/ops/invoices', {
      token,
      body: { merchant_team_id: merchant.teamId, period_start: '2026-01-01', period_end: '2026-01-31' },
    });
    expect(inv.statusCode, inv.body).toBe(201);
    expect(inv.json().subtotal).toBe(40);
    invoiceId = inv.json().id;
  });

  it('re-rating a draft prices each charge by the version in force at its time now (a retroactive version)', async () => {
    await publish(t, token, doc('1.0.1', '2026-01-01T00:00:00Z', 12)); // in force Jan 1-14, published late
    const rerated = await t.call('POST', `/v1/ops/invoices/${invoiceId}/rerate`, { token });
    expect(rerated.statusCode, rerated.body).toBe(200);
    expect(rerated.json().subtotal).toBe(44); // 12 + 12 + 20
    const charges = await t.db.prisma.charge.findMany({ where: { invoice_id: invoiceId }, orderBy: { created_at: 'asc' } });
    expect(charges.map((c) => [c.calculated_amount, (c.pricing_trace as any).semantic_version])).toEqual([
      [12, '1.0.1'],
      [12, '1.0.1'],
      [20, '1.1.0'],
    ]);
  });

  it('a finalized invoice is never re-priced by a new version', async () => {
    now = Date.parse('2026-02-01T00:00:01Z'); // January has ended: its invoice can be finalized
    expect((await t.call('POST', `/v1/ops/invoices/${invoiceId}/finalize`, { token })).statusCode).toBe(200);
    await publish(t, token, doc('1.0.2', '2026-01-02T00:00:00Z', 99));
    const res = await t.call('POST', `/v1/ops/invoices/${invoiceId}/rerate`, { token });
    expect(res.statusCode).toBe(409);
    const inv = await t.call('GET', `/v1/ops/invoices/${invoiceId}`, { token });
    expect(inv.json()).toMatchObject({ status: 'FINALIZED', subtotal: 44 });
    const sum = await t.db.prisma.charge.aggregate({ where: { invoice_id: invoiceId }, _sum: { calculated_amount: true } });
    expect(sum._sum.calculated_amount).toBe(44);
  });

  it('the fulfill finds the version in force at its own time (a version effective right after one shipment)', async () => {
    const a = await shipPackage(t, token, { merchantTeamId: merchant.teamId, lines: [{ quantity: 1 }] });
    expect(a.byCategory.PACK.created_at.getTime()).toBe(now); // the app's clock, not the machine's
    await publish(t, token, doc('3.0.0', new Date(now + 1).toISOString(), 50));
    now += 1000;
    const b = await shipPackage(t, token, { merchantTeamId: merchant.teamId, lines: [{ quantity: 1 }] });
    expect((a.byCategory.PACK.pricing_trace as any).semantic_version).not.toBe('3.0.0');
    expect(b.byCategory.PACK).toMatchObject({ calculated_amount: 5 });
    expect((b.byCategory.PACK.pricing_trace as any).semantic_version).toBe('3.0.0');
  });
});

describe('each billable event is billed once', () => {
  it('the same event billed again, or twice at once, makes one charge', async () => {
    const bill = () =>
      transaction(t.db, async (tx) => {
        const d = await delegationOf(tx, merchant.teamId, t.teamId);
        const event = { event: 'AD_HOC' as const, merchant_team_id: merchant.teamId, quantity: 2 };
        return billEvents(tx, d, [{ key: 'AD_HOC:test:retry-1', event, name: 'retried' }], new Date(now));
      });
    const [x, y] = await Promise.all([bill(), bill()]);
    const z = await bill();
    expect([x.length, y.length, z.length].sort()).toEqual([0, 0, 1]);
    expect(await t.db.prisma.charge.count({ where: { billing_key: 'AD_HOC:test:retry-1' } })).toBe(1);
  });

  it('a batch with a key billed already writes and returns only the new charges', async () => {
    // The insert's count of rows written falls short: the ones written are told by their ids.
    const bill = (keys: string[]) =>
      transaction(t.db, async (tx) => {
        const d = await delegationOf(tx, merchant.teamId, t.teamId);
        const event = { event: 'AD_HOC' as const, merchant_team_id: merchant.teamId, quantity: 1 };
        return billEvents(
          tx,
          d,
          keys.map((key) => ({ key, event, name: key })),
          new Date(now),
        );
      });
    const keys = ['AD_HOC:test:batch-1', 'AD_HOC:test:batch-2', 'AD_HOC:test:batch-3'];
    expect((await bill([keys[1]])).map((c) => c.billing_key)).toEqual([keys[1]]);
    const second = await bill(keys);
    expect(second.map((c) => c.billing_key)).toEqual([keys[0], keys[2]]);
    const stored = await t.db.prisma.charge.findMany({ where: { billing_key: { in: keys } }, orderBy: { billing_key: 'asc' } });
    expect(stored.map((c) => c.billing_key)).toEqual(keys);
    expect(stored.filter((c) => c.billing_key !== keys[1]).map((c) => c.id)).toEqual(second.map((c) => c.id));
    expect(await bill(keys)).toEqual([]);
  });
});

describe('kitting', () => {
  it('a work order bills the KITTING fee of the card to the product merchant, once per work order', async () => {
    // The work order bills at the app's time: a version in force from just before it.
    now += 1000;
    await publish(
      t,
      token,
      doc('4.0.0', new Date(now - 1).toISOString(), 10, [{ id: 'kit', event: 'KITTING', price: { type: 'PER_UNIT', amount: 0.8 } }]),
    );
    const warehouse = await t.db.prisma.warehouse.create({ data: { team_id: t.teamId, name: 'Kitting DC' } });
    const part = await t.db.prisma.product.create({
      data: {
        team_id: merchant.teamId,
        merchant_team_id: merchant.teamId,
        name: 'Part',
        sku: 'KIT-PART',
        measurement_unit: 'MM',
        weight_unit: 'G',
      },
    });
    const po = await t.call('POST', '/v1/ops/purchase-orders', {
      token,
      body: { warehouse_id: warehouse.id, merchant_team_id: merchant.teamId, lines: [{ sku: 'KIT-PART', quantity: 10 }] },
    });
    expect(
      (
        await t.call('POST', `/v1/ops/purchase-orders/${po.json().id}/receive`, {
          token,
          body: { lines: [{ sku: 'KIT-PART', quantity: 10 }] },
        })
      ).statusCode,
    ).toBe(200);
    const kit = await t.call('POST', '/v1/ops/products', {
      token,
      body: {
        merchant_team_id: merchant.teamId,
        name: 'Gift set',
        sku: 'KIT-SET',
        type: 'ASSEMBLY',
        measurement_unit: 'MM',
        weight_unit: 'G',
        assembly_components: [{ component_product_id: part.id, component_quantity: 2 }],
      },
    });
    expect(kit.statusCode, kit.body).toBe(201);
    const wo = await t.call('POST', '/v1/ops/work-orders', {
      token,
      body: { product_id: kit.json().id, quantity: 3, warehouse_id: warehouse.id },
    });
    expect(wo.statusCode, wo.body).toBe(201);
    const charges = await t.db.prisma.charge.findMany({ where: { work_order_id: wo.json().id } });
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ category: 'KITTING', calculated_amount: 2.4, quantity: 3, merchant_team_id: merchant.teamId });
  });
});
