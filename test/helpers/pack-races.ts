// Issue 36 item 2: compare-and-sets that depend on another table's rows, raced across two
// `fos serve` processes on one database (PostgreSQL: test/pg/pack-replicas.test.ts). Each round
// sends the two requests to different processes at once and then checks what must hold whoever
// won: a package ships from its fulfillment order's warehouse, no unit is in two open packages
// (nor in more than its line has left), every level equals its movements and its committed units
// are exactly those of open fulfillment orders. Returns how the rounds went, for the report.

import { expect } from 'vitest';
import { createWarehouse } from '../../src/domain/teams/teams.js';
import { fixtureMerchant, fixtureWarehouse, SHIP_TO } from './fixtures.js';
import { ledgerBalanced } from '../api/inventory.fixtures.js';
import type { ApiResult, Replicas, ReplicaWorld } from './replicas.js';

const OPEN = ['PENDING', 'ACCEPTED', 'IN_PROGRESS'];
export const LABEL = { label_url: 'https://l.example/x.pdf', carrier: 'UPS', service: 'Ground', cost: 5, cost_currency: 'USD' };
export const why = (...r: ApiResult[]) => JSON.stringify(r.map((x) => [x.status, x.body]));

/** What the race scenarios share: requests to replica i % 2, products with stock, accepted fulfillment orders, invariants. */
export function raceKit(get: () => { w: ReplicaWorld; r: Replicas }) {
  const send = async (i: number, method: string, p: string, body?: unknown) => get().r.send(i % 2, method, p, body, get().w.token);
  const db = () => get().w.db.prisma;
  let west: Promise<string> | undefined;
  let n = 0;

  /** A product of the world's merchant with `onHand` units (through the API's ledger) at east and, when asked, west. */
  async function product(onHand: number, both = true) {
    const { w } = get();
    const merchant = await fixtureMerchant(w.fx);
    const east = await fixtureWarehouse(w.fx);
    west ??= createWarehouse(w.db, { team_id: w.teamId, name: 'Pack Race West' }).then((x) => x.id);
    const sku = `PR-${Date.now()}-${++n}`;
    const p = await db().product.create({
      data: {
        team_id: merchant,
        merchant_team_id: merchant,
        fulfiller_team_id: w.teamId,
        name: sku,
        sku,
        measurement_unit: 'MM',
        weight_unit: 'G',
      },
    });
    for (const warehouse_id of onHand ? (both ? [east, await west] : [east]) : []) {
      const adj = await send(0, 'POST', '/ops/inventory/adjustments', { warehouse_id, reason: 'FOUND', lines: [{ sku, delta: onHand }] });
      expect(adj.status, why(adj)).toBe(201);
    }
    return { id: p.id, sku, east, west: await west };
  }

  async function draft(i: number, lines: Array<{ sku: string; quantity: number }>) {
    const d = await send(i, 'POST', '/ops/draft-orders', {
      shipping_address: SHIP_TO,
      payment_status: 'PAID',
      line_items: lines.map((l) => ({ ...l, price: 5 })),
    });
    expect(d.status, why(d)).toBe(201);
    return d.body.id as string;
  }

  async function acceptedFo(i: number, lines: Array<{ sku: string; quantity: number }>) {
    const o = await send(i + 1, 'POST', `/ops/draft-orders/${await draft(i, lines)}/convert`);
    expect(o.status, why(o)).toBe(200);
    const fo = await db().fulfillmentOrder.findFirstOrThrow({ where: { order_id: o.body.id }, include: { line_items: true } });
    const a = await send(i, 'POST', `/ops/fulfillment-orders/${fo.id}/accept`);
    expect(a.status, why(a)).toBe(200);
    return fo;
  }

  /** The invariants of the product's orders and stock after a round. */
  async function invariants(productId: string) {
    await ledgerBalanced(get().w.db, [productId]);
    const packages = await db().package.findMany({
      where: { status: 'PENDING', line_items: { some: { product_id: productId } } },
      include: { line_items: true, fulfillment_order: { include: { line_items: true } } },
    });
    const packed = new Map<string, number>();
    for (const p of packages) {
      // A package ships from its fulfillment order's warehouse, and packs only that order's lines.
      expect(p.warehouse_id, `package ${p.id}`).toBe(p.fulfillment_order!.warehouse_id);
      const own = new Map(p.fulfillment_order!.line_items.map((l) => [l.id, l]));
      for (const l of p.line_items) {
        expect(own.has(l.core_fulfillment_order_line_item_id!), `package ${p.id} line of another fulfillment order`).toBe(true);
        packed.set(l.core_fulfillment_order_line_item_id!, (packed.get(l.core_fulfillment_order_line_item_id!) ?? 0) + l.quantity);
      }
    }
    // Units never packed twice: open packages hold at most what each line has left.
    for (const [lineId, q] of packed) {
      const line = await db().fulfillmentOrderLineItem.findUniqueOrThrow({ where: { id: lineId } });
      expect(q, `units of line ${lineId} in open packages`).toBeLessThanOrEqual(line.remaining_quantity);
    }
    // Stock is committed where the open fulfillment orders are, exactly.
    for (const level of await db().inventoryLevel.findMany({ where: { product_id: productId } })) {
      const open = await db().fulfillmentOrderLineItem.aggregate({
        where: { product_id: productId, fulfillment_order: { warehouse_id: level.warehouse_id, status: { in: OPEN } } },
        _sum: { remaining_quantity: true },
      });
      expect(level.committed, `committed at ${level.warehouse_id}`).toBe(open._sum.remaining_quantity ?? 0);
      expect(level.committed + level.unavailable).toBeLessThanOrEqual(level.on_hand);
    }
  }

  return { send, db, product, draft, acceptedFo, invariants };
}

export function packRaceScenarios(get: () => { w: ReplicaWorld; r: Replicas }) {
  const { send, db, product, draft, acceptedFo, invariants } = raceKit(get);
  const tally = () => ({ tries: 0, first: 0, second: 0 });

  return {
    /**
     * Package (2 units) vs move. Even rounds move 1 of the 2 units (a new fulfillment order at
     * west): exactly one can win. Odd rounds move the whole order: a package made after the
     * move is made at west, where the order now is.
     */
    async packVsMove(rounds: number) {
      const p = await product(20);
      const t = { ...tally(), packedAfterMove: 0 };
      for (let round = 0; round < rounds; round++) {
        const fo = await acceptedFo(round, [{ sku: p.sku, quantity: 2 }]);
        const part = round % 2 === 0;
        const [pkg, move] = await Promise.all([
          send(round, 'POST', '/ops/packages', { fulfillment_order_id: fo.id, package_line_items: [{ sku: p.sku, quantity: 2 }] }),
          send(round + 1, 'POST', `/ops/fulfillment-orders/${fo.id}/move`, {
            warehouse_id: p.west,
            ...(part ? { lines: [{ fulfillment_order_line_item_id: fo.line_items[0].id, quantity: 1 }] } : {}),
          }),
        ]);
        t.tries++;
        const after = await db().fulfillmentOrder.findUniqueOrThrow({ where: { id: fo.id } });
        if (move.status === 200) {
          t.second++;
          if (part) expect(pkg.status, why(pkg, move)).toBe(409);
          else {
            expect(pkg.status, why(pkg, move)).toBe(201);
            expect(pkg.body.warehouse_id).toBe(p.west);
            t.packedAfterMove++;
          }
        } else {
          t.first++;
          expect([pkg.status, move.status], why(pkg, move)).toEqual([201, 409]);
          expect(after.warehouse_id).toBe(p.east);
        }
        await invariants(p.id);
      }
      return t;
    },

    /** Package (2 units) vs split of 1 unit off: exactly one wins. */
    async packVsSplit(rounds: number) {
      const p = await product(20, false);
      const t = tally();
      for (let round = 0; round < rounds; round++) {
        const fo = await acceptedFo(round, [{ sku: p.sku, quantity: 2 }]);
        const [pkg, split] = await Promise.all([
          send(round, 'POST', '/ops/packages', { fulfillment_order_id: fo.id, package_line_items: [{ sku: p.sku, quantity: 2 }] }),
          send(round + 1, 'POST', `/ops/fulfillment-orders/${fo.id}/split`, {
            lines: [{ fulfillment_order_line_item_id: fo.line_items[0].id, quantity: 1 }],
          }),
        ]);
        t.tries++;
        expect(
          [pkg.status, split.status].filter((s) => s < 300),
          why(pkg, split),
        ).toHaveLength(1);
        if (split.status === 200) t.second++;
        else t.first++;
        expect(await db().fulfillmentOrder.count({ where: { order_id: fo.order_id } })).toBe(split.status === 200 ? 2 : 1);
        await invariants(p.id);
      }
      return t;
    },

    /** Package vs cancel of the fulfillment order: the cancel always stands, and leaves no open package. */
    async cancelVsPack(rounds: number) {
      const p = await product(20, false);
      const t = { ...tally(), packageCancelled: 0 };
      for (let round = 0; round < rounds; round++) {
        const fo = await acceptedFo(round, [{ sku: p.sku, quantity: 2 }]);
        const [pkg, cancel] = await Promise.all([
          send(round, 'POST', '/ops/packages', { fulfillment_order_id: fo.id, package_line_items: [{ sku: p.sku, quantity: 2 }] }),
          send(round + 1, 'POST', `/ops/fulfillment-orders/${fo.id}/cancel`, { reason: 'CUSTOMER' }),
        ]);
        t.tries++;
        expect(cancel.status, why(pkg, cancel)).toBe(200);
        if (pkg.status === 201) {
          t.first++;
          const closed = await db().package.findUniqueOrThrow({ where: { id: pkg.body.id } });
          expect(closed.status).toBe('CANCELLED');
          t.packageCancelled++;
        } else {
          t.second++;
          expect(pkg.status, why(pkg, cancel)).toBe(409);
        }
        expect(await db().package.count({ where: { fulfillment_order_id: fo.id, status: 'PENDING' } })).toBe(0);
        await invariants(p.id);
      }
      return t;
    },

    /** Allocation (an order of 4 converted) vs a cycle count down to 2 of the 5 on hand: never more committed than on hand. */
    async allocationVsCount(rounds: number) {
      const t = tally();
      for (let round = 0; round < rounds; round++) {
        const p = await product(5, false);
        const d = await draft(round, [{ sku: p.sku, quantity: 4 }]);
        const [convert, count] = await Promise.all([
          send(round, 'POST', `/ops/draft-orders/${d}/convert`),
          send(round + 1, 'POST', '/ops/inventory/adjustments', {
            warehouse_id: p.east,
            reason: 'CYCLE_COUNT',
            lines: [{ sku: p.sku, counted: 2 }],
          }),
        ]);
        t.tries++;
        expect(convert.status, why(convert, count)).toBe(200);
        const [level] = await ledgerBalanced(get().w.db, [p.id]);
        const line = await db().orderLineItem.findFirstOrThrow({ where: { order_id: convert.body.id, kind: 'CORE' } });
        if (count.status === 201) {
          t.second++; // counted first: the allocation found 2
          expect(level).toMatchObject({ on_hand: 2, committed: 2 });
          expect(line.unallocated_quantity).toBe(2);
        } else {
          t.first++; // allocated first: the count would leave less on hand than committed
          expect(count.status, why(convert, count)).toBe(409);
          expect(level).toMatchObject({ on_hand: 5, committed: 4 });
          expect(line.unallocated_quantity).toBe(0);
        }
        await invariants(p.id);
      }
      return t;
    },

    /**
     * `orders` orders, each of one unit of both of two SKUs (every fulfill changes the same two
     * level rows), packed and labelled, then fulfilled all at once over both replicas: every
     * fulfill is a 200 (no deadlock or serialization failure reaches a caller).
     */
    async concurrentFulfills(orders: number) {
      const a = await product(orders * 2, false);
      const b = await product(orders * 2, false);
      const packages = await Promise.all(
        Array.from({ length: orders }, async (_, i) => {
          const fo = await acceptedFo(i, [
            { sku: a.sku, quantity: 1 },
            { sku: b.sku, quantity: 1 },
          ]);
          const pkg = await send(i, 'POST', '/ops/packages', {
            fulfillment_order_id: fo.id,
            package_line_items: [
              { sku: a.sku, quantity: 1 },
              { sku: b.sku, quantity: 1 },
            ],
          });
          expect(pkg.status, why(pkg)).toBe(201);
          const label = await send(i + 1, 'POST', `/ops/packages/${pkg.body.id}/label`, {
            ...LABEL,
            tracking_number: `F${pkg.body.id.slice(-12)}`,
          });
          expect(label.status, why(label)).toBe(200);
          return pkg.body.id as string;
        }),
      );
      const results = await Promise.all(packages.map((id, i) => send(i, 'POST', `/ops/packages/${id}/fulfill`, {})));
      const statuses = results.map((r) => r.status);
      expect(
        results.filter((r) => r.status !== 200),
        why(...results.filter((r) => r.status !== 200)),
      ).toEqual([]);
      for (const p of [a, b]) {
        const [level] = await ledgerBalanced(get().w.db, [p.id]);
        expect(level).toMatchObject({ on_hand: orders, committed: 0 });
      }
      return { fulfills: statuses.length, ok: statuses.filter((s) => s === 200).length };
    },
  };
}
