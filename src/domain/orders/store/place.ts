import type { Prisma, TxClient } from '../../../db/types.js';

// A new order's rows (issue 38): the order and its core and original lines. What they hold, and
// everything written around them, is decided in place.ts.

/** The order row, returned. */
export function insertOrder(tx: TxClient, data: Prisma.OrderUncheckedCreateInput) {
  return tx.order.create({ data });
}

/** The order's core lines, returned. */
export function insertCoreLines(tx: TxClient, rows: Prisma.OrderLineItemCreateManyInput[]) {
  return tx.orderLineItem.createManyAndReturn({ data: rows });
}

/** The order's original lines (as sold). */
export function insertOriginalLines(tx: TxClient, rows: Prisma.OrderLineItemCreateManyInput[]) {
  return tx.orderLineItem.createMany({ data: rows });
}
