import type { Db, TxClient } from '../../../db/types.js';
import { ALLOCATABLE_STATUSES } from '../../../contract/orders-enums.js';

// The allocation's reads and the order lines' waiting-unit counters (allocation.ts, backorders.ts,
// edit-lines.ts). The plan (which warehouse ships what) and the ledger writes stay in allocation.ts.

type Client = Db['prisma'] | TxClient;

/** The team's warehouses, oldest first (the stable preference order). */
export function findTeamWarehouses(client: Client, teamId: string) {
  return client.warehouse.findMany({ where: { team_id: teamId }, orderBy: [{ created_at: 'asc' }, { id: 'asc' }] });
}

/** The levels of these products in these warehouses. */
export function findLevelsOf(client: Client, productIds: string[], warehouseIds: string[]) {
  return client.inventoryLevel.findMany({
    where: { product_id: { in: productIds }, warehouse_id: { in: warehouseIds } },
  });
}

export function findLevel(tx: TxClient, id: string) {
  return tx.inventoryLevel.findUnique({ where: { id } });
}

/**
 * The waiting units of these products per product, over the CORE lines of the team's open orders
 * whose priority_rank is at least `priorityRank`.
 */
export function sumWaitingFromRank(tx: TxClient, teamId: string, productIds: string[], priorityRank: number) {
  return tx.orderLineItem.groupBy({
    by: ['product_id'],
    where: {
      kind: 'CORE',
      product_id: { in: productIds },
      unallocated_quantity: { gt: 0 },
      order: { fulfiller_team_id: teamId, status: { in: ALLOCATABLE_STATUSES as never }, priority_rank: { gte: priorityRank } },
    },
    _sum: { unallocated_quantity: true },
  });
}

/** Gives `n` units back to the line's waiting units. */
export function raiseLineWaiting(tx: TxClient, lineId: string, n: number) {
  return tx.orderLineItem.update({ where: { id: lineId }, data: { unallocated_quantity: { increment: n } } });
}

export function raiseOrderWaiting(tx: TxClient, orderId: string, n: number) {
  return tx.order.update({ where: { id: orderId }, data: { unallocated_quantity: { increment: n } } });
}

export function lowerOrderWaiting(tx: TxClient, orderId: string, n: number) {
  return tx.order.update({ where: { id: orderId }, data: { unallocated_quantity: { decrement: n } } });
}
