import type { Db, TxClient } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { activeLock, loadFulfillmentOrder } from './fulfillment-orders.js';
import { lockHeld } from './locks.js';
import { carveOut } from './move-split.js';
import { findTeamFulfillmentOrder } from './store/fo-state.js';
import { fulfillmentOrderLines } from './store/move-split.js';
import { clearShortQuantities, touchSplittable } from './store/shortfall.js';
import { packingLines } from './packing.js';
import { transaction } from '../../db/tx.js';

// Short units never ship (issue 34 item 2; docs/fulfillment.md "Short units never ship"). A short
// pick or a short pack scan records missing units on the line (short_quantity); the fulfillment
// order then ships what was found only once the lead splits the short units off: they go to a new
// PENDING fulfillment order of the same warehouse (stock stays committed: it waits for a count or
// a restock, or the lead cancels it), and the original's shortfall is cleared. Unlike a plain
// split (move-split.ts) this one runs with packages of the found units already made (the station
// packs before the lead decides); no open package may hold a short unit.

const SPLITTABLE = ['PENDING', 'ACCEPTED', 'IN_PROGRESS'];

/** The compare-and-set claim: open, and not locked by someone else (the caller's own lock is fine). */
async function claim(tx: TxClient, teamId: string, id: string, owner: string | null, now: Date) {
  const { count } = await touchSplittable(tx, teamId, id, SPLITTABLE, owner, now);
  const fo = await findTeamFulfillmentOrder(tx, teamId, id, {
    id: true,
    order_id: true,
    warehouse_id: true,
    fulfiller_team_id: true,
    merchant_team_id: true,
    status: true,
    lock_owner: true,
    lock_expires_at: true,
  });
  if (!fo) throw notFound('Fulfillment order', id);
  if (count) return fo;
  if (!SPLITTABLE.includes(fo.status))
    throw conflict(`Fulfillment order ${id} is ${fo.status}; its shortfall cannot be split off.`, { fulfillment_order_status: fo.status });
  throw await lockHeld(tx, id, activeLock(fo, now)!);
}

/** POST …/split-shortfall: the short units of every line go to a new PENDING fulfillment order. */
export async function splitShortfall(db: Db, teamId: string, id: string, owner: string | null = null) {
  const newId = await transaction(db, async (tx) => {
    const fo = await claim(tx, teamId, id, owner, new Date());
    const lines = await fulfillmentOrderLines(tx, id);
    const short = lines.filter((l) => l.short_quantity > 0);
    if (!short.length) throw conflict(`Fulfillment order ${id} has no recorded shortfall.`);
    if (lines.every((l) => l.remaining_quantity <= l.short_quantity))
      throw conflict(`Nothing of fulfillment order ${id} was found: there is nothing to ship; cancel it or count the bins again.`);
    const packed = new Map((await packingLines(tx, id)).map((l) => [l.id, l.in_other_packages]));
    for (const l of short) {
      const found = l.remaining_quantity - l.short_quantity;
      if ((packed.get(l.id) ?? 0) > found)
        throw conflict(
          `${l.sku ?? l.name}: open packages hold ${packed.get(l.id)} but only ${found} were found; unpack the extra units first.`,
        );
    }
    const take = new Map(short.map((l) => [l.id, Math.min(l.short_quantity, l.remaining_quantity)]));
    const created = await carveOut(tx, fo, { lines, take }, fo.warehouse_id);
    await clearShortQuantities(tx, id);
    const quantity = [...take.values()].reduce((s, q) => s + q, 0);
    await enqueueEvent(tx, teamId, 'fulfillment_order.split', {
      fulfillment_order_id: id,
      new_fulfillment_order_id: created,
      order_id: fo.order_id,
      quantity,
    });
    return created;
  });
  return { original: await loadFulfillmentOrder(db.prisma, teamId, id), split: await loadFulfillmentOrder(db.prisma, teamId, newId) };
}
