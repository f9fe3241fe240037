import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { fulfillOrder, httpCall, ledgerBalanced } from './inventory.fixtures.js';

// Issue 37 item 7: receipts, counts, transfers and returns take an Idempotency-Key like
// adjustments: a retry after a lost answer gets the first answer (idempotent-replayed: true) and
// moves no unit again; the same key with another body is a 409 (docs/serve.md).

let w: World;
let base: string;
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown) => httpCall(base, w.token, method, path, body);
const keyed = async (path: string, body: unknown, key: string) => {
  const res = await w.t.call('POST', path, { token: w.token, body, headers: { 'idempotency-key': key } });
  return { status: res.statusCode, body: res.json(), replayed: res.headers['idempotent-replayed'] === 'true' };
};

/** The same request twice, then with another body: first answer again, then 409. */
async function onceOnly(path: string, body: Record<string, unknown>, other: Record<string, unknown>, key: string, status: number) {
  const first = await keyed(path, body, key);
  expect(first.status, JSON.stringify(first.body)).toBe(status);
  expect(first.replayed).toBe(false);
  const again = await keyed(path, body, key);
  expect(again).toEqual({ ...first, replayed: true });
  const clash = await keyed(path, other, key);
  expect(clash.status).toBe(409);
  expect(clash.body.errors).toEqual([{ path: 'headers.idempotency-key', message: 'was already used with a different request' }]);
  return first.body;
}

describe('Idempotency-Key on stock writes', () => {
  it('a purchase-order receipt is received once per key; the same key on another order is a 409', async () => {
    const p = await w.product('IK-PO', { [w.east]: 0 });
    const po = (await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku: 'IK-PO', quantity: 10 }] })).body;
    const po2 = (await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku: 'IK-PO', quantity: 10 }] })).body;
    const body = { lines: [{ sku: 'IK-PO', quantity: 4 }] };
    await onceOnly(`/v1/ops/purchase-orders/${po.id}/receive`, body, { lines: [{ sku: 'IK-PO', quantity: 5 }] }, 'po-r-1', 200);
    expect((await keyed(`/v1/ops/purchase-orders/${po2.id}/receive`, body, 'po-r-1')).status).toBe(409);
    const [level] = await ledgerBalanced(w.t.db, [p]);
    expect(level).toMatchObject({ on_hand: 4, on_order: 16 });
  });

  it('a count (adjustment with CYCLE_COUNT) applies once per key', async () => {
    const p = await w.product('IK-CNT', { [w.east]: 7 });
    const body = { warehouse_id: w.east, reason: 'CYCLE_COUNT', lines: [{ sku: 'IK-CNT', counted: 5 }] };
    await onceOnly('/v1/ops/inventory/adjustments', body, { ...body, lines: [{ sku: 'IK-CNT', counted: 6 }] }, 'cnt-1', 201);
    expect((await ledgerBalanced(w.t.db, [p]))[0].on_hand).toBe(5);
  });

  it('a transfer ships and is received once per key', async () => {
    const p = await w.product('IK-TR', { [w.east]: 10 });
    const body = { from_warehouse_id: w.east, to_warehouse_id: w.west, lines: [{ sku: 'IK-TR', quantity: 3 }] };
    const t = await onceOnly('/v1/ops/inventory/transfers', body, { ...body, lines: [{ sku: 'IK-TR', quantity: 2 }] }, 'tr-1', 201);
    const receive = { lines: [{ sku: 'IK-TR', quantity: 2 }] };
    await onceOnly(`/v1/ops/inventory/transfers/${t.id}/receive`, receive, { lines: [{ sku: 'IK-TR', quantity: 1 }] }, 'tr-r-1', 200);
    const levels = await ledgerBalanced(w.t.db, [p]);
    expect(levels.find((l) => l.warehouse_id === w.east)).toMatchObject({ on_hand: 7 });
    expect(levels.find((l) => l.warehouse_id === w.west)).toMatchObject({ on_hand: 2, on_order: 1 });
  });

  it('a return is announced and received once per key', async () => {
    const p = await w.product('IK-RET', { [w.east]: 6 });
    const order = await w.order({ line_items: [line('IK-RET', 3)], payment_status: 'PAID' });
    expect(await fulfillOrder(w.t.db, http, order.id)).toEqual([200]);
    const body = { order_id: order.id, lines: [{ sku: 'IK-RET', quantity: 2 }] };
    const r = await onceOnly('/v1/ops/returns', body, { ...body, lines: [{ sku: 'IK-RET', quantity: 1 }] }, 'ret-1', 201);
    expect(await w.t.db.prisma.return.count({ where: { order_id: order.id } })).toBe(1);
    const receive = { lines: [{ sku: 'IK-RET', quantity: 2 }] };
    await onceOnly(`/v1/ops/returns/${r.id}/receive`, receive, { lines: [{ sku: 'IK-RET', quantity: 1 }] }, 'ret-r-1', 200);
    expect((await ledgerBalanced(w.t.db, [p]))[0].on_hand).toBe(5);
  });
});
