import type { Db, TxClient } from '../../db/types.js';
import { conflict, invalid, notFound } from '../errors.js';
import { notCommitted } from '../inventory/index.js';
import { capital, namedFulfillmentOrder, refusalNames } from '../names/index.js';
import { enqueueEvent } from '../events/index.js';
import { applyToLevel } from '../inventory/index.js';
import { lockedLevelsFor } from '../inventory/index.js';
import { commitUpTo } from '../orders/index.js';
import { activeLock, loadFulfillmentOrder } from './fulfillment-orders.js';
import { lockHeld } from './locks.js';
import { claimUntouchedRow } from './store/packing-checks.js';
import { findTeamFulfillmentOrder } from './store/fo-state.js';
import {
  deleteFulfillmentOrderLine,
  findTeamWarehouseId,
  fulfillmentOrderLines,
  insertFulfillmentOrderWithLines,
  setFulfillmentOrderWarehouse,
  takeFromFulfillmentOrderLine,
} from './store/move-split.js';
import { transaction } from '../../db/tx.js';

// Moving and splitting a fulfillment order (as Shopify's fulfillmentOrderMove / Split), only while
// nobody works on it: not locked, no package (other than cancelled ones), nothing fulfilled.
// The first statement of each transaction is a compare-and-set UPDATE on the fulfillment order
// with those conditions in its WHERE; a lock takes the same row first, so of a move (or split)
// and a lock exactly one wins. Move: the units are committed at the new warehouse (all of them,
// or 409) and released at the old one (RELEASED movements; the release fills backorders there);
// all lines move the fulfillment order itself, some lines make a new PENDING one there. Split:
// the given units go to a new PENDING fulfillment order of the same warehouse (stock unchanged).

export interface LineQuantity {
  fulfillment_order_line_item_id: string;
  quantity: number;
}

const MOVABLE = ['PENDING', 'ACCEPTED', 'IN_PROGRESS'];

/** The compare-and-set claim; explains a refusal. */
async function claimUntouched(tx: TxClient, teamId: string, id: string, verb: string) {
  const now = new Date();
  const fo = await claimUntouchedRow(tx, teamId, id, now, MOVABLE);
  if (fo) return fo;
  const now2 = await findTeamFulfillmentOrder(tx, teamId, id, { status: true, lock_owner: true, lock_expires_at: true });
  if (!now2) throw notFound('Fulfillment order', id);
  const named = await namedFulfillmentOrder(tx, id);
  if (!MOVABLE.includes(now2.status))
    throw conflict(`${named} is ${now2.status} and cannot be ${verb}.`, { fulfillment_order_status: now2.status });
  const lock = activeLock(now2, now);
  if (lock) throw await lockHeld(tx, id, lock);
  throw conflict(`${named} has packages or fulfilled units: only untouched fulfillment orders can be ${verb}.`);
}

/** Which units of which lines: the given ones (each at most what remains), or every remaining unit. */
async function pickLines(tx: TxClient, foId: string, wanted: LineQuantity[] | undefined) {
  const lines = await fulfillmentOrderLines(tx, foId);
  if (!wanted) return { lines, take: new Map(lines.map((l) => [l.id, l.remaining_quantity])) };
  const take = new Map<string, number>();
  wanted.forEach((w, i) => {
    const line = lines.find((l) => l.id === w.fulfillment_order_line_item_id);
    if (!line) throw invalid(`body.lines.${i}.fulfillment_order_line_item_id`, `is not a line of fulfillment order ${foId}`);
    const q = (take.get(line.id) ?? 0) + w.quantity;
    if (q > line.remaining_quantity)
      throw invalid(`body.lines.${i}.quantity`, `exceeds the ${line.remaining_quantity} of ${line.sku ?? line.name} remaining on the line`);
    take.set(line.id, q);
  });
  return { lines, take };
}

export type Lines = Awaited<ReturnType<typeof pickLines>>;

/** Takes the units off the source lines and puts them on a new PENDING fulfillment order. */
export async function carveOut(
  tx: TxClient,
  fo: { id: string; order_id: string; fulfiller_team_id: string; merchant_team_id: string },
  picked: Lines,
  warehouseId: string,
) {
  const created = await insertFulfillmentOrderWithLines(
    tx,
    {
      order_id: fo.order_id,
      warehouse_id: warehouseId,
      fulfiller_team_id: fo.fulfiller_team_id,
      merchant_team_id: fo.merchant_team_id,
      status: 'PENDING',
      request_status: 'UNSUBMITTED',
    },
    picked.lines
      .filter((l) => (picked.take.get(l.id) ?? 0) > 0)
      .map((l) => ({
        order_line_item_id: l.order_line_item_id,
        product_id: l.product_id,
        sku: l.sku,
        name: l.name,
        image_url: l.image_url,
        quantity: picked.take.get(l.id)!,
        remaining_quantity: picked.take.get(l.id)!,
      })),
  );
  for (const l of picked.lines) {
    const q = picked.take.get(l.id) ?? 0;
    if (!q) continue;
    // Nothing is packed or fulfilled (the claim), so a line left empty simply goes.
    if (q === l.quantity) await deleteFulfillmentOrderLine(tx, l.id);
    else await takeFromFulfillmentOrderLine(tx, l.id, q);
  }
  return created.id;
}

export async function splitFulfillmentOrder(db: Db, teamId: string, id: string, lines: LineQuantity[]) {
  const newId = await transaction(db, async (tx) => {
    const fo = await claimUntouched(tx, teamId, id, 'split');
    const picked = await pickLines(tx, id, lines);
    const total = picked.lines.reduce((s, l) => s + l.remaining_quantity, 0);
    const taking = [...picked.take.values()].reduce((s, q) => s + q, 0);
    if (taking === 0 || taking >= total) throw invalid('body.lines', "must take some, but not all, of the fulfillment order's units");
    const created = await carveOut(tx, fo, picked, fo.warehouse_id);
    await enqueueEvent(tx, teamId, 'fulfillment_order.split', {
      fulfillment_order_id: id,
      new_fulfillment_order_id: created,
      order_id: fo.order_id,
      quantity: taking,
    });
    return created;
  });
  return { original: await loadFulfillmentOrder(db.prisma, teamId, id), split: await loadFulfillmentOrder(db.prisma, teamId, newId) };
}

export async function moveFulfillmentOrder(db: Db, teamId: string, id: string, input: { warehouse_id: string; lines?: LineQuantity[] }) {
  const movedId = await transaction(db, async (tx) => {
    const fo = await claimUntouched(tx, teamId, id, 'moved');
    const target = await findTeamWarehouseId(tx, teamId, input.warehouse_id);
    if (!target) throw invalid('body.warehouse_id', 'is not a warehouse of your team');
    const perProduct = new Map<string, number>();
    const names = () =>
      refusalNames(tx, { warehouses: [target.id, fo.warehouse_id], products: [...perProduct.keys()], fulfillmentOrders: [id] });
    if (target.id === fo.warehouse_id) {
      const n = await names();
      throw conflict(`${capital(n.fulfillmentOrder(id))} already ships from ${n.warehouse(target.id)}.`);
    }
    const picked = await pickLines(tx, id, input.lines);
    for (const l of picked.lines) {
      const q = picked.take.get(l.id) ?? 0;
      if (q && l.product_id) perProduct.set(l.product_id, (perProduct.get(l.product_id) ?? 0) + q);
    }
    if (![...picked.take.values()].some((q) => q > 0)) throw invalid('body.lines', 'must move at least one unit');
    // Every level the move touches, at both warehouses, locked in id order before any changes
    // (the global order: a move the other way, or a fulfill, never waits on this one in a cycle).
    const products = [...perProduct.keys()].sort();
    const levelOf = await lockedLevelsFor(tx, db.provider, [
      { warehouseId: target.id, productIds: products },
      { warehouseId: fo.warehouse_id, productIds: products },
    ]);
    for (const productId of products) {
      const q = perProduct.get(productId)!;
      const to = levelOf(target.id, productId);
      const got = await commitUpTo(tx, { levelId: to.id, product_id: productId, warehouse_id: target.id, quantity: q }, q, fo.order_id);
      if (got < q) {
        const n = await names();
        throw conflict(
          `${n.warehouse(target.id)} has only ${got} of ${n.product(productId)} available; ${q} are needed to move ${n.fulfillmentOrder(id)}.`,
          { product_id: productId },
        );
      }
      const from = levelOf(fo.warehouse_id, productId);
      const released = await applyToLevel(
        tx,
        from,
        { committed: -q },
        { kind: 'RELEASED', reason: 'MOVED', reference_type: 'fulfillment_order', reference_id: id },
      );
      if (!released) throw await notCommitted(tx, productId, fo.warehouse_id, q, 'moved');
    }
    const all = picked.lines.every((l) => (picked.take.get(l.id) ?? 0) === l.remaining_quantity);
    const movedTo = all ? (await setFulfillmentOrderWarehouse(tx, id, target.id)).id : await carveOut(tx, fo, picked, target.id);
    await enqueueEvent(tx, teamId, 'fulfillment_order.moved', {
      fulfillment_order_id: id,
      moved_fulfillment_order_id: movedTo,
      order_id: fo.order_id,
      from_warehouse_id: fo.warehouse_id,
      to_warehouse_id: target.id,
    });
    return movedTo;
  });
  return { original: await loadFulfillmentOrder(db.prisma, teamId, id), moved: await loadFulfillmentOrder(db.prisma, teamId, movedId) };
}
