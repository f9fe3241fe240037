import { sqltag as sql } from '@prisma/client/runtime/client';
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

export async function recordFulfilment(
  tx: TxClient,
  provider: Provider,
  orderId: string,
  tracked: boolean,
  now: Date,
): Promise<OrderProgress> {
  // PostgreSQL: the order's row lock first, so the statement below (a new snapshot) sees what a
  // concurrent fulfil of another of the order's fulfillment orders committed while this one
  // waited: no write skew. (Within one statement, the subquery would keep the snapshot from
  // before the lock wait; test/api/race.test.ts, "two fulfillment orders of one order".) On SQLite
  // one writer holds the whole database already.
  if (provider === 'postgresql') await tx.$queryRaw`SELECT 1 FROM "orders" WHERE "id" = ${orderId} FOR UPDATE`;
  // One statement counts the fulfilment and sets the statuses from what is left.
  const left = sql`EXISTS (SELECT 1 FROM "order_line_items" l WHERE l."order_id" = "orders"."id" AND l."kind" = 'CORE' AND l."remaining_quantity" > 0)`;
  const [order] = await tx.$queryRaw<OrderProgress[]>`
    UPDATE "orders" SET "fulfillment_count" = "fulfillment_count" + 1, "tracking_count" = "tracking_count" + ${tracked ? 1 : 0},
      "fulfillment_status" = CASE WHEN ${left} THEN 'PARTIALLY_FULFILLED' ELSE 'FULFILLED' END,
      "status" = CASE WHEN NOT ${left} THEN 'CLOSED' WHEN "status" = 'OPEN' THEN 'PENDING_FULFILLMENT' ELSE "status" END,
      "closed_at" = CASE WHEN ${left} THEN "closed_at" ELSE ${now} END, "updated_at" = ${now}
    WHERE "id" = ${orderId}
    RETURNING "id", "order_number", "fulfillment_count", "fulfillment_status", "shop_id", "remote_id", "merchant_team_id"`;
  return { ...order, fulfillment_count: Number(order.fulfillment_count) };
}
