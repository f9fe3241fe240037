import { empty, join, raw, type Sql } from '@prisma/client/runtime/client';
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
