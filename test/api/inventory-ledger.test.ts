import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';

// The inventory ledger: every change to a level writes movements in the same transaction, so
// for every level and bucket the sum of its movements equals the level — also when converts and
// fulfils race on the same levels through a real listener.

let w: World;
let base: string;
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
});
afterAll(() => w?.t.close());

const http = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method, headers: { 'x-access-token': w.token, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() as any };
};

/** Every level of the products against the sums of its movements, bucket by bucket. */
async function expectLedgerBalanced(productIds: string[]) {
  const db = w.t.db.prisma;
  const levels = await db.inventoryLevel.findMany({ where: { product_id: { in: productIds } } });
  const sums = await db.inventoryMovement.groupBy({ by: ['product_id', 'warehouse_id', 'bucket'], where: { product_id: { in: productIds } }, _sum: { delta: true } });
  const sum = (l: { product_id: string; warehouse_id: string }, bucket: string) =>
    sums.find((s) => s.product_id === l.product_id && s.warehouse_id === l.warehouse_id && s.bucket === bucket)?._sum.delta ?? 0;
  expect(levels.length).toBeGreaterThan(0);
  for (const l of levels) {
    for (const b of ['on_hand', 'committed', 'unavailable', 'on_order'] as const) {
      expect(sum(l, b), `${b} of ${l.product_id}@${l.warehouse_id}`).toBe(l[b]);
      expect(l[b]).toBeGreaterThanOrEqual(0);
    }
  }
  return levels;
}

async function fulfilAll(orderId: string) {
  const fos = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: orderId }, include: { line_items: true } });
  const done: number[] = [];
  for (const fo of fos) {
    const accepted = await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'p', timeout_minutes: 5 })).status).toBe(200);
    const pkg = await http('POST', '/v1/ops/packages', {
      fulfillment_order_id: fo.id, weight: 500, weight_unit: 'G',
      package_line_items: fo.line_items.map((l) => ({ sku: l.sku, quantity: l.quantity })),
    });
    expect(pkg.status, JSON.stringify(pkg.body)).toBe(201);
    const label = await http('POST', `/v1/ops/packages/${pkg.body.id}/label`, {
      label_url: 'https://labels.example/l.pdf', tracking_number: `TRK${pkg.body.id.slice(-10)}`, carrier: 'USPS', service: 'Priority', cost: 7.1, cost_currency: 'USD',
    });
    expect(label.status, JSON.stringify(label.body)).toBe(200);
    done.push((await http('POST', `/v1/ops/packages/${pkg.body.id}/fulfill`, { locked_by: 'p' })).status);
  }
  return done;
}

describe('inventory ledger', () => {
  it('writes RECEIVED, COMMITTED and FULFILLED movements with the changes they explain', async () => {
    const p = await w.product('LEDGER-1', { [w.east]: 7 });
    const order = await w.order({ line_items: [line('LEDGER-1', 3)], payment_status: 'PAID' });
    let moves = await w.t.db.prisma.inventoryMovement.findMany({ where: { product_id: p }, orderBy: { id: 'asc' } });
    expect(moves.map((m) => [m.kind, m.bucket, m.delta])).toEqual([['RECEIVED', 'on_hand', 7], ['COMMITTED', 'committed', 3]]);
    expect(moves[1]).toMatchObject({ sku: 'LEDGER-1', warehouse_id: w.east, reference_type: 'order', reference_id: order.id });
    expect(await fulfilAll(order.id)).toEqual([200]);
    moves = await w.t.db.prisma.inventoryMovement.findMany({ where: { product_id: p, kind: 'FULFILLED' } });
    expect(moves.map((m) => [m.bucket, m.delta]).sort()).toEqual([['committed', -3], ['on_hand', -3]]);
    expect(moves[0].reference_type).toBe('package');
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 4, committed: 0 });
    await expectLedgerBalanced([p]);
  });

  it('stays balanced and never negative when converts and fulfils race on the same levels', async () => {
    const p = await w.product('LEDGER-RACE', { [w.east]: 9, [w.west]: 6 });
    const n = 10;
    const drafts = await Promise.all(Array.from({ length: n }, () => w.draft({ line_items: [line('LEDGER-RACE', 2)], payment_status: 'PAID' })));
    // Converts race with each other and with fulfils of the orders converted first.
    const converted: string[] = [];
    const fulfils: Promise<number[]>[] = [];
    await Promise.all(drafts.map(async (d) => {
      const r = await http('POST', `/v1/ops/draft-orders/${d.id}/convert`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      converted.push(r.body.id);
      fulfils.push(fulfilAll(r.body.id));
    }));
    const statuses = (await Promise.all(fulfils)).flat();
    expect(statuses.every((s) => s === 200), JSON.stringify(statuses)).toBe(true);
    const levels = await expectLedgerBalanced([p]);
    // 15 units for 10 orders of 2 (splits allowed): all 15 commit and ship, nothing overshipped.
    expect(await shipped(p)).toBe(15);
    expect(levels.reduce((s, l) => s + l.on_hand, 0)).toBe(0);
    expect(levels.reduce((s, l) => s + l.committed, 0)).toBe(0);
  });
});

async function shipped(productId: string) {
  const rows = await w.t.db.prisma.inventoryMovement.aggregate({ where: { product_id: productId, kind: 'FULFILLED', bucket: 'on_hand' }, _sum: { delta: true } });
  return -(rows._sum.delta ?? 0);
}
