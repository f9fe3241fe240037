import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { httpCall } from './inventory.fixtures.js';

// Wave rules on POST /v1/ops/picking-sessions (issue 28; docs/floor.md): open ACCEPTED fulfillment
// orders of a warehouse in no session, priority first then oldest, filtered by carrier, shipping
// method or single unit, each into a tote of its own; two waves created at once never share one.

let w: World;
let base: string;
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  await w.product('WAVE-1', { [w.west]: 500 });
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown) => httpCall(base, w.token, method, path, body);

async function fo(opts: { priority?: string; qty?: number; method?: string; accept?: boolean; carrier?: string } = {}) {
  const order = await w.order({
    line_items: [line('WAVE-1', opts.qty ?? 1)],
    payment_status: 'PAID',
    priority: opts.priority ?? 'NORMAL',
    ...(opts.method ? { shipping_method: opts.method } : {}),
  });
  if (opts.carrier)
    await w.t.db.prisma.order.update({ where: { id: order.id }, data: { carrier_selection: { carrier_id: opts.carrier } } });
  const [row] = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id } });
  expect(row.warehouse_id).toBe(w.west);
  if (opts.accept !== false) expect((await http('POST', `/v1/ops/fulfillment-orders/${row.id}/accept`)).status).toBe(200);
  return row.id;
}

const members = async (session: string) =>
  (await w.t.db.prisma.fulfillmentOrder.findMany({ where: { picking_session_id: session }, select: { id: true, tote_id: true } })).map(
    (f) => f.id,
  );

describe('wave rules', () => {
  it('takes priority first, then oldest, up to max_orders, each into a new tote; none left is a 409', async () => {
    const low = await fo({ priority: 'LOW' });
    const normal = await fo();
    const critical = await fo({ priority: 'CRITICAL' });
    const high = await fo({ priority: 'HIGH' });
    await fo({ accept: false }); // PENDING: never in a wave
    const s = await http('POST', '/v1/ops/picking-sessions', { name: 'W1', wave: { warehouse_id: w.west, max_orders: 3 } });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    expect(s.body.fulfillment_order_count).toBe(3);
    const entries = await http('GET', `/v1/ops/v1/picking-sessions/${s.body.id}/fulfillment-orders?order_by=created_at`);
    expect(entries.body.data.map((e: any) => e.fulfillment_order_id).sort()).toEqual([critical, high, normal].sort());
    expect(new Set(entries.body.data.map((e: any) => e.tote_name))).toEqual(new Set(['W1-01', 'W1-02', 'W1-03']));
    const totes = await w.t.db.prisma.fulfillmentOrder.findMany({
      where: { id: { in: [critical, high, normal] } },
      select: { id: true, tote_id: true },
    });
    const names = new Map((await w.t.db.prisma.tote.findMany({ where: { name: { startsWith: 'W1-' } } })).map((t) => [t.id, t.name]));
    expect(Object.fromEntries(totes.map((t) => [t.id, names.get(t.tote_id!)]))).toEqual({
      [critical]: 'W1-01',
      [high]: 'W1-02',
      [normal]: 'W1-03',
    });
    const next = await http('POST', '/v1/ops/picking-sessions', { wave: { warehouse_id: w.west, max_orders: 10 } });
    expect(next.status).toBe(201);
    expect(await members(next.body.id)).toEqual([low]);
    expect(next.body.name).toMatch(/^Wave /);
    const none = await http('POST', '/v1/ops/picking-sessions', { name: 'W-empty', wave: { warehouse_id: w.west, max_orders: 10 } });
    expect(none.status).toBe(409);
    expect(await w.t.db.prisma.pickingSession.count({ where: { name: 'W-empty' } })).toBe(0);
    expect((await http('POST', '/v1/ops/picking-sessions', { wave: { warehouse_id: w.west, max_orders: 0 } })).status).toBe(400);
    expect((await http('POST', '/v1/ops/picking-sessions', { wave: { warehouse_id: w.west, max_orders: 1, x: 1 } })).status).toBe(400);
  });

  it('filters by shipping method, carrier and single-item orders', async () => {
    const express = await fo({ method: 'Express', qty: 2 });
    const ups = await fo({ carrier: 'ups', qty: 2 });
    const single = await fo({ qty: 1 });
    const byMethod = await http('POST', '/v1/ops/picking-sessions', {
      wave: { warehouse_id: w.west, max_orders: 9, shipping_method: 'Express' },
    });
    expect(await members(byMethod.body.id)).toEqual([express]);
    const byCarrier = await http('POST', '/v1/ops/picking-sessions', { wave: { warehouse_id: w.west, max_orders: 9, carrier_id: 'ups' } });
    expect(await members(byCarrier.body.id)).toEqual([ups]);
    const singles = await http('POST', '/v1/ops/picking-sessions', {
      wave: { warehouse_id: w.west, max_orders: 9, single_item_only: true },
    });
    expect(await members(singles.body.id)).toEqual([single]);
  });

  it('explicit fulfillment orders: each must be free (409 otherwise, nothing created)', async () => {
    const a = await fo();
    const s = await http('POST', '/v1/ops/picking-sessions', { name: 'E1', fulfillment_order_ids: [a] });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    const b = await fo();
    const again = await http('POST', '/v1/ops/picking-sessions', { name: 'E2', fulfillment_order_ids: [b, a] });
    expect(again.status).toBe(409);
    expect(await w.t.db.prisma.pickingSession.count({ where: { name: 'E2' } })).toBe(0);
    expect((await w.t.db.prisma.fulfillmentOrder.findUnique({ where: { id: b } }))!.picking_session_id).toBeNull();
  });

  it('two waves created at once never take the same fulfillment order', async () => {
    for (let i = 0; i < 7; i++) await fo();
    // Every free accepted one (the one the previous test left out too): 8.
    const all = (
      await w.t.db.prisma.fulfillmentOrder.findMany({ where: { warehouse_id: w.west, status: 'ACCEPTED', picking_session_id: null } })
    ).map((f) => f.id);
    expect(all).toHaveLength(8);
    const [a, b] = await Promise.all([
      http('POST', '/v1/ops/picking-sessions', { wave: { warehouse_id: w.west, max_orders: 6 } }),
      http('POST', '/v1/ops/picking-sessions', { wave: { warehouse_id: w.west, max_orders: 6 } }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const ma = await members(a.body.id);
    const mb = await members(b.body.id);
    expect(ma.filter((id) => mb.includes(id))).toEqual([]);
    expect([...ma, ...mb].sort()).toEqual([...all].sort());
    expect(ma.length + mb.length).toBe(8);
  });
});
