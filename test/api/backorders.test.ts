import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { fulfillOrder, httpCall, ledgerBalanced, otherFulfiller } from './inventory.fixtures.js';

// Backorders fill themselves (issue 25 item 5): stock that becomes available at a warehouse by
// any path (adjustment, purchase-order receipt, count, transfer in, return restock, cancel
// release) goes, in the same transaction, to the waiting orders: CRITICAL, HIGH, NORMAL, LOW,
// then the oldest; a partial fill makes a partial fulfillment order. GET /v1/ops/backorders lists
// what still waits in that order. (Two receipts racing on two processes:
// test/api/cancel-race-processes.test.ts, test/pg/cancel-replicas.test.ts.)

let w: World;
let base: string;
let other: { token: string };
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  other = await otherFulfiller(w.t);
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown, token = w.token) => httpCall(base, token, method, path, body);
const PRIORITY_ORDER = ['NORMAL', 'LOW', 'CRITICAL', 'HIGH'] as const; // creation order: the CRITICAL one is not the oldest

/** Four paid orders of 2 units each that wait for stock, created NORMAL, LOW, CRITICAL, HIGH. */
async function waiting(sku: string) {
  const ids: Record<string, string> = {};
  for (const priority of PRIORITY_ORDER) {
    const o = await w.order({ line_items: [line(sku, 2)], payment_status: 'PAID', priority });
    expect(o.core_order_line_items[0]).toMatchObject({ total_quantity: 2 });
    ids[priority] = o.id;
  }
  return ids;
}

const allocated = async (orderId: string) =>
  (
    await w.t.db.prisma.fulfillmentOrderLineItem.aggregate({
      where: { fulfillment_order: { order_id: orderId } },
      _sum: { quantity: true },
    })
  )._sum.quantity ?? 0;

/** After 3 units arrived: CRITICAL has 2 in a fulfillment order, HIGH 1 (partial), the rest still wait. */
async function servedByPriority(sku: string, productId: string, ids: Record<string, string>) {
  expect(await allocated(ids.CRITICAL)).toBe(2);
  expect(await allocated(ids.HIGH)).toBe(1);
  expect(await allocated(ids.NORMAL)).toBe(0);
  expect(await allocated(ids.LOW)).toBe(0);
  const list = await http('GET', `/v1/ops/backorders?sku=${sku}`);
  expect(list.status).toBe(200);
  expect(list.body.data.map((b: { order_id: string; quantity: number; priority: string }) => [b.priority, b.quantity, b.order_id])).toEqual(
    [
      ['HIGH', 1, ids.HIGH],
      ['NORMAL', 2, ids.NORMAL],
      ['LOW', 2, ids.LOW],
    ],
  );
  const high = (await http('GET', `/v1/ops/orders/${ids.HIGH}`)).body;
  expect(high.status).toBe('OPEN');
  await ledgerBalanced(w.t.db, [productId]);
  const events = await w.t.db.prisma.outboxEvent.findMany({ where: { kind: 'order.backorder_allocated' } });
  expect(events.filter((e) => (e.payload as { order_id: string }).order_id === ids.CRITICAL)).toHaveLength(1);
}

describe('backorders fill themselves when stock becomes available', () => {
  it('lists what waits in serving order: CRITICAL, HIGH, NORMAL, LOW, then oldest', async () => {
    await w.product('BO-LIST', { [w.east]: 0 });
    const ids = await waiting('BO-LIST');
    const list = await http('GET', '/v1/ops/backorders?sku=BO-LIST');
    expect(list.status).toBe(200);
    expect(list.body.data.map((b: { priority: string }) => b.priority)).toEqual(['CRITICAL', 'HIGH', 'NORMAL', 'LOW']);
    expect(list.body.data[0]).toMatchObject({
      order_id: ids.CRITICAL,
      sku: 'BO-LIST',
      quantity: 2,
      since: expect.any(String),
      order_number: expect.any(String),
    });
    const critical = await http('GET', '/v1/ops/backorders?sku=BO-LIST&priority=CRITICAL,LOW&limit=1');
    expect(critical.body.data.map((b: { priority: string }) => b.priority)).toEqual(['CRITICAL']);
    expect(critical.body.meta.has_next_page).toBe(true);
    expect((await http('GET', '/v1/ops/backorders?priority=URGENT')).status).toBe(400);
    expect((await http('GET', '/v1/ops/backorders?bogus=1')).status).toBe(400);
    expect((await http('GET', '/v1/ops/backorders?sku=BO-LIST', undefined, other.token)).body.data).toEqual([]);
  });

  it('by adjustment', async () => {
    const p = await w.product('BO-ADJ', { [w.east]: 0 });
    const ids = await waiting('BO-ADJ');
    const res = await http('POST', '/v1/ops/inventory/adjustments', {
      warehouse_id: w.east,
      reason: 'FOUND',
      lines: [{ sku: 'BO-ADJ', delta: 3 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await servedByPriority('BO-ADJ', p, ids);
  });

  it('by purchase-order receipt', async () => {
    const p = await w.product('BO-PO', { [w.east]: 0 });
    const po = await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku: 'BO-PO', quantity: 10 }] });
    expect(po.status).toBe(201);
    const ids = await waiting('BO-PO');
    const res = await http('POST', `/v1/ops/purchase-orders/${po.body.id}/receive`, { lines: [{ sku: 'BO-PO', quantity: 3 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await servedByPriority('BO-PO', p, ids);
  });

  it('by cycle count', async () => {
    const p = await w.product('BO-CNT', { [w.east]: 0 });
    const ids = await waiting('BO-CNT');
    const res = await http('POST', '/v1/ops/inventory/adjustments', {
      warehouse_id: w.east,
      reason: 'CYCLE_COUNT',
      lines: [{ sku: 'BO-CNT', counted: 3 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await servedByPriority('BO-CNT', p, ids);
  });

  it('by transfer in', async () => {
    const p = await w.product('BO-TR', { [w.west]: 3 });
    const tr = await http('POST', '/v1/ops/inventory/transfers', {
      from_warehouse_id: w.west,
      to_warehouse_id: w.east,
      lines: [{ sku: 'BO-TR', quantity: 3 }],
    });
    expect(tr.status, JSON.stringify(tr.body)).toBe(201);
    const ids = await waiting('BO-TR');
    const res = await http('POST', `/v1/ops/inventory/transfers/${tr.body.id}/receive`, { lines: [{ sku: 'BO-TR', quantity: 3 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await servedByPriority('BO-TR', p, ids);
    const fo = await w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: ids.CRITICAL } });
    expect(fo.warehouse_id).toBe(w.east);
  });

  it('by return restock', async () => {
    const p = await w.product('BO-RET', { [w.east]: 3 });
    const shipped = await w.order({ line_items: [line('BO-RET', 3)], payment_status: 'PAID' });
    expect(await fulfillOrder(w.t.db, http, shipped.id)).toEqual([200]);
    const ids = await waiting('BO-RET');
    const ret = await http('POST', '/v1/ops/returns', { order_id: shipped.id, lines: [{ sku: 'BO-RET', quantity: 3 }] });
    expect(ret.status, JSON.stringify(ret.body)).toBe(201);
    const res = await http('POST', `/v1/ops/returns/${ret.body.id}/receive`, { lines: [{ sku: 'BO-RET', quantity: 3 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await servedByPriority('BO-RET', p, ids);
  });

  it('by cancel release', async () => {
    const p = await w.product('BO-CAN', { [w.east]: 3 });
    const holder = await w.order({ line_items: [line('BO-CAN', 3)], payment_status: 'PAID' });
    const ids = await waiting('BO-CAN');
    const res = await http('POST', `/v1/ops/orders/${holder.id}/cancel`, { reason: 'CUSTOMER' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await servedByPriority('BO-CAN', p, ids);
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 3, committed: 3 });
  });

  it("appends to the order's PENDING fulfillment order of the warehouse as more arrives", async () => {
    const p = await w.product('BO-MORE', { [w.east]: 0 });
    const ids = await waiting('BO-MORE');
    for (const delta of [1, 1]) {
      expect(
        (await http('POST', '/v1/ops/inventory/adjustments', { warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'BO-MORE', delta }] }))
          .status,
      ).toBe(201);
    }
    const fos = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: ids.CRITICAL }, include: { line_items: true } });
    expect(fos).toHaveLength(1);
    expect(fos[0].line_items[0]).toMatchObject({ quantity: 2, remaining_quantity: 2 });
    expect((await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: ids.CRITICAL } })).unallocated_quantity).toBe(0);
    await ledgerBalanced(w.t.db, [p]);
  });
});
