// Cancel vs fulfill of one fulfillment order, and two receipts filling one backorder, across
// several `fos serve` processes on one database (PostgreSQL: test/pg/cancel-replicas.test.ts,
// SQLite: test/api/cancel-race-processes.test.ts). Exact quantities afterwards.

import { expect } from 'vitest';
import { fixtureMerchant, fixtureWarehouse, SHIP_TO } from './fixtures.js';
import { ledgerBalanced } from '../api/inventory.fixtures.js';
import type { Replicas, ReplicaWorld } from './replicas.js';

const LABEL = { label_url: 'https://l.example/x.pdf', carrier: 'UPS', service: 'Ground', cost: 5, cost_currency: 'USD' };

export function cancelRaceScenarios(get: () => { w: ReplicaWorld; r: Replicas }) {
  const send = async (i: number, method: string, p: string, body?: unknown) => get().r.send(i, method, p, body, get().w.token);
  const db = () => get().w.db.prisma;
  let n = 0;

  /** A stocked product of the replica world's merchant, received through the API (ledger). */
  async function product(onHand: number) {
    const { w } = get();
    const merchant = await fixtureMerchant(w.fx);
    const warehouseId = await fixtureWarehouse(w.fx);
    const sku = `CR-${Date.now()}-${++n}`;
    const p = await db().product.create({
      data: {
        team_id: merchant,
        merchant_team_id: merchant,
        fulfiller_team_id: w.teamId,
        name: sku,
        sku,
        measurement_unit: 'MM',
        weight_unit: 'G',
        weight: 100,
      },
    });
    if (onHand) {
      const adj = await send(0, 'POST', '/ops/inventory/adjustments', {
        warehouse_id: warehouseId,
        reason: 'FOUND',
        lines: [{ sku, delta: onHand }],
      });
      expect(adj.status, JSON.stringify(adj.body)).toBe(201);
    }
    return { id: p.id, sku, warehouseId };
  }

  async function order(sku: string, quantity: number, priority = 'NORMAL') {
    const d = await send(0, 'POST', '/ops/draft-orders', {
      shipping_address: SHIP_TO,
      payment_status: 'PAID',
      priority,
      line_items: [{ sku, quantity, price: 5 }],
    });
    expect(d.status, JSON.stringify(d.body)).toBe(201);
    const o = await send(1, 'POST', `/ops/draft-orders/${d.body.id}/convert`);
    expect(o.status, JSON.stringify(o.body)).toBe(200);
    return o.body.id as string;
  }

  return {
    async cancelVsFulfill(rounds: number) {
      for (let round = 0; round < rounds; round++) {
        const p = await product(5);
        const orderId = await order(p.sku, 3);
        const fo = await db().fulfillmentOrder.findFirstOrThrow({ where: { order_id: orderId } });
        expect((await send(0, 'POST', `/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
        expect((await send(0, 'POST', `/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'packer', timeout_minutes: 5 })).status).toBe(
          200,
        );
        const pkg = await send(0, 'POST', '/ops/packages', {
          fulfillment_order_id: fo.id,
          package_line_items: [{ sku: p.sku, quantity: 3 }],
        });
        expect(pkg.status, JSON.stringify(pkg.body)).toBe(201);
        expect(
          (await send(1, 'POST', `/ops/packages/${pkg.body.id}/label`, { ...LABEL, tracking_number: `C${pkg.body.id.slice(-10)}` })).status,
        ).toBe(200);
        // Alternate which replica cancels, and whether the whole order or the fulfillment order is cancelled.
        const cancelPath = round % 2 ? `/ops/orders/${orderId}/cancel` : `/ops/fulfillment-orders/${fo.id}/cancel`;
        const [cancel, fulfill] = await Promise.all([
          send(round, 'POST', cancelPath, { reason: 'CUSTOMER' }),
          send(round + 1, 'POST', `/ops/packages/${pkg.body.id}/fulfill`, { locked_by: 'packer' }),
        ]);
        expect([cancel.status, fulfill.status].sort(), JSON.stringify([cancel.body, fulfill.body])).toEqual([200, 409]);
        const [level] = await ledgerBalanced(get().w.db, [p.id]);
        expect(level).toMatchObject(cancel.status === 200 ? { on_hand: 5, committed: 0 } : { on_hand: 2, committed: 0 });
        expect((await db().fulfillmentOrder.findUniqueOrThrow({ where: { id: fo.id } })).status).toBe(
          cancel.status === 200 ? 'CANCELLED' : 'FULFILLED',
        );
        expect(await db().fulfillment.count({ where: { package_id: pkg.body.id } })).toBe(cancel.status === 200 ? 0 : 1);
      }
    },

    /** Two receipts (adjustments) on two replicas at once fill waiting orders: no unit committed twice. */
    async twoReceiptsFillOneBackorder() {
      const p = await product(0);
      const critical = await order(p.sku, 3, 'CRITICAL');
      const low = await order(p.sku, 3, 'LOW');
      const results = await Promise.all(
        [0, 1].map((i) =>
          send(i, 'POST', '/ops/inventory/adjustments', {
            warehouse_id: p.warehouseId,
            reason: 'FOUND',
            lines: [{ sku: p.sku, delta: 2 }],
          }),
        ),
      );
      expect(results.map((x) => x.status)).toEqual([201, 201]);
      const [level] = await ledgerBalanced(get().w.db, [p.id]);
      expect(level).toMatchObject({ on_hand: 4, committed: 4 });
      const lines = await db().orderLineItem.findMany({ where: { order_id: { in: [critical, low] }, kind: 'CORE' } });
      const waiting = Object.fromEntries(lines.map((l) => [l.order_id, l.unallocated_quantity]));
      expect(waiting).toEqual({ [critical]: 0, [low]: 2 });
      const foUnits = await db().fulfillmentOrderLineItem.aggregate({
        where: { fulfillment_order: { order_id: { in: [critical, low] } } },
        _sum: { quantity: true },
      });
      expect(foUnits._sum.quantity).toBe(4);
      const orders = await db().order.findMany({ where: { id: { in: [critical, low] } } });
      expect(Object.fromEntries(orders.map((o) => [o.id, o.unallocated_quantity]))).toEqual({ [critical]: 0, [low]: 2 });
    },
  };
}
