import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';

// Priority changes racing over a real listener: the change is a compare-and-set on the priority
// read, so each order.priority_changed event describes a transition that really happened.

let w: World;
let base: string;
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
});
afterAll(() => w?.t.close());

const patch = (orderId: string, priority: string) =>
  fetch(`${base}/v1/ops/orders/${orderId}/priority`, {
    method: 'PATCH',
    headers: { 'x-access-token': w.token, 'content-type': 'application/json' },
    body: JSON.stringify({ priority }),
  });

const events = async (orderId: string) =>
  (await w.t.db.prisma.outboxEvent.findMany({ where: { kind: 'order.priority_changed' } }))
    .map((e) => e.payload as { order_id: string; previous_priority: string; priority: string })
    .filter((p) => p.order_id === orderId);

describe('priority change races', () => {
  it('the same change sent 10 times in parallel is made once: one event', async () => {
    await w.product('PRIO-1', { [w.east]: 5 });
    const order = await w.order({ line_items: [line('PRIO-1', 1)], payment_status: 'PAID' });
    const responses = await Promise.all(Array.from({ length: 10 }, () => patch(order.id, 'HIGH')));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ priority: 'HIGH' });
    expect(await events(order.id)).toEqual([
      { order_id: order.id, order_number: order.order_number, previous_priority: 'NORMAL', priority: 'HIGH' },
    ]);
  });

  it('competing changes produce a consistent chain of events from NORMAL to the final priority', async () => {
    await w.product('PRIO-2', { [w.east]: 5 });
    const order = await w.order({ line_items: [line('PRIO-2', 1)], payment_status: 'PAID' });
    const wanted = ['HIGH', 'LOW', 'CRITICAL', 'HIGH', 'LOW', 'CRITICAL', 'HIGH', 'LOW', 'CRITICAL', 'LOW'];
    const responses = await Promise.all(wanted.map((p) => patch(order.id, p)));
    expect(responses.map((r) => r.status)).toEqual(Array(wanted.length).fill(200));
    const final = (await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).priority;
    const chain = await events(order.id);
    // A chain NORMAL -> … -> final leaves each priority as often as it enters it, except the ends.
    for (const p of ['LOW', 'NORMAL', 'HIGH', 'CRITICAL']) {
      const left = chain.filter((e) => e.previous_priority === p).length;
      const entered = chain.filter((e) => e.priority === p).length;
      expect(left - entered, `${p} in ${JSON.stringify(chain)}`).toBe((p === 'NORMAL' ? 1 : 0) - (p === final ? 1 : 0));
    }
    expect(chain.every((e) => e.previous_priority !== e.priority)).toBe(true);
  });
});
