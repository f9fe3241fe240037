// Issue 36 item 1: pairs of writes that lock rows of several tables, raced across two replicas
// many times. Each pair takes its locks in the one global order (docs/fulfillment.md
// "Race-freedom"), so the test around it asserts that not one deadlock had to be retried, and
// each round checks what must hold whoever went first.

import { expect } from 'vitest';
import { LABEL, raceKit, why } from './pack-races.js';
import type { Replicas, ReplicaWorld } from './replicas.js';

export function lockOrderScenarios(get: () => { w: ReplicaWorld; r: Replicas }) {
  const { send, db, product, draft, acceptedFo, invariants } = raceKit(get);

  return {
    /**
     * A fulfill vs a purchase-order receipt that fills the same order's backorder. Each round an
     * order of 2 units with 1 in stock (1 allocated, 1 waiting): its package of 1 is fulfilled
     * while 1 unit is received. The fulfill decrements the order line and ships from the level;
     * the receipt raises the level and hands the waiting unit of that same order line to a new
     * fulfillment order. Both succeed; the unit shipped once, the waiting one allocated once.
     */
    async fulfillVsBackorderFill(rounds: number) {
      const p = await product(0, false);
      const po = await send(0, 'POST', '/ops/purchase-orders', { warehouse_id: p.east, lines: [{ sku: p.sku, quantity: rounds }] });
      expect(po.status, why(po)).toBe(201);
      for (let round = 0; round < rounds; round++) {
        const found = await send(round, 'POST', '/ops/inventory/adjustments', {
          warehouse_id: p.east,
          reason: 'FOUND',
          lines: [{ sku: p.sku, delta: 1 }],
        });
        expect(found.status, why(found)).toBe(201);
        const order = await send(round + 1, 'POST', `/ops/draft-orders/${await draft(round, [{ sku: p.sku, quantity: 2 }])}/convert`);
        expect(order.status, why(order)).toBe(200);
        const fo = await db().fulfillmentOrder.findFirstOrThrow({ where: { order_id: order.body.id }, include: { line_items: true } });
        expect(fo.line_items[0].quantity).toBe(1);
        expect((await send(round, 'POST', `/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
        const pkg = await send(round, 'POST', '/ops/packages', {
          fulfillment_order_id: fo.id,
          package_line_items: [{ sku: p.sku, quantity: 1 }],
        });
        expect(pkg.status, why(pkg)).toBe(201);
        const label = await send(round + 1, 'POST', `/ops/packages/${pkg.body.id}/label`, {
          ...LABEL,
          tracking_number: `B${pkg.body.id.slice(-12)}`,
        });
        expect(label.status, why(label)).toBe(200);
        const [fulfill, receipt] = await Promise.all([
          send(round, 'POST', `/ops/packages/${pkg.body.id}/fulfill`, {}),
          send(round + 1, 'POST', `/ops/purchase-orders/${po.body.id}/receive`, { lines: [{ sku: p.sku, quantity: 1 }] }),
        ]);
        expect([fulfill.status, receipt.status], why(fulfill, receipt)).toEqual([200, 200]);
        const line = await db().orderLineItem.findFirstOrThrow({ where: { order_id: order.body.id, kind: 'CORE' } });
        expect(line, `round ${round}`).toMatchObject({ remaining_quantity: 1, unallocated_quantity: 0 });
        expect(await db().fulfillment.count({ where: { order_id: order.body.id } })).toBe(1);
        const fos = await db().fulfillmentOrder.findMany({ where: { order_id: order.body.id }, include: { line_items: true } });
        expect(fos.map((f) => [f.status, f.line_items.reduce((s, l) => s + l.remaining_quantity, 0)]).sort()).toEqual([
          ['FULFILLED', 0],
          ['PENDING', 1],
        ]);
        await invariants(p.id);
      }
      // Every round's fulfill shipped one unit and every receipt's unit went to a waiting order.
      const [level] = await db().inventoryLevel.findMany({ where: { product_id: p.id } });
      expect(level).toMatchObject({ on_hand: rounds, committed: rounds });
      return { rounds };
    },

    /**
     * A person's hold on the order vs a package of its fulfillment order. The hold takes the
     * order's row only; the package takes the fulfillment order's row, then its own rows: no row
     * both lock. The hold always stands; the package is made (it went first) or refused 409
     * on-hold (the hold went first), never left half made.
     */
    async holdVsPack(rounds: number) {
      const p = await product(rounds * 2, false);
      const t = { tries: 0, packedFirst: 0, heldFirst: 0 };
      for (let round = 0; round < rounds; round++) {
        const fo = await acceptedFo(round, [{ sku: p.sku, quantity: 2 }]);
        const [hold, pkg] = await Promise.all([
          send(round, 'POST', `/ops/orders/${fo.order_id}/holds`, { reason: 'MANUAL', reason_notes: `race ${round}` }),
          send(round + 1, 'POST', '/ops/packages', { fulfillment_order_id: fo.id, package_line_items: [{ sku: p.sku, quantity: 2 }] }),
        ]);
        t.tries++;
        expect(hold.status, why(hold, pkg)).toBe(201);
        const packages = await db().package.count({ where: { fulfillment_order_id: fo.id } });
        if (pkg.status === 201) {
          t.packedFirst++;
          expect(packages).toBe(1);
        } else {
          t.heldFirst++;
          expect([pkg.status, pkg.body.type], why(hold, pkg)).toEqual([409, 'urn:fos:error:on-hold']);
          expect(packages).toBe(0);
        }
        expect(await db().orderFulfillmentHold.count({ where: { order_id: fo.order_id, active: true } })).toBe(1);
        await invariants(p.id);
      }
      return t;
    },
  };
}
