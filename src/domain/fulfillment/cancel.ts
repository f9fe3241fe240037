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
  const labelled = await db.prisma.package.findMany({
    where: {
      fulfiller_team_id: teamId,
      status: 'PENDING',
      shipment_status: { not: null },
      fulfillment_order: { ...where, status: { in: OPEN_FO } },
    },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  for (const p of labelled) {
    try {
      await voidLabel(db, teamId, p.id);
    } catch (err) {
      const now = await db.prisma.package.findUnique({ where: { id: p.id }, select: { status: true } });
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
  const relabelled = await tx.package.findFirst({
    where: { fulfillment_order_id: fo.id, status: 'PENDING', shipment_status: { not: null } },
    select: { id: true },
  });
  if (relabelled) throw conflict(`Package ${relabelled.id} was labelled while fulfillment order ${fo.id} was being cancelled; try again.`);
  const lines = await tx.fulfillmentOrderLineItem.findMany({
    where: { fulfillment_order_id: fo.id, remaining_quantity: { gt: 0 } },
    orderBy: { id: 'asc' },
  });
  const perProduct = new Map<string, number>();
  let units = 0;
  // The order lines in id order first (PostgreSQL): a fulfill of another of the order's fulfillment orders takes them so.
  await lockOrderLines(
    tx,
    lines.map((l) => l.order_line_item_id),
  );
  for (const l of lines) {
    const n = l.remaining_quantity;
    await tx.fulfillmentOrderLineItem.update({ where: { id: l.id }, data: { quantity: { decrement: n }, remaining_quantity: 0 } });
    const res = await tx.orderLineItem.updateMany({
      where: { id: l.order_line_item_id, remaining_quantity: { gte: n } },
      data: { remaining_quantity: { decrement: n }, removed_quantity: { increment: n } },
    });
    if (res.count !== 1)
      throw conflict(`Order line ${l.order_line_item_id} changed while fulfillment order ${fo.id} was being cancelled; try again.`);
    if (l.product_id) perProduct.set(l.product_id, (perProduct.get(l.product_id) ?? 0) + n);
    units += n;
  }
  const levels = await tx.inventoryLevel.findMany({
    where: { warehouse_id: fo.warehouse_id, product_id: { in: [...perProduct.keys()] } },
    select: { id: true, product_id: true, warehouse_id: true },
    orderBy: { id: 'asc' },
  });
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
  const open = await tx.package.findMany({
    where: { fulfillment_order_id: fo.id, status: 'PENDING' },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  if (open.length) await tx.package.updateMany({ where: { id: { in: open.map((p) => p.id) } }, data: { status: 'CANCELLED' } });
  return { units, packages: open.map((p) => p.id) };
}

/**
 * Sets the order CANCELLED (nothing shipped) or CLOSED (something shipped) once nothing remains. A
 * CLOSED order shipped all it still holds, so it reads FULFILLED whichever came first, the partial
 * fulfill or the cancel of the rest (as an order edit that removes the rest does).
 */
async function settleOrder(tx: TxClient, orderId: string, reason: CancelReason, now: Date) {
  const left = await tx.orderLineItem.count({ where: { order_id: orderId, kind: 'CORE', remaining_quantity: { gt: 0 } } });
  if (left) return;
  const order = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: { fulfillment_count: true } });
  await tx.order.updateMany({
    where: { id: orderId, status: { in: OPEN_ORDER as never } },
    data:
      order.fulfillment_count > 0
        ? { status: 'CLOSED', fulfillment_status: 'FULFILLED', closed_at: now }
        : { status: 'CANCELLED', cancelled_at: now, cancel_reason: reason },
  });
}

const nothingToCancel = (what: string, status: string) =>
  conflict(`${what} is ${status}: there is nothing left to cancel (shipped units are undone by a return).`, { status });

/** POST /v1/ops/fulfillment-orders/{id}/cancel: its remaining units are cancelled. */
export async function cancelFulfillmentOrder(db: Db, teamId: string, foId: string, opts: CancelOptions) {
  const restock = opts.restock ?? true;
  await voidOpenLabels(db, teamId, { id: foId });
  await transaction(db, async (tx) => {
    const now = new Date();
    const [fo] = await tx.fulfillmentOrder.updateManyAndReturn({
      where: { id: foId, fulfiller_team_id: teamId, status: { in: OPEN_FO } },
      data: { status: 'CANCELLED', lock_owner: null, lock_expires_at: null },
      select: { id: true, order_id: true, warehouse_id: true, status: true },
    });
    if (!fo) {
      const now = await tx.fulfillmentOrder.findFirst({ where: { id: foId, fulfiller_team_id: teamId }, select: { status: true } });
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
  const waiting = await tx.orderLineItem.findMany({
    where: { order_id: orderId, kind: 'CORE', unallocated_quantity: { gt: 0 } },
    orderBy: { id: 'asc' },
  });
  let units = 0;
  for (const l of waiting) {
    const n = l.unallocated_quantity;
    const res = await tx.orderLineItem.updateMany({
      where: { id: l.id, unallocated_quantity: n, remaining_quantity: { gte: n } },
      data: { unallocated_quantity: 0, remaining_quantity: { decrement: n }, removed_quantity: { increment: n } },
    });
    if (res.count !== 1) throw conflict(`Order line ${l.id} changed while its order was being cancelled; try again.`);
    units += n;
  }
  if (units) await tx.order.update({ where: { id: orderId }, data: { unallocated_quantity: 0 } });
  return units;
}

/**
 * Cancels an order: every open fulfillment order's remaining units and every unit waiting for
 * stock. The sales-channel area calls this when a shop cancels an order (reason CHANNEL).
 * 404 for another team's order; 409 when it is already CLOSED or CANCELLED.
 */
export async function cancelOrder(db: Db, teamId: string, orderId: string, opts: CancelOptions) {
  const restock = opts.restock ?? true;
  const before = await db.prisma.order.findFirst({ where: { id: orderId, fulfiller_team_id: teamId }, select: { id: true } });
  if (!before) throw notFound('Order', orderId);
  await voidOpenLabels(db, teamId, { order_id: orderId });
  await transaction(db, async (tx) => {
    const now = new Date();
    // The fulfillment orders first (a fulfill locks its fulfillment order before the order), in id order.
    await lockOpenFulfillmentOrders(tx, orderId, OPEN_FO);
    const fos = await tx.fulfillmentOrder.updateManyAndReturn({
      where: { order_id: orderId, fulfiller_team_id: teamId, status: { in: OPEN_FO } },
      data: { status: 'CANCELLED', lock_owner: null, lock_expires_at: null },
      select: { id: true, order_id: true, warehouse_id: true },
    });
    const [order] = await tx.order.updateManyAndReturn({
      where: { id: orderId, fulfiller_team_id: teamId, status: { in: OPEN_ORDER as never } },
      data: { status: 'CANCELLED', cancelled_at: now, cancel_reason: opts.reason },
      select: { id: true, order_number: true, shop_id: true, remote_id: true, merchant_team_id: true },
    });
    if (!order) {
      const now = await tx.order.findUniqueOrThrow({ where: { id: orderId }, select: { status: true, order_number: true } });
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
    const shop = order.shop_id
      ? await tx.shop.findUnique({ where: { id: order.shop_id }, select: { id: true, name: true, shop_type: true } })
      : null;
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
