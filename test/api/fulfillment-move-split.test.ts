import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { httpCall, ledgerBalanced, otherFulfiller } from './inventory.fixtures.js';

// Move and split (issue 25 item 4): POST /v1/ops/fulfillment-orders/{id}/move {warehouse_id, lines?}
// re-commits the units at the new warehouse; …/split {lines} makes a second fulfillment order; both
// only while not locked, with no package and nothing fulfilled. A move racing a lock: one wins.

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
const foOf = (orderId: string) =>
  w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: orderId }, include: { line_items: true } });

describe('POST /v1/ops/fulfillment-orders/{id}/move', () => {
  it('moves every line: the fulfillment order itself ships from the new warehouse, stock re-committed', async () => {
    const p = await w.product('MV-1', { [w.east]: 5, [w.west]: 5 });
    const order = await w.order({ line_items: [line('MV-1', 3)], payment_status: 'PAID' });
    const fo = await foOf(order.id);
    expect(fo.warehouse_id).toBe(w.east);
    const res = await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/move`, { warehouse_id: w.west });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.original.id).toBe(fo.id);
    expect(res.body.moved).toMatchObject({ id: fo.id, warehouse_id: w.west, total_quantity: 3 });
    expect(await w.level(p, w.east)).toMatchObject({ committed: 0 });
    expect(await w.level(p, w.west)).toMatchObject({ committed: 3 });
    await ledgerBalanced(w.t.db, [p]);
    const moved = await w.t.db.prisma.inventoryMovement.findMany({ where: { product_id: p, kind: 'RELEASED', reason: 'MOVED' } });
    expect(moved).toHaveLength(1);
  });

  it('moves some units into a new fulfillment order; refuses too little stock, bad lines and other teams', async () => {
    const p = await w.product('MV-2', { [w.east]: 4, [w.west]: 1 });
    const order = await w.order({ line_items: [line('MV-2', 4)], payment_status: 'PAID' });
    const fo = await foOf(order.id);
    const lineId = fo.line_items[0].id;
    const short = await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/move`, {
      warehouse_id: w.west,
      lines: [{ fulfillment_order_line_item_id: lineId, quantity: 2 }],
    });
    expect(short.status).toBe(409);
    const west = await w.t.db.prisma.warehouse.findUniqueOrThrow({ where: { id: w.west } });
    const number = (await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).order_number;
    expect(short.body.detail).toContain(
      `${west.name} (${w.west}) has only 1 of MV-2 (${p}) available; 2 are needed to move fulfillment order ${fo.id} (order ${number}).`,
    );
    expect(
      (
        await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/move`, {
          warehouse_id: w.west,
          lines: [{ fulfillment_order_line_item_id: lineId, quantity: 9 }],
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/move`, {
          warehouse_id: w.west,
          lines: [{ fulfillment_order_line_item_id: 'nope', quantity: 1 }],
        })
      ).status,
    ).toBe(400);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/move`, { warehouse_id: w.east })).status).toBe(409);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/move`, { warehouse_id: 'elsewhere' })).status).toBe(400);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/move`, { warehouse_id: w.west, extra: 1 })).status).toBe(400);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/move`, { warehouse_id: w.west }, other.token)).status).toBe(404);

    const res = await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/move`, {
      warehouse_id: w.west,
      lines: [{ fulfillment_order_line_item_id: lineId, quantity: 1 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.original).toMatchObject({ id: fo.id, warehouse_id: w.east, total_quantity: 3 });
    expect(res.body.moved).toMatchObject({ warehouse_id: w.west, total_quantity: 1, status: 'PENDING' });
    expect(res.body.moved.id).not.toBe(fo.id);
    expect(await w.level(p, w.east)).toMatchObject({ committed: 3 });
    expect(await w.level(p, w.west)).toMatchObject({ committed: 1 });
    await ledgerBalanced(w.t.db, [p]);
  });

  it('refuses locked and packed fulfillment orders (naming the lock holder); races a lock: never moved under a lock', async () => {
    await w.product('MV-3', { [w.east]: 50, [w.west]: 50 });
    const order = await w.order({ line_items: [line('MV-3', 2)], payment_status: 'PAID' });
    const fo = await foOf(order.id);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'ann', timeout_minutes: 5 })).status).toBe(200);
    const locked = await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/move`, { warehouse_id: w.west });
    expect(locked.status).toBe(409);
    expect(locked.body).toMatchObject({ type: 'urn:fos:error:lock-held', lock_owner: 'ann' });
    const pkg = await http('POST', '/v1/ops/packages', {
      fulfillment_order_id: fo.id,
      weight: 100,
      weight_unit: 'G',
      package_line_items: [{ sku: 'MV-3', quantity: 1 }],
    });
    expect(pkg.status).toBe(201);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/release`, { lock_owner: 'ann' })).status).toBe(200);
    const packed = await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/split`, {
      lines: [{ fulfillment_order_line_item_id: fo.line_items[0].id, quantity: 1 }],
    });
    expect(packed.status).toBe(409);
    expect(packed.body.detail).toMatch(/has packages or fulfilled units/);

    for (let round = 0; round < 4; round++) {
      const o = await w.order({ line_items: [line('MV-3', 2)], payment_status: 'PAID' });
      const f = await foOf(o.id);
      expect((await http('POST', `/v1/ops/fulfillment-orders/${f.id}/accept`)).status).toBe(200);
      const target = f.warehouse_id === w.east ? w.west : w.east;
      const [move, lock] = await Promise.all([
        http('POST', `/v1/ops/fulfillment-orders/${f.id}/move`, { warehouse_id: target }),
        http('POST', `/v1/ops/fulfillment-orders/${f.id}/lock`, { lock_owner: 'bob', timeout_minutes: 5 }),
      ]);
      // The two take the same row one after the other: a move first leaves a fulfillment order that
      // is then locked where it now is; a lock first makes the move a 409 naming the holder.
      expect(lock.status, JSON.stringify(lock.body)).toBe(200);
      if (move.status !== 200) expect(move.body).toMatchObject({ status: 409, type: 'urn:fos:error:lock-held', lock_owner: 'bob' });
      const after = await w.t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: f.id } });
      expect(after.warehouse_id).toBe(move.status === 200 ? target : f.warehouse_id);
      expect(after.lock_owner).toBe('bob');
      const committed = await w.t.db.prisma.inventoryLevel.findMany({ where: { product: { sku: 'MV-3' } } });
      expect(committed.reduce((n, l) => n + l.committed, 0)).toBe(2 * (round + 2)); // every order's units committed once
    }
  });
});

describe('POST /v1/ops/fulfillment-orders/{id}/split', () => {
  it('makes a second fulfillment order of the same warehouse; stock stays committed', async () => {
    const p = await w.product('SP-1', { [w.east]: 10 });
    const order = await w.order({ line_items: [line('SP-1', 3)], payment_status: 'PAID' });
    const fo = await foOf(order.id);
    const lineId = fo.line_items[0].id;
    expect(
      (
        await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/split`, {
          lines: [{ fulfillment_order_line_item_id: lineId, quantity: 3 }],
        })
      ).status,
    ).toBe(400);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/split`, { lines: [] })).status).toBe(400);
    const res = await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/split`, {
      lines: [{ fulfillment_order_line_item_id: lineId, quantity: 1 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.original).toMatchObject({ id: fo.id, total_quantity: 2 });
    expect(res.body.split).toMatchObject({ warehouse_id: w.east, total_quantity: 1, status: 'PENDING', order_id: order.id });
    expect(await w.level(p, w.east)).toMatchObject({ committed: 3 });
    const events = await w.t.db.prisma.outboxEvent.findMany({ where: { kind: 'fulfillment_order.split' } });
    expect(events.some((e) => (e.payload as { fulfillment_order_id: string }).fulfillment_order_id === fo.id)).toBe(true);
    // Both can be cancelled separately afterwards; the order is then cancelled.
    expect((await http('POST', `/v1/ops/fulfillment-orders/${res.body.split.id}/cancel`, { reason: 'STAFF' })).status).toBe(200);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/cancel`, { reason: 'STAFF' })).status).toBe(200);
    expect((await http('GET', `/v1/ops/orders/${order.id}`)).body.status).toBe('CANCELLED');
    await ledgerBalanced(w.t.db, [p]);
  });
});
