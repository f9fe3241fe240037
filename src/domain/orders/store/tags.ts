import type { Prisma, TxClient } from '../../../db/types.js';

// The order_tags rows (issue 38); which tags an order has is decided in tags.ts.

export function deleteOrderTags(tx: TxClient, orderId: string) {
  return tx.orderTag.deleteMany({ where: { order_id: orderId } });
}

export function insertOrderTags(tx: TxClient, rows: Prisma.OrderTagCreateManyInput[]) {
  return tx.orderTag.createMany({ data: rows });
}
