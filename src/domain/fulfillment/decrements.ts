import { empty, join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import { integerById } from '../../db/raw-sql.js';
import type { TxClient } from '../../db/types.js';

// The fulfil's decrements of remaining quantities: ONE conditional UPDATE per table for all the
// lines a package ships (a CASE gives each line its own quantity), instead of one per line. The
// guard is per row (never below zero), so a line that cannot give its quantity is simply absent
// from what the UPDATE returns; the caller then fails its transaction, which undoes the others.

export interface Decremented {
  id: string;
  remaining_quantity: number;
  /** order_line_items only: the sales channel's id of the line (for the tracking push). */
  remote_id?: string | null;
}

export async function decrementRemaining(
  tx: TxClient,
  table: 'fulfillment_order_line_items' | 'order_line_items',
  amounts: Array<[id: string, quantity: number]>,
  scope: Sql,
  now: Date,
): Promise<Map<string, Decremented>> {
  if (!amounts.length) return new Map();
  const q = integerById(amounts);
  const rows = await tx.$queryRaw<Decremented[]>`
    UPDATE ${raw(`"${table}"`)} SET "remaining_quantity" = "remaining_quantity" - ${q}, "updated_at" = ${now}
    WHERE ${scope} AND "id" IN (${join(amounts.map(([id]) => id))}) AND "remaining_quantity" >= ${q}
    RETURNING "id", "remaining_quantity"${table === 'order_line_items' ? raw(', "remote_id"') : empty}`;
  return new Map(rows.map((r) => [r.id, { ...r, remaining_quantity: Number(r.remaining_quantity) }]));
}

/** A fulfillment order's line as the fulfil's decrement returns it. */
export interface FoLineAfter {
  id: string;
  order_line_item_id: string;
  product_id: string | null;
  sku: string | null;
  name: string;
  quantity: number;
  remaining_quantity: number;
  created_at: Date;
}

/**
 * decrementRemaining for a fulfillment order's lines that also returns EVERY line of the order,
 * after the change, in created order: the ones the package does not ship are matched by the same
 * UPDATE with nothing to take (and keep their updated_at), so the fulfil needs no read of the
 * lines first. A line that cannot give its quantity, or an id that is no line of this order, is
 * absent from the result.
 */
export async function decrementFulfillmentOrderLines(
  tx: TxClient,
  foId: string,
  amounts: Array<[id: string, quantity: number]>,
  now: Date,
): Promise<FoLineAfter[]> {
  const q = sql`COALESCE(${integerById(amounts)}, 0)`;
  const ids = join(amounts.map(([id]) => id));
  const rows = await tx.$queryRaw<FoLineAfter[]>`
    UPDATE "fulfillment_order_line_items" SET "remaining_quantity" = "remaining_quantity" - ${q},
      "updated_at" = CASE WHEN "id" IN (${ids}) THEN ${now} ELSE "updated_at" END
    WHERE "fulfillment_order_id" = ${foId} AND "remaining_quantity" >= ${q}
    RETURNING "id", "order_line_item_id", "product_id", "sku", "name", "quantity", "remaining_quantity", "created_at"`;
  return rows
    .map((r) => ({ ...r, quantity: Number(r.quantity), remaining_quantity: Number(r.remaining_quantity) }))
    .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
