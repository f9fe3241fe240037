import type { Priority, TxClient } from '../../../db/types.js';

// An order's priority change (issue 38): the read and its compare-and-set. The rules (what
// changes, the event, the retry) stay in orders.ts.

/** What a priority change needs of the fulfiller's order. */
export function findOrderPriority(tx: TxClient, fulfillerTeamId: string, id: string) {
  return tx.order.findFirst({
    where: { id, fulfiller_team_id: fulfillerTeamId },
    select: { id: true, priority: true, order_number: true },
  });
}

/** Sets priority and its rank while the priority is still `from` (compare-and-set); the count. */
export function setPriorityIfUnchanged(tx: TxClient, id: string, from: Priority, priority: Priority, rank: number) {
  return tx.order.updateMany({ where: { id, priority: from }, data: { priority, priority_rank: rank } });
}
