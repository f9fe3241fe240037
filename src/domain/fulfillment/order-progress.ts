import type { Provider, TxClient } from '../../db/types.js';

// What a fulfil does to its order: one more fulfillment (and tracking number), and its statuses
// from what is left to ship: partially fulfilled -> PENDING_FULFILLMENT (from OPEN); nothing
// left -> FULFILLED and CLOSED. Runs inside the fulfil's transaction, after its line decrements.

export interface OrderProgress {
  id: string;
  order_number: string;
  fulfillment_count: number;
  fulfillment_status: string;
  shop_id: string | null;
  remote_id: string | null;
  merchant_team_id: string;
}

export async function recordFulfilment(tx: TxClient, provider: Provider, orderId: string, tracked: boolean, now: Date): Promise<OrderProgress> {
  if (provider === 'sqlite') {
    // One writer at a time holds the whole database, so what is left is read in the same
    // statement that counts the fulfilment and sets the statuses.
    const left = `EXISTS (SELECT 1 FROM "order_line_items" l WHERE l."order_id" = "orders"."id" AND l."kind" = 'CORE' AND l."remaining_quantity" > 0)`;
    const [order] = await tx.$queryRawUnsafe<OrderProgress[]>(`
      UPDATE "orders" SET "fulfillment_count" = "fulfillment_count" + 1, "tracking_count" = "tracking_count" + ?,
        "fulfillment_status" = CASE WHEN ${left} THEN 'PARTIALLY_FULFILLED' ELSE 'FULFILLED' END,
        "status" = CASE WHEN NOT ${left} THEN 'CLOSED' WHEN "status" = 'OPEN' THEN 'PENDING_FULFILLMENT' ELSE "status" END,
        "closed_at" = CASE WHEN ${left} THEN "closed_at" ELSE ? END, "updated_at" = ?
      WHERE "id" = ?
      RETURNING "id", "order_number", "fulfillment_count", "fulfillment_status", "shop_id", "remote_id", "merchant_team_id"`,
    tracked ? 1 : 0, now, now, orderId);
    return { ...order, fulfillment_count: Number(order.fulfillment_count) };
  }
  // PostgreSQL: the counters' UPDATE takes the order's row lock first, so the count below (a new
  // statement, a new snapshot) sees what a concurrent fulfil of another of the order's
  // fulfillment orders committed: no write skew. (Within one statement, a subquery would keep
  // the snapshot from before the lock wait.)
  const counted = await tx.order.update({
    where: { id: orderId },
    data: { fulfillment_count: { increment: 1 }, tracking_count: { increment: tracked ? 1 : 0 } },
    select: { status: true },
  });
  const orderLeft = await tx.orderLineItem.count({ where: { order_id: orderId, kind: 'CORE', remaining_quantity: { gt: 0 } } });
  return tx.order.update({
    where: { id: orderId },
    data: {
      fulfillment_status: orderLeft ? 'PARTIALLY_FULFILLED' : 'FULFILLED',
      ...(orderLeft
        ? counted.status === 'OPEN' ? { status: 'PENDING_FULFILLMENT' as const } : {}
        : { status: 'CLOSED' as const, closed_at: now }),
    },
    select: { id: true, order_number: true, fulfillment_count: true, fulfillment_status: true, shop_id: true, remote_id: true, merchant_team_id: true },
  });
}
