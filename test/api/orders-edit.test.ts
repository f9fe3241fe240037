import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS, line, world, type World } from './orders.fixtures.js';
import { httpCall, otherFulfiller } from './inventory.fixtures.js';

// PATCH /v1/ops/orders/{id} (issue 25 item 3, without line items): shipping address (re-verified,
// lock_address honoured), shipping method, note, tags; refused while a fulfillment order is locked
// (naming the holder) and for closed orders.

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
const MOVED = { ...ADDRESS, address1: '400 New Street', city: 'Salem', zip: '97301' };

describe('PATCH /v1/ops/orders/{id}', () => {
  it('changes address (re-verified), shipping method, note and tags; emits order.updated', async () => {
    await w.product('ED-1', { [w.east]: 5 });
    const order = await w.order({ line_items: [line('ED-1', 1)], payment_status: 'PAID' });
    const res = await http('PATCH', `/v1/ops/orders/${order.id}`, {
      shipping_address: MOVED,
      shipping_method: 'Express',
      note: 'leave at door',
      tags: ['vip'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      shipping_address_address1: '400 New Street',
      shipping_address_city: 'Salem',
      shipping_method: 'Express',
      note: 'leave at door',
      tags: ['vip'],
      address_verified: true,
    });
    expect(res.body.address_hash).not.toBe(order.address_hash);
    const bad = await http('PATCH', `/v1/ops/orders/${order.id}`, { shipping_address: { ...MOVED, country: 'USA' } });
    expect(bad.status).toBe(400);
    const events = await w.t.db.prisma.outboxEvent.findMany({ where: { kind: 'order.updated' } });
    expect(events.map((e) => e.payload)).toContainEqual(
      expect.objectContaining({ order_id: order.id, changed: ['shipping_address', 'shipping_method', 'note', 'tags'] }),
    );
  });

  it('honours lock_address, refuses while a fulfillment order is locked, closed orders, bad bodies and other teams', async () => {
    await w.product('ED-2', { [w.east]: 5 });
    const order = await w.order({ line_items: [line('ED-2', 1)], payment_status: 'PAID' });
    expect((await http('PATCH', `/v1/ops/orders/${order.id}`, { lock_address: true })).body.lock_address).toBe(true);
    const locked = await http('PATCH', `/v1/ops/orders/${order.id}`, { shipping_address: MOVED });
    expect(locked.status).toBe(409);
    expect(locked.body.detail).toContain('lock_address');
    expect((await http('PATCH', `/v1/ops/orders/${order.id}`, { shipping_address: MOVED, lock_address: false })).status).toBe(200);

    const fo = await w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: order.id } });
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'carla', timeout_minutes: 5 })).status).toBe(200);
    const held = await http('PATCH', `/v1/ops/orders/${order.id}`, { note: 'x' });
    expect(held.status).toBe(409);
    expect(held.body).toMatchObject({ type: 'urn:fos:error:lock-held', lock_owner: 'carla' });
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/release`, { lock_owner: 'carla' })).status).toBe(200);

    expect((await http('PATCH', `/v1/ops/orders/${order.id}`, {})).status).toBe(400);
    expect((await http('PATCH', `/v1/ops/orders/${order.id}`, { status: 'CLOSED' })).status).toBe(400);
    expect((await http('PATCH', `/v1/ops/orders/${order.id}`, { note: 'x' }, other.token)).status).toBe(404);
    expect((await http('POST', `/v1/ops/orders/${order.id}/cancel`, { reason: 'CUSTOMER' })).status).toBe(200);
    const closed = await http('PATCH', `/v1/ops/orders/${order.id}`, { note: 'x' });
    expect(closed.status).toBe(409);
    expect(closed.body.detail).toMatch(/is CANCELLED; only open orders can be edited/);
  });
});
