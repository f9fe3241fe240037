import type { Prisma, TxClient } from '../../../db/types.js';

// An order number's reads and writes (issue 38): the team's highest sequence and the number's
// columns. The rules (the sequence, the savepoint, the retry) stay in numbers.ts.

/** The fulfiller's highest order sequence (null when no order has a numeric number). */
export async function findMaxOrderSeq(tx: TxClient, fulfillerTeamId: string): Promise<number | null> {
  const max = await tx.order.aggregate({ where: { fulfiller_team_id: fulfillerTeamId }, _max: { order_seq: true } });
  return max._max.order_seq;
}

/** Writes the order's number columns (numberColumns); fails on the team's unique index when taken. */
export function setOrderNumberColumns(tx: TxClient, orderId: string, columns: Prisma.OrderUpdateInput) {
  return tx.order.update({ where: { id: orderId }, data: columns });
}
