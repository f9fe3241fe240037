import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { httpCall, ledgerBalanced } from './inventory.fixtures.js';

// Line items in PATCH /v1/ops/orders/{id} (issue 25 item 3): add lines, set quantities, remove
// lines not yet packed; stock re-committed and fulfillment orders updated in one transaction with
// exact ledger movements; refused under a lock (naming the holder) and for packed/shipped units.

let w: World;
let base: string;
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown) => httpCall(base, w.token, method, path, body);
const cores = (orderId: string) =>
  w.t.db.prisma.orderLineItem.findMany({ where: { order_id: orderId, kind: 'CORE' }, orderBy: [{ created_at: 'asc' }, { id: 'asc' }] });
const fos = (orderId: string) =>
  w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: orderId }, include: { line_items: true }, orderBy: { created_at: 'asc' } });
const edit = (orderId: string, body: Record<string, unknown>) => http('PATCH', `/v1/ops/orders/${orderId}`, body);

describe('PATCH /v1/ops/orders/{id} line items', () => {
  it('adds a line (committed, the rest backordered), raises and lowers quantities; ledger exact', async () => {
    const a = await w.product('EL-A', { [w.east]: 10 });
    const b = await w.product('EL-B', { [w.east]: 3 });
    const order = await w.order({ line_items: [line('EL-A', 2)], payment_status: 'PAID' });
    const [la] = await cores(order.id);

    const res = await edit(order.id, {
      add_line_items: [{ sku: 'EL-B', quantity: 5, price: 4 }],
      update_line_items: [{ order_line_item_id: la.id, quantity: 4 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ core_line_item_count: 9, unique_core_line_item_count: 2, total_price: 60 });
    expect(await w.level(a, w.east)).toMatchObject({ committed: 4 });
    expect(await w.level(b, w.east)).toMatchObject({ committed: 3 });
    const [fo] = await fos(order.id);
    expect(fo.line_items.map((l) => [l.sku, l.quantity, l.remaining_quantity]).sort()).toEqual([
      ['EL-A', 4, 4],
      ['EL-B', 3, 3],
    ]);
    const lb = (await cores(order.id)).find((l) => l.sku === 'EL-B')!;
    expect(lb).toMatchObject({ total_quantity: 5, remaining_quantity: 5, unallocated_quantity: 2 });
    const backorders = await http('GET', '/v1/ops/backorders?sku=EL-B');
    expect(backorders.body.data).toEqual([expect.objectContaining({ order_id: order.id, quantity: 2 })]);

    // Lowering takes the waiting units first (no stock involved), then committed ones (RELEASED).
    const lower = await edit(order.id, { update_line_items: [{ order_line_item_id: lb.id, quantity: 2 }] });
    expect(lower.status, JSON.stringify(lower.body)).toBe(200);
    expect(await cores(order.id)).toContainEqual(
      expect.objectContaining({ id: lb.id, remaining_quantity: 2, removed_quantity: 3, unallocated_quantity: 0 }),
    );
    expect(await w.level(b, w.east)).toMatchObject({ committed: 2 });
    const released = await w.t.db.prisma.inventoryMovement.findMany({ where: { product_id: b, kind: 'RELEASED', reason: 'ORDER_EDITED' } });
    expect(released.map((m) => m.delta)).toEqual([-1]);
    await ledgerBalanced(w.t.db, [a, b]);
    const events = await w.t.db.prisma.outboxEvent.findMany({ where: { kind: 'order.updated' } });
    expect(events.map((e) => e.payload)).toContainEqual(
      expect.objectContaining({ order_id: order.id, changed: ['line_items'], units_added: 7, units_removed: 0 }),
    );
  });

  it('removes lines: an emptied fulfillment order is cancelled; waiting demand takes the released stock', async () => {
    const p = await w.product('EL-C', { [w.east]: 2 });
    const q = await w.product('EL-D', { [w.west]: 5 });
    const order = await w.order({ line_items: [line('EL-C', 2), line('EL-D', 1)], payment_status: 'PAID' });
    const waiting = await w.order({ line_items: [line('EL-C', 1)], payment_status: 'PAID', priority: 'HIGH' });
    expect(await fos(waiting.id)).toHaveLength(0);
    const [lc] = await cores(order.id);
    const east = (await fos(order.id)).find((f) => f.warehouse_id === w.east)!;
    expect((await http('POST', `/v1/ops/fulfillment-orders/${east.id}/accept`)).status).toBe(200);

    const res = await edit(order.id, { remove_line_items: [lc.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await fos(order.id);
    expect(after.find((f) => f.id === east.id)).toMatchObject({ status: 'CANCELLED' });
    expect(after.find((f) => f.warehouse_id === w.west)).toMatchObject({ status: 'PENDING' });
    // The released units went to the waiting order at once (the ledger's backorder fill).
    expect(await fos(waiting.id)).toEqual([expect.objectContaining({ warehouse_id: w.east, status: 'PENDING' })]);
    expect(await w.level(p, w.east)).toMatchObject({ committed: 1 });
    await ledgerBalanced(w.t.db, [p, q]);

    const lastLine = (await cores(order.id)).find((l) => l.sku === 'EL-D')!;
    const empty = await edit(order.id, { remove_line_items: [lastLine.id] });
    expect(empty.status).toBe(409);
    expect(empty.body.detail).toMatch(/no units left: cancel it instead/);
    expect((await edit(order.id, { remove_line_items: ['nope'] })).status).toBe(400);
    expect((await edit(order.id, { add_line_items: [{ sku: 'NO-SUCH', quantity: 1 }] })).body.detail).toMatch(/add_line_items\.0\.sku/);
    expect((await edit(order.id, { update_line_items: [{ order_line_item_id: lastLine.id, quantity: -1 }] })).status).toBe(400);
  });

  it('refuses to remove packed or shipped units (409) and to edit under a lock (naming the holder)', async () => {
    const p = await w.product('EL-E', { [w.east]: 10 });
    const order = await w.order({ line_items: [line('EL-E', 4), line('EL-A', 1)], payment_status: 'PAID' });
    const [le] = await cores(order.id);
    const [fo] = await fos(order.id);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'dana', timeout_minutes: 5 })).status).toBe(200);
    const locked = await edit(order.id, { update_line_items: [{ order_line_item_id: le.id, quantity: 1 }] });
    expect(locked.status).toBe(409);
    expect(locked.body).toMatchObject({ type: 'urn:fos:error:lock-held', lock_owner: 'dana' });
    const pkg = await http('POST', '/v1/ops/packages', {
      fulfillment_order_id: fo.id,
      weight: 100,
      weight_unit: 'G',
      package_line_items: [{ sku: 'EL-E', quantity: 3 }],
    });
    expect(pkg.status, JSON.stringify(pkg.body)).toBe(201);
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/release`, { lock_owner: 'dana' })).status).toBe(200);

    const packed = await edit(order.id, { remove_line_items: [le.id] });
    expect(packed.status).toBe(409);
    expect(packed.body).toMatchObject({ minimum_quantity: 3 });
    expect(packed.body.detail).toMatch(/3 of its 4 units are packed or shipped/);
    const ok = await edit(order.id, { update_line_items: [{ order_line_item_id: le.id, quantity: 3 }] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await w.level(p, w.east)).toMatchObject({ committed: 3 });
    await ledgerBalanced(w.t.db, [p]);
  });

  it('an edit racing a lock, a pack and a fulfill of the same fulfillment order: exactly one wins, ledger exact', async () => {
    const p = await w.product('EL-R', { [w.east]: 200 });
    const s = await w.product('EL-S', { [w.east]: 200 });
    const tally = { editFirst: 0, packFirst: 0 };
    for (let round = 0; round < 4; round++) {
      const order = await w.order({ line_items: [line('EL-R', 4), line('EL-S', 1)], payment_status: 'PAID' });
      const [lr] = await cores(order.id);
      const [fo] = await fos(order.id);
      expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
      // 1. edit vs lock: the edit first (then the lock), or the lock first and the edit refused naming it.
      const [e1, lock] = await Promise.all([
        edit(order.id, { update_line_items: [{ order_line_item_id: lr.id, quantity: 2 }] }),
        http('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'eve', timeout_minutes: 5 }),
      ]);
      expect(lock.status).toBe(200);
      if (e1.status !== 200) expect(e1.body).toMatchObject({ status: 409, type: 'urn:fos:error:lock-held', lock_owner: 'eve' });
      let left = e1.status === 200 ? 2 : 4;
      expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/release`, { lock_owner: 'eve' })).status).toBe(200);
      // 2. removing the line vs packing one of its units: exactly one wins.
      const [e2, pkg] = await Promise.all([
        edit(order.id, { remove_line_items: [lr.id] }),
        http('POST', '/v1/ops/packages', {
          fulfillment_order_id: fo.id,
          weight: 100,
          weight_unit: 'G',
          package_line_items: [{ sku: 'EL-R', quantity: 1 }],
        }),
      ]);
      expect([e2.status, pkg.status].sort(), JSON.stringify([e2.body, pkg.body])).toEqual(
        e2.status === 200 ? [200, expect.any(Number)] : [201, 409],
      );
      if (e2.status === 200) {
        expect(pkg.status).toBeGreaterThanOrEqual(400);
        tally.editFirst++;
        left = 0;
      } else {
        expect(e2.body).toMatchObject({ minimum_quantity: 1 });
        tally.packFirst++;
        // 3. an edit vs the fulfill of the packed unit (which needs the lock).
        expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'eve', timeout_minutes: 5 })).status).toBe(
          200,
        );
        const label = await http('POST', `/v1/ops/packages/${pkg.body.id}/label`, {
          label_url: 'https://labels.example/l.pdf',
          tracking_number: `TRK${pkg.body.id.slice(-10)}`,
          carrier: 'USPS',
          service: 'Priority',
          cost: 7.1,
          cost_currency: 'USD',
        });
        expect(label.status).toBe(200);
        const [e3, fulfill] = await Promise.all([
          edit(order.id, { update_line_items: [{ order_line_item_id: lr.id, quantity: 1 }] }),
          http('POST', `/v1/ops/packages/${pkg.body.id}/fulfill`, { locked_by: 'eve' }),
        ]);
        expect(fulfill.status, JSON.stringify(fulfill.body)).toBe(200);
        // The fulfill releases the lock: an edit after it may lower the line to the unit it shipped;
        // an edit before it is refused naming the holder.
        if (e3.status === 200) left = 1;
        else expect(e3.body).toMatchObject({ status: 409, type: 'urn:fos:error:lock-held', lock_owner: 'eve' });
      }
      const row = (await cores(order.id)).find((l) => l.id === lr.id)!;
      expect(row.total_quantity - row.removed_quantity).toBe(left);
      await ledgerBalanced(w.t.db, [p, s]);
      for (const product of [p, s]) {
        const level = await w.level(product, w.east);
        const open = await w.t.db.prisma.fulfillmentOrderLineItem.aggregate({
          where: { product_id: product, fulfillment_order: { status: { in: ['PENDING', 'ACCEPTED', 'IN_PROGRESS'] } } },
          _sum: { remaining_quantity: true },
        });
        expect(level!.committed).toBe(open._sum.remaining_quantity ?? 0); // every committed unit on exactly one open line
      }
    }
    expect(tally.editFirst + tally.packFirst).toBe(4);
  });
});
