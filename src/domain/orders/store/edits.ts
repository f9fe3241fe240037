import type { Db, OrderLineItem, Prisma, TxClient } from '../../../db/types.js';
import { ALLOCATABLE_STATUSES } from '../../../contract/orders-enums.js';

// The order edit's reads and writes (edit.ts, edit-lines.ts, edit-settle.ts): the claim on the
// order's open fulfillment orders, its lines' quantities, the fulfillment orders the edit empties
// and the order's row. What may change, and how stock follows, stays in those files.

type Client = Db['prisma'] | TxClient;

/** What an edit reads of the order before it changes it. */
const EDITED_ORDER = {
  id: true,
  status: true,
  order_number: true,
  lock_address: true,
  config: true,
  fulfiller_team_id: true,
  merchant_team_id: true,
  shop_id: true,
  priority_rank: true,
  routed_warehouse_id: true,
  routed_warehouse_only: true,
  payment_status: true,
  total_tax: true,
  total_shipping: true,
  carrier_selection: true,
} satisfies Prisma.OrderSelect;

export function findOrderMerchant(client: Client, teamId: string, orderId: string) {
  return client.order.findFirst({ where: { id: orderId, fulfiller_team_id: teamId }, select: { merchant_team_id: true } });
}

/** Writes updated_at of the team's order's fulfillment orders in these statuses (a write: their rows are held). */
export function touchFulfillmentOrders(tx: TxClient, teamId: string, orderId: string, statuses: string[], now: Date) {
  return tx.fulfillmentOrder.updateMany({
    where: { order_id: orderId, fulfiller_team_id: teamId, status: { in: statuses } },
    data: { updated_at: now },
  });
}

export function findEditedOrder(tx: TxClient, teamId: string, orderId: string) {
  return tx.order.findFirst({ where: { id: orderId, fulfiller_team_id: teamId }, select: EDITED_ORDER });
}

/** The order's fulfillment orders with a lock owner, and their locks. */
export function findLockedFulfillmentOrders(tx: TxClient, orderId: string) {
  return tx.fulfillmentOrder.findMany({
    where: { order_id: orderId, lock_owner: { not: null } },
    select: { id: true, lock_owner: true, lock_expires_at: true },
  });
}

/** Updates the order while it is open (compare-and-set); the count. */
export async function updateOpenOrder(tx: TxClient, orderId: string, data: Prisma.OrderUncheckedUpdateManyInput): Promise<number> {
  return (await tx.order.updateMany({ where: { id: orderId, status: { in: ALLOCATABLE_STATUSES as never } }, data })).count;
}

/** The packages of the order's fulfillment orders. */
export function countOrderPackages(tx: TxClient, orderId: string) {
  return tx.package.count({ where: { fulfillment_order: { order_id: orderId } } });
}

export function findCoreLineQuantities(tx: TxClient, orderId: string) {
  return tx.orderLineItem.findMany({
    where: { order_id: orderId, kind: 'CORE' },
    select: { total_quantity: true, removed_quantity: true, remaining_quantity: true },
  });
}

/** The order's CORE lines in id order. */
export function findCoreLines(tx: TxClient, orderId: string): Promise<OrderLineItem[]> {
  return tx.orderLineItem.findMany({ where: { order_id: orderId, kind: 'CORE' }, orderBy: { id: 'asc' } });
}

/** The fulfillment order lines of an order line with units left, on fulfillment orders in these statuses. */
export function findOpenFulfillmentLines(tx: TxClient, lineId: string, statuses: string[]) {
  return tx.fulfillmentOrderLineItem.findMany({
    where: { order_line_item_id: lineId, remaining_quantity: { gt: 0 }, fulfillment_order: { status: { in: statuses } } },
    include: { fulfillment_order: { select: { id: true, status: true, warehouse_id: true } } },
    orderBy: { id: 'asc' },
  });
}

/** Units of these fulfillment order lines in PENDING packages, per line. */
export function sumPendingPackedUnits(tx: TxClient, foLineIds: string[]) {
  return tx.packageLineItem.groupBy({
    by: ['core_fulfillment_order_line_item_id'],
    where: { core_fulfillment_order_line_item_id: { in: foLineIds }, package: { status: 'PENDING' } },
    _sum: { quantity: true },
  });
}

/**
 * Removes `d` units of the line, `fromWaiting` of them waiting ones, while it still has them
 * (compare-and-set); the count.
 */
export async function removeLineUnits(tx: TxClient, lineId: string, d: number, fromWaiting: number): Promise<number> {
  const res = await tx.orderLineItem.updateMany({
    where: { id: lineId, remaining_quantity: { gte: d }, unallocated_quantity: { gte: fromWaiting } },
    data: { remaining_quantity: { decrement: d }, removed_quantity: { increment: d }, unallocated_quantity: { decrement: fromWaiting } },
  });
  return res.count;
}

/** Takes `n` units off a fulfillment order line (its quantity and what remains of it). */
export function removeFulfillmentOrderLineUnits(tx: TxClient, id: string, n: number) {
  return tx.fulfillmentOrderLineItem.update({
    where: { id },
    data: { quantity: { decrement: n }, remaining_quantity: { decrement: n } },
  });
}

/** The level of the product at the warehouse (what the ledger needs of it). */
export function findLevelRef(tx: TxClient, productId: string, warehouseId: string) {
  return tx.inventoryLevel.findFirst({
    where: { product_id: productId, warehouse_id: warehouseId },
    select: { id: true, product_id: true, warehouse_id: true },
  });
}

/** Adds `d` units to an order line (its total and what remains of it). */
export function growLineUnits(tx: TxClient, lineId: string, d: number) {
  return tx.orderLineItem.update({
    where: { id: lineId },
    data: { total_quantity: { increment: d }, remaining_quantity: { increment: d } },
  });
}

/** The waiting units of the order's CORE lines of this product. */
export function sumOrderWaitingOf(tx: TxClient, orderId: string, productId: string) {
  return tx.orderLineItem.aggregate({
    where: { order_id: orderId, kind: 'CORE', product_id: productId },
    _sum: { unallocated_quantity: true },
  });
}

export function insertOrderLine(tx: TxClient, data: Prisma.OrderLineItemUncheckedCreateInput) {
  return tx.orderLineItem.create({ data });
}

/** The order's ORIGINAL lines of this product, with what remains of them. */
export function findOriginalLinesOf(tx: TxClient, orderId: string, productId: string | null) {
  return tx.orderLineItem.findMany({
    where: { order_id: orderId, kind: 'ORIGINAL', product_id: productId },
    select: { id: true, remaining_quantity: true },
  });
}

export function updateOrderLine(tx: TxClient, id: string, data: Prisma.OrderLineItemUncheckedUpdateInput) {
  return tx.orderLineItem.update({ where: { id }, data });
}

/** The order's fulfillment orders in these statuses, in id order, with their lines. */
export function findFulfillmentOrdersWithLines(tx: TxClient, orderId: string, statuses: string[]) {
  return tx.fulfillmentOrder.findMany({
    where: { order_id: orderId, status: { in: statuses } },
    include: { line_items: true },
    orderBy: { id: 'asc' },
  });
}

export function deleteFulfillmentOrderLines(tx: TxClient, ids: string[]) {
  return tx.fulfillmentOrderLineItem.deleteMany({ where: { id: { in: ids } } });
}

/** Closes an emptied fulfillment order with this status, its lock dropped. */
export function settleFulfillmentOrder(tx: TxClient, id: string, status: 'FULFILLED' | 'CANCELLED') {
  return tx.fulfillmentOrder.update({
    where: { id },
    data: { status, lock_owner: null, lock_expires_at: null },
  });
}

/** All the order's lines. */
export function findOrderLines(tx: TxClient, orderId: string) {
  return tx.orderLineItem.findMany({ where: { order_id: orderId } });
}

export function updateOrder(tx: TxClient, id: string, data: Prisma.OrderUncheckedUpdateInput) {
  return tx.order.update({ where: { id }, data });
}
