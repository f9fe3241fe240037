import type { Db, TxClient } from '../../../db/types.js';
import { ALLOCATABLE_STATUSES } from '../../../contract/orders-enums.js';

// The reads and writes of the allocation of waiting quantities (issue 38): which orders wait for
// which products, and the compare-and-set of the units an allocation takes. The rules (what is
// free, the queue's order, the retries) stay in pending.ts.

type Client = Db['prisma'] | TxClient;

/** The products that allocatable orders of the fulfiller still wait for (core lines with unallocated units). */
export function findWaitingProducts(client: Client, fulfillerTeamId: string) {
  return client.orderLineItem.findMany({
    where: {
      kind: 'CORE',
      unallocated_quantity: { gt: 0 },
      order: { fulfiller_team_id: fulfillerTeamId, status: { in: ALLOCATABLE_STATUSES as never } },
    },
    distinct: ['product_id'],
    select: { product_id: true },
  });
}

/** The waiting core lines of these products (their order's id, priority rank and creation). */
export function findWaitingLinesOf(client: Client, fulfillerTeamId: string, productIds: string[]) {
  return client.orderLineItem.findMany({
    where: {
      kind: 'CORE',
      unallocated_quantity: { gt: 0 },
      product_id: { in: productIds },
      order: { fulfiller_team_id: fulfillerTeamId, status: { in: ALLOCATABLE_STATUSES as never } },
    },
    select: { order_id: true, order: { select: { priority_rank: true, created_at: true } } },
  });
}

/** The order with its waiting core lines, oldest first. */
export function findOrderWithWaitingLines(tx: TxClient, id: string) {
  return tx.order.findUnique({
    where: { id },
    include: { line_items: { where: { kind: 'CORE', unallocated_quantity: { gt: 0 } }, orderBy: [{ created_at: 'asc' }, { id: 'asc' }] } },
  });
}

/** Takes `n` of the line's waiting units while at least that many still wait (compare-and-set); the count. */
export function takeLineWaitingUnits(tx: TxClient, lineId: string, n: number) {
  return tx.orderLineItem.updateMany({
    where: { id: lineId, unallocated_quantity: { gte: n } },
    data: { unallocated_quantity: { decrement: n } },
  });
}

/** Takes `n` of the order's waiting units while at least that many still wait (compare-and-set); the count. */
export function takeOrderWaitingUnits(tx: TxClient, orderId: string, n: number) {
  return tx.order.updateMany({
    where: { id: orderId, unallocated_quantity: { gte: n } },
    data: { unallocated_quantity: { decrement: n } },
  });
}
