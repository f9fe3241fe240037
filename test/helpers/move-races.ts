// Move and split vs lock of one fulfillment order across several `fos serve` processes on one
// database (PostgreSQL: test/pg/move-replicas.test.ts, SQLite: test/api/move-race-processes.test.ts).
// Each round sends the two requests to different processes at once; they serialize on the row: the lock
// (the move or split is a 409 naming the holder) or the move/split, after which the lock applies to
// the fulfillment order where it now is — and afterwards every level equals its movements and every
// committed unit is on exactly one open fulfillment order line.

import { expect } from 'vitest';
import { createWarehouse } from '../../src/domain/teams/teams.js';
import { fixtureMerchant, fixtureWarehouse, SHIP_TO } from './fixtures.js';
import { ledgerBalanced } from '../api/inventory.fixtures.js';
import type { Replicas, ReplicaWorld } from './replicas.js';

const OPEN = ['PENDING', 'ACCEPTED', 'IN_PROGRESS'];

export function moveRaceScenarios(get: () => { w: ReplicaWorld; r: Replicas }) {
  const send = async (i: number, method: string, p: string, body?: unknown) => get().r.send(i % 2, method, p, body, get().w.token);
  const db = () => get().w.db.prisma;
  let second: Promise<string> | undefined;

  async function setup(label: string) {
    const { w } = get();
    const merchant = await fixtureMerchant(w.fx);
    const east = await fixtureWarehouse(w.fx);
    second ??= createWarehouse(w.db, { team_id: w.teamId, name: 'Race West' }).then((x) => x.id);
    const west = await second;
    const sku = `MR-${label}-${Date.now()}`;
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
    for (const warehouse_id of [east, west]) {
      const adj = await send(0, 'POST', '/ops/inventory/adjustments', { warehouse_id, reason: 'FOUND', lines: [{ sku, delta: 40 }] });
      expect(adj.status, JSON.stringify(adj.body)).toBe(201);
    }
    return { id: p.id, sku };
  }

  async function acceptedFo(sku: string, i: number) {
    const d = await send(i, 'POST', '/ops/draft-orders', {
      shipping_address: SHIP_TO,
      payment_status: 'PAID',
      line_items: [{ sku, quantity: 2, price: 5 }],
    });
    expect(d.status, JSON.stringify(d.body)).toBe(201);
    const o = await send(i + 1, 'POST', `/ops/draft-orders/${d.body.id}/convert`);
    expect(o.status, JSON.stringify(o.body)).toBe(200);
    const fo = await db().fulfillmentOrder.findFirstOrThrow({ where: { order_id: o.body.id }, include: { line_items: true } });
    expect((await send(i, 'POST', `/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
    return fo;
  }

  async function exact(productId: string) {
    await ledgerBalanced(get().w.db, [productId]);
    const levels = await db().inventoryLevel.findMany({ where: { product_id: productId } });
    for (const level of levels) {
      const open = await db().fulfillmentOrderLineItem.aggregate({
        where: { product_id: productId, fulfillment_order: { warehouse_id: level.warehouse_id, status: { in: OPEN } } },
        _sum: { remaining_quantity: true },
      });
      expect(level.committed).toBe(open._sum.remaining_quantity ?? 0);
    }
  }

  const lockBody = { lock_owner: 'racer', timeout_minutes: 5 };

  return {
    async moveVsLock(rounds: number) {
      const p = await setup('move');
      for (let round = 0; round < rounds; round++) {
        const fo = await acceptedFo(p.sku, round);
        const target = fo.warehouse_id === (await second) ? await fixtureWarehouse(get().w.fx) : await second!;
        const [move, lock] = await Promise.all([
          send(round, 'POST', `/ops/fulfillment-orders/${fo.id}/move`, { warehouse_id: target }),
          send(round + 1, 'POST', `/ops/fulfillment-orders/${fo.id}/lock`, lockBody),
        ]);
        expect(lock.status, JSON.stringify(lock.body)).toBe(200);
        if (move.status !== 200) expect(move.body).toMatchObject({ status: 409, type: 'urn:fos:error:lock-held', lock_owner: 'racer' });
        const after = await db().fulfillmentOrder.findUniqueOrThrow({ where: { id: fo.id } });
        expect(after.warehouse_id).toBe(move.status === 200 ? target : fo.warehouse_id);
        expect(after.lock_owner).toBe('racer');
        await exact(p.id);
      }
    },

    async splitVsLock(rounds: number) {
      const p = await setup('split');
      for (let round = 0; round < rounds; round++) {
        const fo = await acceptedFo(p.sku, round);
        const [split, lock] = await Promise.all([
          send(round, 'POST', `/ops/fulfillment-orders/${fo.id}/split`, {
            lines: [{ fulfillment_order_line_item_id: fo.line_items[0].id, quantity: 1 }],
          }),
          send(round + 1, 'POST', `/ops/fulfillment-orders/${fo.id}/lock`, lockBody),
        ]);
        expect(lock.status, JSON.stringify(lock.body)).toBe(200);
        if (split.status !== 200) expect(split.body).toMatchObject({ status: 409, type: 'urn:fos:error:lock-held', lock_owner: 'racer' });
        const fos = await db().fulfillmentOrder.findMany({ where: { order_id: fo.order_id }, include: { line_items: true } });
        expect(fos).toHaveLength(split.status === 200 ? 2 : 1);
        expect(fos.reduce((n, f) => n + f.line_items.reduce((m, l) => m + l.remaining_quantity, 0), 0)).toBe(2);
        await exact(p.id);
      }
    },
  };
}
