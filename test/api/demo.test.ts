import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { DEMO_MERCHANT, DEMO_RATE_CARD, loadDemo } from '../../src/server/demo/demo.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

const counts = async () => {
  const p = t.db.prisma;
  const [teams, warehouses, products, levels, shops, drafts, orders, fos, rates, holds] = await Promise.all([
    p.team.count(),
    p.warehouse.count(),
    p.product.count(),
    p.inventoryLevel.count(),
    p.shop.count(),
    p.draftOrder.count(),
    p.order.count(),
    p.fulfillmentOrder.count(),
    p.carrierRate.count(),
    p.orderFulfillmentHold.count(),
  ]);
  return { teams, warehouses, products, levels, shops, drafts, orders, fos, rates, holds };
};

describe('demo data', () => {
  it('loads once into the bootstrapped fulfiller team; loading again changes nothing', async () => {
    const first = await loadDemo(t.db);
    expect(first.loaded).toBe(true);
    const after = await counts();
    expect(after).toMatchObject({ teams: 2, warehouses: 2, products: 8, shops: 1, drafts: 5, orders: 5, rates: 2, holds: 1 });
    expect(after.fos).toBeGreaterThanOrEqual(5);
    expect(await loadDemo(t.db)).toEqual({ loaded: false });
    expect(await counts()).toEqual(after);

    const merchant = await t.db.prisma.team.findFirstOrThrow({ where: { name: DEMO_MERCHANT } });
    expect(merchant).toMatchObject({ kind: 'MERCHANT', measurement_system: 'METRIC' });
    const delegation = await t.db.prisma.fulfillmentDelegation.findFirstOrThrow({ where: { merchant_team_id: merchant.id } });
    expect(delegation).toMatchObject({ fulfiller_team_id: t.teamId, rate_card: DEMO_RATE_CARD }); // issue 25: the demo bills
  });

  it('brings its opening stock in by purchase orders, so the ledger explains every unit', async () => {
    const pos = (await t.call('GET', '/v1/ops/purchase-orders', { token })).json().data;
    expect(pos.map((p: any) => [p.reference, p.status]).sort()).toEqual([
      ['OPENING-CMH', 'RECEIVED'],
      ['OPENING-PDX', 'RECEIVED'],
    ]);
    const levels = await t.db.prisma.inventoryLevel.findMany();
    const sums = await t.db.prisma.inventoryMovement.groupBy({ by: ['product_id', 'warehouse_id', 'bucket'], _sum: { delta: true } });
    for (const l of levels) {
      for (const b of ['on_hand', 'committed', 'unavailable', 'on_order'] as const) {
        const sum = sums.find((s) => s.product_id === l.product_id && s.warehouse_id === l.warehouse_id && s.bucket === b)?._sum.delta ?? 0;
        expect(sum, `${b} of ${l.product_id}@${l.warehouse_id}`).toBe(l[b]);
      }
    }
    expect(levels.reduce((n, l) => n + l.on_hand, 0)).toBeGreaterThan(100);
  });

  it('leaves orders listable and ready for the fulfillment workflow', async () => {
    const res = await t.call('GET', '/v1/ops/orders/list', { token, query: { limit: 100 } });
    expect(res.statusCode).toBe(200);
    const orders = res.json().data as any[];
    expect(orders).toHaveLength(5);
    expect(new Set(orders.map((o) => o.priority))).toEqual(new Set(['LOW', 'NORMAL', 'HIGH', 'CRITICAL']));
    expect(orders.filter((o) => o.payment_status === 'PENDING')).toHaveLength(1);
    expect(orders.every((o) => o.merchant_team_name === DEMO_MERCHANT && o.shop_type === 'MANUAL' && o.address_verified)).toBe(true);

    const fos = await t.db.prisma.fulfillmentOrder.findMany({ include: { line_items: true } });
    expect(fos.every((fo) => fo.status === 'ACCEPTED' && fo.request_status === 'ACCEPTED')).toBe(true);
    expect(fos.flatMap((fo) => fo.line_items).every((li) => li.remaining_quantity === li.quantity && li.quantity > 0)).toBe(true);
    const unallocated = await t.db.prisma.order.aggregate({ _sum: { unallocated_quantity: true } });
    expect(unallocated._sum.unallocated_quantity).toBe(0);
    // One order ships from both warehouses.
    const split = await t.db.prisma.order.findMany({ include: { fulfillment_orders: true } });
    expect(split.some((o) => o.fulfillment_orders.length === 2)).toBe(true);

    // Committed stock equals what the fulfillment orders hold.
    const committed = await t.db.prisma.inventoryLevel.aggregate({ _sum: { committed: true } });
    const held = fos.flatMap((fo) => fo.line_items).reduce((s, li) => s + li.quantity, 0);
    expect(committed._sum.committed).toBe(held);

    const held_order = orders.find((o) => o.payment_status === 'PENDING');
    const one = await t.call('GET', `/v1/ops/orders/${held_order.id}`, { token });
    expect(one.json().order_fulfillment_holds).toMatchObject([{ active: true, reason: 'AWAITING_PAYMENT' }]);
  });
});
