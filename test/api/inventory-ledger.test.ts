import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { fulfillOrder, httpCall, ledgerBalanced } from './inventory.fixtures.js';

// The inventory ledger: every change to a level writes movements in the same transaction, so
// for every level and bucket the sum of its movements equals the level — also when converts and
// fulfills race on the same levels through a real listener.

let w: World;
let base: string;
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown) => httpCall(base, w.token, method, path, body);
const expectLedgerBalanced = (ids: string[]) => ledgerBalanced(w.t.db, ids);
const fulfillAll = (orderId: string) => fulfillOrder(w.t.db, http, orderId);

describe('inventory ledger', () => {
  it('writes RECEIVED, COMMITTED and FULFILLED movements with the changes they explain', async () => {
    const p = await w.product('LEDGER-1', { [w.east]: 7 });
    const order = await w.order({ line_items: [line('LEDGER-1', 3)], payment_status: 'PAID' });
    let moves = await w.t.db.prisma.inventoryMovement.findMany({ where: { product_id: p }, orderBy: { id: 'asc' } });
    expect(moves.map((m) => [m.kind, m.bucket, m.delta])).toEqual([
      ['RECEIVED', 'on_hand', 7],
      ['COMMITTED', 'committed', 3],
    ]);
    expect(moves[1]).toMatchObject({ sku: 'LEDGER-1', warehouse_id: w.east, reference_type: 'order', reference_id: order.id });
    expect(await fulfillAll(order.id)).toEqual([200]);
    moves = await w.t.db.prisma.inventoryMovement.findMany({ where: { product_id: p, kind: 'FULFILLED' } });
    expect(moves.map((m) => [m.bucket, m.delta]).sort()).toEqual([
      ['committed', -3],
      ['on_hand', -3],
    ]);
    expect(moves[0].reference_type).toBe('package');
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 4, committed: 0 });
    await expectLedgerBalanced([p]);
  });

  it('stays balanced and never negative when converts and fulfills race on the same levels', async () => {
    const p = await w.product('LEDGER-RACE', { [w.east]: 9, [w.west]: 6 });
    const n = 10;
    const drafts = await Promise.all(
      Array.from({ length: n }, () => w.draft({ line_items: [line('LEDGER-RACE', 2)], payment_status: 'PAID' })),
    );
    // Converts race with each other and with fulfills of the orders converted first.
    const converted: string[] = [];
    const fulfills: Promise<number[]>[] = [];
    await Promise.all(
      drafts.map(async (d) => {
        const r = await http('POST', `/v1/ops/draft-orders/${d.id}/convert`);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        converted.push(r.body.id);
        fulfills.push(fulfillAll(r.body.id));
      }),
    );
    const statuses = (await Promise.all(fulfills)).flat();
    expect(
      statuses.every((s) => s === 200),
      JSON.stringify(statuses),
    ).toBe(true);
    const levels = await expectLedgerBalanced([p]);
    // 15 units for 10 orders of 2 (splits allowed): all 15 commit and ship, nothing overshipped.
    expect(await shipped(p)).toBe(15);
    expect(levels.reduce((s, l) => s + l.on_hand, 0)).toBe(0);
    expect(levels.reduce((s, l) => s + l.committed, 0)).toBe(0);
  });
});

async function shipped(productId: string) {
  const rows = await w.t.db.prisma.inventoryMovement.aggregate({
    where: { product_id: productId, kind: 'FULFILLED', bucket: 'on_hand' },
    _sum: { delta: true },
  });
  return -(rows._sum.delta ?? 0);
}
