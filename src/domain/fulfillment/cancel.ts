import type { Db, TxClient } from '../../db/types.js';
import { conflict, DomainError, notFound } from '../errors.js';
import { notCommitted } from '../inventory/index.js';
import { enqueueEvent } from '../events/index.js';
import { loadFulfillmentOrder } from './fulfillment-orders.js';
import { voidLabel } from './label-void.js';
import { transaction } from '../../db/tx.js';
import { applyToLevel } from '../inventory/index.js';
import { orderLabel, type CancelReason } from '../../contract/orders-enums.js';
import { getOrder, lockOpenFulfillmentOrders, lockOrderLines } from '../orders/index.js';
import {
  cancelOpenFulfillmentOrder,
  cancelOpenFulfillmentOrdersOf,
  cancelOpenOrder,
  cancelPackages,
  clearOrderUnallocated,
  countRemainingOrderLines,
  dropFoLineRemaining,
  findFulfillmentOrderStatus,
  findLabelledOpenPackages,
  findLabelledPendingPackage,
  findLevelIds,
  findOrderFulfillmentCount,
  findOrderStatusOrThrow,
  findPendingPackageIds,
  findRemainingFoLines,
  findShopForEvent,
  findTeamOrderId,
  findWaitingOrderLines,
  removeOrderLineUnits,
  removeWaitingUnits,
  settleOpenOrder,
} from './store/cancel.js';
import { findPackageStatus } from './store/refusals.js';

// Cancelling what is not shipped (docs/orders.md "Cancel"). It lives with fulfillment because it
// voids packages' labels through their carriers and closes packages. Of an order: every open fulfillment
// order and every unit still waiting for stock; of one fulfillment order: its remaining units.
// Shipped work is never undone (that is a return).
//
// Before the transaction, each unshipped package's bought label is voided through its carrier
// (label-void.ts): a fulfill needs a labelled package, so once the label is void no fulfill of it
// can win any more; a fulfill that won first makes the void refuse, and the cancel then finds
// less (or nothing: 409) to cancel. The transaction then:
//  1. compare-and-sets the fulfillment order(s) open -> CANCELLED, lock cleared (its first
//     statement, a write: on SQLite it takes the write lock; on PostgreSQL the row lock that
//     every fulfill of the fulfillment order takes first too, so one of them waits for the other);
//  2. takes each line's remaining units off the fulfillment order and the order line
//     (removed_quantity), releases their committed stock through the ledger (RELEASED; with
//     restock false they go to unavailable instead of back on sale) and closes open packages;
//  3. settles the order (CANCELLED, or CLOSED when something had shipped and nothing remains)
//     and writes order.cancelled / fulfillment_order.cancelled to the outbox.
// Released stock is offered to waiting orders by the ledger's backorder fill (backorders.ts).

export interface CancelOptions {
  reason: CancelReason;
  /** Released units go back on sale (default); false sets them aside as unavailable. */
  restock?: boolean;
  /** The person who cancelled, when a person acts. */
  userId?: string | null;
}

const OPEN_FO = ['PENDING', 'ACCEPTED', 'IN_PROGRESS'];
const OPEN_ORDER = ['OPEN', 'PENDING_FULFILLMENT'];

interface Released {
  units: number;
  packages: string[];
}

/** Voids every live label of the unshipped packages of these fulfillment orders (through the carrier). */
async function voidOpenLabels(db: Db, teamId: string, where: { order_id?: string; id?: string }) {
  const labelled = await findLabelledOpenPackages(db.prisma, teamId, where, OPEN_FO);
  for (const p of labelled) {
    try {
      await voidLabel(db, teamId, p.id);
    } catch (err) {
      const now = await findPackageStatus(db.prisma, p.id);
      // A fulfill won the race for this package: what it shipped stays shipped, the rest is cancelled.
      if (now?.status === 'FULFILLED') continue;
      const why = err instanceof DomainError ? err.message : String(err);
      throw conflict(`Cannot cancel: the label of package ${p.id} could not be voided. ${why}`, { package_id: p.id });
    }
  }
}

/** Step 2 for one fulfillment order already set CANCELLED by this transaction. */
async function releaseFulfillmentOrder(
  tx: TxClient,
  fo: { id: string; warehouse_id: string; order_id: string },
  restock: boolean,
): Promise<Released> {
  const relabelled = await findLabelledPendingPackage(tx, fo.id);
  if (relabelled) throw conflict(`Package ${relabelled.id} was labelled while fulfillment order ${fo.id} was being cancelled; try again.`);
  const lines = await findRemainingFoLines(tx, fo.id);
  const perProduct = new Map<string, number>();
  let units = 0;
  // The order lines in id order first (PostgreSQL): a fulfill of another of the order's fulfillment orders takes them so.
  await lockOrderLines(
    tx,
    lines.map((l) => l.order_line_item_id),
  );
  for (const l of lines) {
    const n = l.remaining_quantity;
    await dropFoLineRemaining(tx, l.id, n);
    if ((await removeOrderLineUnits(tx, l.order_line_item_id, n)) !== 1)
      throw conflict(`Order line ${l.order_line_item_id} changed while fulfillment order ${fo.id} was being cancelled; try again.`);
    if (l.product_id) perProduct.set(l.product_id, (perProduct.get(l.product_id) ?? 0) + n);
    units += n;
  }
  const levels = await findLevelIds(tx, fo.warehouse_id, [...perProduct.keys()]);
  for (const level of levels) {
    const q = perProduct.get(level.product_id)!;
    const ok = await applyToLevel(tx, level, restock ? { committed: -q } : { committed: -q, unavailable: q }, {
      kind: 'RELEASED',
      reason: restock ? 'CANCELLED' : 'CANCELLED_NOT_RESTOCKED',
      reference_type: 'fulfillment_order',
      reference_id: fo.id,
    });
    if (!ok) throw await notCommitted(tx, level.product_id, fo.warehouse_id, q, 'released');
  }
  const open = await findPendingPackageIds(tx, fo.id);
  if (open.length) await cancelPackages(tx, open);
  return { units, packages: open };
}

/**
 * Sets the order CANCELLED (nothing shipped) or CLOSED (something shipped) once nothing remains. A
 * CLOSED order shipped all it still holds, so it reads FULFILLED whichever came first, the partial
 * fulfill or the cancel of the rest (as an order edit that removes the rest does).
 */
async function settleOrder(tx: TxClient, orderId: string, reason: CancelReason, now: Date) {
  const left = await countRemainingOrderLines(tx, orderId);
  if (left) return;
  const order = await findOrderFulfillmentCount(tx, orderId);
  await settleOpenOrder(
    tx,
    orderId,
    OPEN_ORDER,
    order.fulfillment_count > 0
      ? { status: 'CLOSED', fulfillment_status: 'FULFILLED', closed_at: now }
      : { status: 'CANCELLED', cancelled_at: now, cancel_reason: reason },
  );
}

const nothingToCancel = (what: string, status: string) =>
  conflict(`${what} is ${status}: there is nothing left to cancel (shipped units are undone by a return).`, { status });

/** POST /v1/ops/fulfillment-orders/{id}/cancel: its remaining units are cancelled. */
export async function cancelFulfillmentOrder(db: Db, teamId: string, foId: string, opts: CancelOptions) {
  const restock = opts.restock ?? true;
  await voidOpenLabels(db, teamId, { id: foId });
  await transaction(db, async (tx) => {
    const now = new Date();
    const fo = await cancelOpenFulfillmentOrder(tx, teamId, foId, OPEN_FO);
    if (!fo) {
      const now = await findFulfillmentOrderStatus(tx, teamId, foId);
      if (!now) throw notFound('Fulfillment order', foId);
      throw nothingToCancel(`Fulfillment order ${foId}`, now.status);
    }
    const released = await releaseFulfillmentOrder(tx, fo, restock);
    await settleOrder(tx, fo.order_id, opts.reason, now);
    await enqueueEvent(tx, teamId, 'fulfillment_order.cancelled', {
      fulfillment_order_id: fo.id,
      order_id: fo.order_id,
      warehouse_id: fo.warehouse_id,
      reason: opts.reason,
      restock,
      cancelled_quantity: released.units,
      closed_package_ids: released.packages,
      cancelled_by_user_id: opts.userId ?? null,
    });
  });
  return loadFulfillmentOrder(db.prisma, teamId, foId);
}

/** Cancels the order's waiting (unallocated) units: they leave the order's remaining quantities. */
async function dropWaiting(tx: TxClient, orderId: string): Promise<number> {
  const waiting = await findWaitingOrderLines(tx, orderId);
  let units = 0;
  for (const l of waiting) {
    const n = l.unallocated_quantity;
    if ((await removeWaitingUnits(tx, l.id, n)) !== 1)
      throw conflict(`Order line ${l.id} changed while its order was being cancelled; try again.`);
    units += n;
  }
  if (units) await clearOrderUnallocated(tx, orderId);
  return units;
}

/**
 * Cancels an order: every open fulfillment order's remaining units and every unit waiting for
 * stock. The sales-channel area calls this when a shop cancels an order (reason CHANNEL).
 * 404 for another team's order; 409 when it is already CLOSED or CANCELLED.
 */
export async function cancelOrder(db: Db, teamId: string, orderId: string, opts: CancelOptions) {
  const restock = opts.restock ?? true;
  const before = await findTeamOrderId(db.prisma, teamId, orderId);
  if (!before) throw notFound('Order', orderId);
  await voidOpenLabels(db, teamId, { order_id: orderId });
  await transaction(db, async (tx) => {
    const now = new Date();
    // The fulfillment orders first (a fulfill locks its fulfillment order before the order), in id order.
    await lockOpenFulfillmentOrders(tx, orderId, OPEN_FO);
    const fos = await cancelOpenFulfillmentOrdersOf(tx, teamId, orderId, OPEN_FO);
    const order = await cancelOpenOrder(tx, teamId, orderId, OPEN_ORDER, now, opts.reason);
    if (!order) {
      const now = await findOrderStatusOrThrow(tx, orderId);
      throw nothingToCancel(`Order ${orderLabel(now.order_number)}`, now.status);
    }
    let units = 0;
    const packages: string[] = [];
    for (const fo of [...fos].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      const r = await releaseFulfillmentOrder(tx, fo, restock);
      units += r.units;
      packages.push(...r.packages);
    }
    units += await dropWaiting(tx, orderId);
    const shop = order.shop_id ? await findShopForEvent(tx, order.shop_id) : null;
    await enqueueEvent(tx, teamId, 'order.cancelled', {
      order_id: order.id,
      order_number: order.order_number,
      remote_id: order.remote_id,
      merchant_team_id: order.merchant_team_id,
      shop,
      reason: opts.reason,
      restock,
      cancelled_quantity: units,
      cancelled_fulfillment_order_ids: fos.map((f) => f.id),
      closed_package_ids: packages,
      cancelled_by_user_id: opts.userId ?? null,
    });
  });
  return getOrder(db, teamId, orderId);
}
