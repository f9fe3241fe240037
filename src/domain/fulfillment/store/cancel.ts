import type { Db, TxClient } from '../../../db/types.js';

// The cancel's data access (cancel.ts): the labelled packages voided before its transaction, then
// in it the compare-and-sets on the fulfillment orders and the order, the lines' units taken off,
// the packages closed and the order settled. The rules (what may be cancelled, in which order,
// what is announced) stay in cancel.ts.

type Client = Db['prisma'] | TxClient;

/** The team's unshipped labelled packages of the open fulfillment orders matching `where`, in id order. */
export function findLabelledOpenPackages(client: Client, teamId: string, where: { order_id?: string; id?: string }, openFo: string[]) {
  return client.package.findMany({
    where: {
      fulfiller_team_id: teamId,
      status: 'PENDING',
      shipment_status: { not: null },
      fulfillment_order: { ...where, status: { in: openFo } },
    },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
}

/** A PENDING package of the fulfillment order that has a label (one labelled during the cancel). */
export function findLabelledPendingPackage(tx: TxClient, foId: string) {
  return tx.package.findFirst({
    where: { fulfillment_order_id: foId, status: 'PENDING', shipment_status: { not: null } },
    select: { id: true },
  });
}

/** The fulfillment order's lines with units remaining, in id order. */
export function findRemainingFoLines(tx: TxClient, foId: string) {
  return tx.fulfillmentOrderLineItem.findMany({
    where: { fulfillment_order_id: foId, remaining_quantity: { gt: 0 } },
    orderBy: { id: 'asc' },
  });
}

/** `n` units off a fulfillment order's line (its quantity less `n`, nothing remaining). */
export async function dropFoLineRemaining(tx: TxClient, id: string, n: number) {
  await tx.fulfillmentOrderLineItem.update({ where: { id }, data: { quantity: { decrement: n }, remaining_quantity: 0 } });
}

/** `n` remaining units of an order line removed, where it has them; the count changed (0 or 1). */
export async function removeOrderLineUnits(tx: TxClient, id: string, n: number): Promise<number> {
  const res = await tx.orderLineItem.updateMany({
    where: { id, remaining_quantity: { gte: n } },
    data: { remaining_quantity: { decrement: n }, removed_quantity: { increment: n } },
  });
  return res.count;
}

/** The warehouse's levels of these products (id, product, warehouse), in id order. */
export function findLevelIds(tx: TxClient, warehouseId: string, productIds: string[]) {
  return tx.inventoryLevel.findMany({
    where: { warehouse_id: warehouseId, product_id: { in: productIds } },
    select: { id: true, product_id: true, warehouse_id: true },
    orderBy: { id: 'asc' },
  });
}

/** The ids of the fulfillment order's PENDING packages, in id order. */
export async function findPendingPackageIds(tx: TxClient, foId: string): Promise<string[]> {
  const rows = await tx.package.findMany({
    where: { fulfillment_order_id: foId, status: 'PENDING' },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((p) => p.id);
}

export async function cancelPackages(tx: TxClient, ids: string[]) {
  await tx.package.updateMany({ where: { id: { in: ids } }, data: { status: 'CANCELLED' } });
}

/** How many of the order's CORE lines have units remaining. */
export function countRemainingOrderLines(tx: TxClient, orderId: string) {
  return tx.orderLineItem.count({ where: { order_id: orderId, kind: 'CORE', remaining_quantity: { gt: 0 } } });
}

export function findOrderFulfillmentCount(tx: TxClient, orderId: string) {
  return tx.order.findUniqueOrThrow({ where: { id: orderId }, select: { fulfillment_count: true } });
}

/** The order, while in one of `open`, closed (something shipped) or cancelled (nothing shipped). */
export async function settleOpenOrder(
  tx: TxClient,
  orderId: string,
  open: string[],
  data:
    | { status: 'CLOSED'; fulfillment_status: 'FULFILLED'; closed_at: Date }
    | { status: 'CANCELLED'; cancelled_at: Date; cancel_reason: string },
) {
  await tx.order.updateMany({ where: { id: orderId, status: { in: open as never } }, data });
}

/** The team's fulfillment order, while in one of `open`, set CANCELLED with its lock cleared; returned, else undefined. */
export async function cancelOpenFulfillmentOrder(tx: TxClient, teamId: string, foId: string, open: string[]) {
  const [fo] = await tx.fulfillmentOrder.updateManyAndReturn({
    where: { id: foId, fulfiller_team_id: teamId, status: { in: open } },
    data: { status: 'CANCELLED', lock_owner: null, lock_expires_at: null },
    select: { id: true, order_id: true, warehouse_id: true, status: true },
  });
  return fo;
}

/** The team's fulfillment order's status (null: not the team's or absent). */
export function findFulfillmentOrderStatus(tx: TxClient, teamId: string, foId: string) {
  return tx.fulfillmentOrder.findFirst({ where: { id: foId, fulfiller_team_id: teamId }, select: { status: true } });
}

/** The order's CORE lines with units waiting for stock, in id order. */
export function findWaitingOrderLines(tx: TxClient, orderId: string) {
  return tx.orderLineItem.findMany({
    where: { order_id: orderId, kind: 'CORE', unallocated_quantity: { gt: 0 } },
    orderBy: { id: 'asc' },
  });
}

/** An order line's `n` waiting units removed, while it still waits for exactly `n`; the count changed (0 or 1). */
export async function removeWaitingUnits(tx: TxClient, id: string, n: number): Promise<number> {
  const res = await tx.orderLineItem.updateMany({
    where: { id, unallocated_quantity: n, remaining_quantity: { gte: n } },
    data: { unallocated_quantity: 0, remaining_quantity: { decrement: n }, removed_quantity: { increment: n } },
  });
  return res.count;
}

export async function clearOrderUnallocated(tx: TxClient, orderId: string) {
  await tx.order.update({ where: { id: orderId }, data: { unallocated_quantity: 0 } });
}

/** The team's order's id (null: not the team's or absent). */
export function findTeamOrderId(client: Client, teamId: string, orderId: string) {
  return client.order.findFirst({ where: { id: orderId, fulfiller_team_id: teamId }, select: { id: true } });
}

/** The order's open fulfillment orders of the team set CANCELLED with their locks cleared, returned. */
export function cancelOpenFulfillmentOrdersOf(tx: TxClient, teamId: string, orderId: string, open: string[]) {
  return tx.fulfillmentOrder.updateManyAndReturn({
    where: { order_id: orderId, fulfiller_team_id: teamId, status: { in: open } },
    data: { status: 'CANCELLED', lock_owner: null, lock_expires_at: null },
    select: { id: true, order_id: true, warehouse_id: true },
  });
}

/** The team's order, while in one of `open`, set CANCELLED; returned with what its event names, else undefined. */
export async function cancelOpenOrder(tx: TxClient, teamId: string, orderId: string, open: string[], now: Date, reason: string) {
  const [order] = await tx.order.updateManyAndReturn({
    where: { id: orderId, fulfiller_team_id: teamId, status: { in: open as never } },
    data: { status: 'CANCELLED', cancelled_at: now, cancel_reason: reason },
    select: { id: true, order_number: true, shop_id: true, remote_id: true, merchant_team_id: true },
  });
  return order;
}

export function findOrderStatusOrThrow(tx: TxClient, orderId: string) {
  return tx.order.findUniqueOrThrow({ where: { id: orderId }, select: { status: true, order_number: true } });
}

/** The shop as an order event names it. */
export function findShopForEvent(tx: TxClient, shopId: string) {
  return tx.shop.findUnique({ where: { id: shopId }, select: { id: true, name: true, shop_type: true } });
}
