import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { allocatePending } from '../../src/domain/orders/pending.js';

// Races through a real listener with parallel requests, and priority allocation of scarce stock.

let w: World;
let base: string;
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
});
afterAll(() => w?.t.close());

const post = (path: string) => fetch(`${base}${path}`, { method: 'POST', headers: { 'x-access-token': w.token } });

const allocatedTo = async (orderId: string) => {
  const items = await w.t.db.prisma.fulfillmentOrderLineItem.findMany({ where: { fulfillment_order: { order_id: orderId } } });
  return items.reduce((s, i) => s + i.quantity, 0);
};
const unallocated = async (orderId: string) =>
  (await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: orderId } })).unallocated_quantity;
const setOnHand = (productId: string, warehouseId: string, on_hand: number) =>
  w.t.db.prisma.inventoryLevel.upsert({
    where: { product_id_warehouse_id: { product_id: productId, warehouse_id: warehouseId } },
    create: { product_id: productId, warehouse_id: warehouseId, on_hand },
    update: { on_hand },
  });

describe('races', () => {
  it('converts a draft once under parallel requests: one 200, the rest 409, stock committed once', async () => {
    const p = await w.product('RACE-1', { [w.east]: 10 });
    const d = await w.draft({ line_items: [line('RACE-1', 3)], payment_status: 'PAID' });
    const responses = await Promise.all(Array.from({ length: 5 }, () => post(`/v1/ops/draft-orders/${d.id}/convert`)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    const ok = await responses.find((r) => r.status === 200)!.json();
    for (const r of responses.filter((x) => x.status === 409)) {
      expect(r.headers.get('content-type')).toMatch(/problem\+json/);
      expect((await r.json()).type).toBe('urn:fos:error:conflict');
    }
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 10, committed: 3 });
    expect(
      await w.t.db.prisma.order.count({ where: { line_items: { some: { core_draft_order_line_item_id: d.line_items[0].id } } } }),
    ).toBe(1);
    expect(await w.t.db.prisma.fulfillmentOrder.count({ where: { order_id: ok.id } })).toBe(1);
    expect(await w.t.db.prisma.outboxEvent.count({ where: { kind: 'order.created' } })).toBe(1);
  });

  it('never overcommits when drafts compete for the last units', async () => {
    const p = await w.product('RACE-2', { [w.east]: 3, [w.west]: 2 });
    const n = 8;
    const drafts = await Promise.all(Array.from({ length: n }, () => w.draft({ line_items: [line('RACE-2', 2)], payment_status: 'PAID' })));
    const responses = await Promise.all(drafts.map((d) => post(`/v1/ops/draft-orders/${d.id}/convert`)));
    const orders = await Promise.all(responses.map((r) => r.json()));
    expect(
      responses.map((r) => r.status),
      JSON.stringify(orders.find((o) => !o.id)),
    ).toEqual(Array(n).fill(200));
    expect(new Set(orders.map((o) => o.order_number)).size).toBe(n); // numbers unique under concurrency too

    const east = await w.level(p, w.east);
    const west = await w.level(p, w.west);
    expect(east!.committed + west!.committed).toBe(5);
    expect(east!.committed).toBeLessThanOrEqual(3);
    expect(west!.committed).toBeLessThanOrEqual(2);
    let allocated = 0;
    let waiting = 0;
    for (const o of orders) {
      const a = await allocatedTo(o.id);
      const u = await unallocated(o.id);
      expect(a + u).toBe(2);
      allocated += a;
      waiting += u;
    }
    expect(allocated).toBe(5);
    expect(waiting).toBe(2 * n - 5);
  });
});

describe('priority allocation', () => {
  it('gives scarce stock to a CRITICAL order before older NORMAL and LOW ones', async () => {
    const p = await w.product('SCARCE-1');
    const normal = await w.order({ line_items: [line('SCARCE-1', 2)], payment_status: 'PAID' });
    const low = await w.order({ line_items: [line('SCARCE-1', 2)], payment_status: 'PAID', priority: 'LOW' });
    expect(await unallocated(normal.id)).toBe(2);
    await setOnHand(p, w.east, 2);
    const critical = await w.order({ line_items: [line('SCARCE-1', 2)], payment_status: 'PAID', priority: 'CRITICAL' });
    expect(await allocatedTo(critical.id)).toBe(2);
    expect(await allocatedTo(normal.id)).toBe(0);
    expect(await allocatedTo(low.id)).toBe(0);
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 2, committed: 2 });

    // More stock: the waiting NORMAL order comes before the LOW one.
    await setOnHand(p, w.east, 4);
    expect(await allocatePending(w.t.db, w.t.teamId)).toEqual({ orders: 1, units: 2 });
    expect(await allocatedTo(normal.id)).toBe(2);
    expect(await allocatedTo(low.id)).toBe(0);
    expect(await allocatePending(w.t.db, w.t.teamId)).toEqual({ orders: 0, units: 0 });
  });

  it('keeps stock for waiting orders ahead of a newly converted lower-priority one', async () => {
    const p = await w.product('SCARCE-2');
    const high = await w.order({ line_items: [line('SCARCE-2', 2)], payment_status: 'PAID', priority: 'HIGH' });
    await setOnHand(p, w.west, 2);
    const low = await w.order({ line_items: [line('SCARCE-2', 2)], payment_status: 'PAID', priority: 'LOW' });
    expect(await allocatedTo(high.id)).toBe(2);
    expect(await allocatedTo(low.id)).toBe(0);
    expect(await unallocated(low.id)).toBe(2);
  });

  it('re-allocates after a priority change: the raised order overtakes an older one', async () => {
    const p = await w.product('SCARCE-3');
    const older = await w.order({ line_items: [line('SCARCE-3', 3)], payment_status: 'PAID' });
    const newer = await w.order({ line_items: [line('SCARCE-3', 3)], payment_status: 'PAID' });
    await setOnHand(p, w.east, 3);
    const res = await w.call('PATCH', `/v1/ops/orders/${newer.id}/priority`, { priority: 'CRITICAL' });
    expect(res.statusCode).toBe(200);
    expect(await allocatedTo(newer.id)).toBe(3);
    expect(await allocatedTo(older.id)).toBe(0);
    expect(await unallocated(newer.id)).toBe(0);
    const fos = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: newer.id }, include: { line_items: true } });
    expect(
      fos.map((f) => [f.warehouse_id, f.status, f.request_status, f.line_items[0].quantity, f.line_items[0].remaining_quantity]),
    ).toEqual([[w.east, 'PENDING', 'UNSUBMITTED', 3, 3]]);
    expect(await w.level(p, w.east)).toMatchObject({ committed: 3 });
  });
});
