import type { Prisma, TxClient } from '../../../db/types.js';

// The writes of allocations into fulfillment orders (fulfillment-split.ts): the order's PENDING
// fulfillment orders, the compare-and-set that keeps one PENDING, new orders and their lines.

/** The order's PENDING fulfillment orders in these warehouses, oldest first, with their lines. */
export function findPendingFulfillmentOrders(tx: TxClient, orderId: string, warehouseIds: string[]) {
  return tx.fulfillmentOrder.findMany({
    where: { order_id: orderId, warehouse_id: { in: warehouseIds }, status: 'PENDING' },
    include: { line_items: true },
    orderBy: { created_at: 'asc' },
  });
}

/** Writes the fulfillment order's updated_at while it is PENDING (compare-and-set); the count. */
export async function touchPendingFulfillmentOrder(tx: TxClient, id: string, now: Date): Promise<number> {
  return (await tx.fulfillmentOrder.updateMany({ where: { id, status: 'PENDING' }, data: { updated_at: now } })).count;
}

/** A fulfillment order with its lines; its id. */
export function insertFulfillmentOrder(
  tx: TxClient,
  data: Omit<Prisma.FulfillmentOrderUncheckedCreateInput, 'line_items'>,
  lines: Prisma.FulfillmentOrderLineItemUncheckedCreateWithoutFulfillment_orderInput[],
) {
  return tx.fulfillmentOrder.create({ data: { ...data, line_items: { create: lines } }, select: { id: true } });
}

/** Adds `n` units to a fulfillment order line (its quantity and what remains of it). */
export function addFulfillmentOrderLineUnits(tx: TxClient, id: string, n: number) {
  return tx.fulfillmentOrderLineItem.update({
    where: { id },
    data: { quantity: { increment: n }, remaining_quantity: { increment: n } },
  });
}

export function insertFulfillmentOrderLine(tx: TxClient, data: Prisma.FulfillmentOrderLineItemUncheckedCreateInput) {
  return tx.fulfillmentOrderLineItem.create({ data });
}
