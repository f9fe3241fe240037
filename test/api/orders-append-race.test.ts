import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { allocatePending } from '../../src/domain/orders/pending.js';

// Later allocations add units to the order's PENDING fulfillment order. That order may be
// accepted between the allocator's read and its write: the append must then not change what was
// accepted. On PostgreSQL a second connection holds the line items, so the accept lands exactly
// in that window; on SQLite transactions run one at a time and the sequence is simply replayed.

let w: World;
beforeAll(async () => {
  w = await world();
});
afterAll(() => w?.t.close());

describe('appending to a PENDING fulfillment order', () => {
  it('an accept racing the append sees all of the units it accepts', async () => {
    const p = await w.product('APPEND-1', { [w.east]: 1 });
    const order = await w.order({ line_items: [line('APPEND-1', 2)], payment_status: 'PAID' });
    const fo = await w.t.db.prisma.fulfillmentOrder.findFirstOrThrow({ where: { order_id: order.id }, include: { line_items: true } });
    expect(fo.line_items.map((l) => l.quantity)).toEqual([1]);
    await w.t.db.prisma.inventoryLevel.update({
      where: { product_id_warehouse_id: { product_id: p, warehouse_id: w.east } },
      data: { on_hand: 2 },
    });

    const blocker = w.t.db.provider === 'postgresql' ? new pg.Client({ connectionString: w.t.db.url }) : null;
    if (blocker) {
      await blocker.connect();
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM "fulfillment_order_line_items" WHERE "fulfillment_order_id" = $1 FOR UPDATE', [fo.id]);
    }
    const allocation = allocatePending(w.t.db, w.t.teamId);
    if (blocker) {
      // Wait until the allocator, having read the order PENDING, waits for the line items.
      for (let i = 0; i < 100; i++) {
        const { rows } = await blocker.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
        );
        if (rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const accept = w.call('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`);
    if (blocker) {
      await new Promise((r) => setTimeout(r, 300));
      await blocker.query('COMMIT');
      await blocker.end();
    }
    const [summary, accepted] = await Promise.all([allocation, accept]);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(summary).toEqual({ orders: 1, units: 1 });

    const fos = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id }, include: { line_items: true } });
    const acceptedNow = fos.find((f) => f.id === fo.id)!;
    expect(acceptedNow.status).toBe('ACCEPTED');
    // What the accept returned is what the accepted fulfillment order holds; every unit is in some order.
    expect(acceptedNow.line_items.reduce((s, l) => s + l.quantity, 0)).toBe(accepted.json().total_quantity);
    expect(fos.flatMap((f) => f.line_items).reduce((s, l) => s + l.quantity, 0)).toBe(2);
    expect((await w.t.db.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).unallocated_quantity).toBe(0);
  });
});
