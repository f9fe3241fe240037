import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { httpCall, ledgerBalanced, otherFulfiller } from './inventory.fixtures.js';

// Cancel (issue 25 item 1): an order or one fulfillment order; what is not shipped is cancelled,
// committed stock released through the ledger, unshipped labels voided, open packages closed,
// statuses and remaining quantities right, events in the outbox. Shipped units stay shipped.
// A cancel racing a fulfill of the same fulfillment order: exactly one wins (here in one process,
// really in parallel through a listener; across processes in test/api/cancel-race-processes.test.ts
// and test/pg/cancel-replicas.test.ts).

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
const LABEL = { label_url: 'https://labels.example/l.pdf', carrier: 'USPS', service: 'Priority', cost: 7.1, cost_currency: 'USD' };

const fosOf = (orderId: string) =>
  w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: orderId }, include: { line_items: true }, orderBy: { created_at: 'asc' } });
const events = (kind: string, key: string, id: string) =>
  w.t.db.prisma.outboxEvent
    .findMany({ where: { kind } })
    .then((rows) => rows.filter((r) => (r.payload as Record<string, unknown>)[key] === id));

/** Accept, lock as `owner`, pack `qty` of the first line and upload a label; the package id. */
async function labelled(foId: string, qty: number, owner = 'packer') {
  const fo = await w.t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: foId }, include: { line_items: true } });
  expect((await http('POST', `/v1/ops/fulfillment-orders/${foId}/accept`)).status).toBe(200);
  expect((await http('POST', `/v1/ops/fulfillment-orders/${foId}/lock`, { lock_owner: owner, timeout_minutes: 5 })).status).toBe(200);
  const pkg = await http('POST', '/v1/ops/packages', {
    fulfillment_order_id: foId,
    weight: 300,
    weight_unit: 'G',
    package_line_items: [{ sku: fo.line_items[0].sku, quantity: qty }],
  });
  expect(pkg.status, JSON.stringify(pkg.body)).toBe(201);
  const l = await http('POST', `/v1/ops/packages/${pkg.body.id}/label`, { ...LABEL, tracking_number: `TRK${pkg.body.id.slice(-10)}` });
  expect(l.status, JSON.stringify(l.body)).toBe(200);
  return pkg.body.id as string;
}

describe('POST /v1/ops/orders/{id}/cancel', () => {
  it('cancels open and waiting units, releases committed stock, voids the label, closes the package, emits order.cancelled', async () => {
    const p = await w.product('CAN-1', { [w.east]: 3 });
    const order = await w.order({ line_items: [line('CAN-1', 5)], payment_status: 'PAID' });
    const [fo] = await fosOf(order.id);
    expect(fo.line_items[0].quantity).toBe(3);
    const pkg = await labelled(fo.id, 2);

    const res = await http('POST', `/v1/ops/orders/${order.id}/cancel`, { reason: 'CUSTOMER' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'CANCELLED', cancel_reason: 'CUSTOMER', fulfillment_status: 'UNFULFILLED' });
    expect(res.body.cancelled_at).toEqual(expect.any(String));
    expect(res.body.core_order_line_items[0]).toMatchObject({ total_quantity: 5, remaining_quantity: 0, removed_quantity: 5 });
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 3, committed: 0 });
    await ledgerBalanced(w.t.db, [p]);
    const released = await w.t.db.prisma.inventoryMovement.findMany({ where: { product_id: p, kind: 'RELEASED' } });
    expect(released).toEqual([expect.objectContaining({ bucket: 'committed', delta: -3, reason: 'CANCELLED', reference_id: fo.id })]);

    const [after] = await fosOf(order.id);
    expect(after).toMatchObject({ status: 'CANCELLED', lock_owner: null });
    expect(after.line_items[0]).toMatchObject({ quantity: 0, remaining_quantity: 0 });
    const closed = await w.t.db.prisma.package.findUniqueOrThrow({ where: { id: pkg }, include: { shipping_label: true } });
    expect(closed.status).toBe('CANCELLED');
    expect(closed.shipping_label?.voided_at).not.toBeNull();
    expect(await events('package.label_voided', 'package_id', pkg)).toHaveLength(1);
    const [ev] = await events('order.cancelled', 'order_id', order.id);
    expect(ev.payload).toMatchObject({
      reason: 'CUSTOMER',
      restock: true,
      cancelled_quantity: 5,
      cancelled_fulfillment_order_ids: [fo.id],
      closed_package_ids: [pkg],
    });

    // The packer's fulfill of the closed package is refused; a second cancel is a 409.
    const fulfill = await http('POST', `/v1/ops/packages/${pkg}/fulfill`, { locked_by: 'packer' });
    expect(fulfill.status).toBe(409);
    const again = await http('POST', `/v1/ops/orders/${order.id}/cancel`, { reason: 'CUSTOMER' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/is CANCELLED: there is nothing left to cancel/);
  });

  it('keeps shipped units shipped: after a partial fulfill only the rest is cancelled; restock false sets it aside', async () => {
    const p = await w.product('CAN-2', { [w.east]: 10 });
    const order = await w.order({ line_items: [line('CAN-2', 4)], payment_status: 'PAID' });
    const [fo] = await fosOf(order.id);
    const pkg = await labelled(fo.id, 1);
    expect((await http('POST', `/v1/ops/packages/${pkg}/fulfill`, { locked_by: 'packer' })).status).toBe(200);

    const res = await http('POST', `/v1/ops/orders/${order.id}/cancel`, { reason: 'INVENTORY', restock: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'CANCELLED', fulfillment_status: 'PARTIALLY_FULFILLED', fulfillment_count: 1 });
    expect(res.body.core_order_line_items[0]).toMatchObject({ total_quantity: 4, remaining_quantity: 0, removed_quantity: 3 });
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 9, committed: 0, unavailable: 3 });
    await ledgerBalanced(w.t.db, [p]);
    const [after] = await fosOf(order.id);
    expect(after.line_items[0]).toMatchObject({ quantity: 1, remaining_quantity: 0 });
    expect((await w.t.db.prisma.package.findUniqueOrThrow({ where: { id: pkg } })).status).toBe('FULFILLED');
  });

  it("refuses a fully shipped order, bad bodies, and other teams' orders", async () => {
    await w.product('CAN-3', { [w.east]: 2 });
    const order = await w.order({ line_items: [line('CAN-3', 1)], payment_status: 'PAID' });
    const [fo] = await fosOf(order.id);
    const pkg = await labelled(fo.id, 1);
    expect((await http('POST', `/v1/ops/packages/${pkg}/fulfill`, { locked_by: 'packer' })).status).toBe(200);
    const shipped = await http('POST', `/v1/ops/orders/${order.id}/cancel`, { reason: 'CUSTOMER' });
    expect(shipped.status).toBe(409);
    expect(shipped.body.detail).toMatch(/is CLOSED: there is nothing left to cancel \(shipped units are undone by a return\)/);
    expect((await http('POST', `/v1/ops/orders/${order.id}/cancel`, { reason: 'BORED' })).status).toBe(400);
    expect((await http('POST', `/v1/ops/orders/${order.id}/cancel`, {})).status).toBe(400);
    expect((await http('POST', `/v1/ops/orders/${order.id}/cancel`, { reason: 'CUSTOMER', extra: 1 })).status).toBe(400);
    const open = await w.order({ line_items: [line('CAN-3', 1)], payment_status: 'PAID' });
    expect((await http('POST', `/v1/ops/orders/${open.id}/cancel`, { reason: 'CUSTOMER' }, other.token)).status).toBe(404);
    expect((await http('POST', '/v1/ops/orders/00000000-0000-7000-8000-000000000000/cancel', { reason: 'CUSTOMER' })).status).toBe(404);
  });
});

describe('POST /v1/ops/fulfillment-orders/{id}/cancel', () => {
  it('cancels one fulfillment order; the order is cancelled when the last one goes', async () => {
    const p = await w.product('CAN-FO', { [w.east]: 2, [w.west]: 2 });
    const order = await w.order({ line_items: [line('CAN-FO', 4)], payment_status: 'PAID' });
    const fos = await fosOf(order.id);
    expect(fos).toHaveLength(2);
    const first = await http('POST', `/v1/ops/fulfillment-orders/${fos[0].id}/cancel`, { reason: 'STAFF' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ status: 'CANCELLED', total_quantity: 0, remaining_quantity: 0 });
    const mid = (await http('GET', `/v1/ops/orders/${order.id}`)).body;
    expect(mid).toMatchObject({ status: 'OPEN', cancelled_at: null });
    expect(mid.core_order_line_items[0]).toMatchObject({ remaining_quantity: 2, removed_quantity: 2 });
    expect(await events('fulfillment_order.cancelled', 'fulfillment_order_id', fos[0].id)).toHaveLength(1);

    expect((await http('POST', `/v1/ops/fulfillment-orders/${fos[0].id}/cancel`, { reason: 'STAFF' })).status).toBe(409);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fos[1].id}/cancel`, { reason: 'STAFF' })).status).toBe(200);
    const end = (await http('GET', `/v1/ops/orders/${order.id}`)).body;
    expect(end).toMatchObject({ status: 'CANCELLED', cancel_reason: 'STAFF' });
    expect(await w.level(p, w.east)).toMatchObject({ committed: 0 });
    expect(await w.level(p, w.west)).toMatchObject({ committed: 0 });
    await ledgerBalanced(w.t.db, [p]);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fos[1].id}/cancel`, { reason: 'STAFF' }, other.token)).status).toBe(404);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fos[1].id}/cancel`, { reason: 'nope' })).status).toBe(400);
  });

  it('closes the order FULFILLED when the last open fulfillment order goes after another shipped', async () => {
    const p = await w.product('CAN-FO-SHIP', { [w.east]: 2, [w.west]: 2 });
    const order = await w.order({ line_items: [line('CAN-FO-SHIP', 4)], payment_status: 'PAID' });
    const fos = await fosOf(order.id);
    expect(fos).toHaveLength(2);
    const pkg = await labelled(fos[0].id, 2);
    expect((await http('POST', `/v1/ops/packages/${pkg}/fulfill`, { locked_by: 'packer' })).status).toBe(200);
    expect((await http('GET', `/v1/ops/orders/${order.id}`)).body).toMatchObject({ fulfillment_status: 'PARTIALLY_FULFILLED' });
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fos[1].id}/cancel`, { reason: 'STAFF' })).status).toBe(200);
    const end = (await http('GET', `/v1/ops/orders/${order.id}`)).body;
    expect(end).toMatchObject({ status: 'CLOSED', fulfillment_status: 'FULFILLED', cancelled_at: null, fulfillment_count: 1 });
    await ledgerBalanced(w.t.db, [p]);
  });

  it('races a fulfill of the same fulfillment order: exactly one wins, the other is a 409, stock exact', async () => {
    for (let round = 0; round < 4; round++) {
      const sku = `CAN-RACE-${round}`;
      const p = await w.product(sku, { [w.east]: 5 });
      const order = await w.order({ line_items: [line(sku, 3)], payment_status: 'PAID' });
      const [fo] = await fosOf(order.id);
      const pkg = await labelled(fo.id, 3);
      const [cancel, fulfill] = await Promise.all([
        http('POST', `/v1/ops/fulfillment-orders/${fo.id}/cancel`, { reason: 'CUSTOMER' }),
        http('POST', `/v1/ops/packages/${pkg}/fulfill`, { locked_by: 'packer' }),
      ]);
      expect([cancel.status, fulfill.status].sort(), JSON.stringify([cancel.body, fulfill.body])).toEqual([200, 409]);
      const level = await w.level(p, w.east);
      if (cancel.status === 200) expect(level).toMatchObject({ on_hand: 5, committed: 0 });
      else expect(level).toMatchObject({ on_hand: 2, committed: 0 });
      const [after] = await fosOf(order.id);
      expect(after.status).toBe(cancel.status === 200 ? 'CANCELLED' : 'FULFILLED');
      await ledgerBalanced(w.t.db, [p]);
    }
  });
});
