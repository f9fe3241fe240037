import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The backorders' reads and writes (backorders.ts): the lines waiting for stock, in the order they
// are served (priority, then the oldest order), and the compare-and-set on a line's waiting units.
// Which lines wait, and for which level, stays in backorders.ts.

type Client = Db['prisma'] | TxClient;

/** Any line waiting for this product (one index seek on (product_id, unallocated_quantity)). */
export function findAnyWaitingLine(tx: TxClient, productId: string) {
  return tx.orderLineItem.findFirst({
    where: { product_id: productId, unallocated_quantity: { gt: 0 } },
    select: { id: true },
  });
}

export function findWarehouseTeam(tx: TxClient, warehouseId: string) {
  return tx.warehouse.findUnique({ where: { id: warehouseId }, select: { team_id: true } });
}

/** Up to `take` waiting lines in serving order, each with what its fill needs of its order. */
export function findWaitingLines(tx: TxClient, where: Prisma.OrderLineItemWhereInput, take: number) {
  return tx.orderLineItem.findMany({
    where,
    include: { order: { select: { id: true, order_number: true, priority: true, fulfiller_team_id: true, merchant_team_id: true } } },
    orderBy: [
      { order: { priority_rank: 'desc' } },
      { order: { created_at: 'asc' } },
      { order_id: 'asc' },
      { created_at: 'asc' },
      { id: 'asc' },
    ],
    take,
  });
}

/** Takes `n` of the line's waiting units while it still has them (compare-and-set); the count. */
export async function takeLineWaiting(tx: TxClient, lineId: string, n: number): Promise<number> {
  return (
    await tx.orderLineItem.updateMany({
      where: { id: lineId, unallocated_quantity: { gte: n } },
      data: { unallocated_quantity: { decrement: n } },
    })
  ).count;
}

/** A page of waiting lines (pageWindow's skip and take) in serving order, with their order's fields the list shows. */
export function findBackorderPage(client: Client, where: Prisma.OrderLineItemWhereInput, window: { skip: number; take: number }) {
  const orderBy = [{ order: { priority_rank: 'desc' } }, { order: { created_at: 'asc' } }, { order_id: 'asc' }, { id: 'asc' }];
  return client.orderLineItem.findMany({
    where,
    orderBy: orderBy as never,
    ...window,
    include: { order: { select: { order_number: true, priority: true, created_at: true, status: true } } },
  });
}
