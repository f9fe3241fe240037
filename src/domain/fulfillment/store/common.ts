import { newId } from '../../../db/ids.js';
import { placeholders } from '../../../db/dialect.js';
import type { Statements } from '../../../db/statements.js';

export { caseBy } from '../../../db/dialect.js';

// Fragments the fulfillment area's statements share (SQL text with `?` placeholders; the
// parameters each needs are listed beside it).

/** The fulfillment orders a lock, pack or fulfill may work on (ACCEPTED, IN_PROGRESS). */
export const LOCKABLE_STATUSES = ['ACCEPTED', 'IN_PROGRESS'];
/** Fulfillment orders no package is added to or changed on. */
export const CLOSED_STATUSES = ['FULFILLED', 'CANCELLED'];

/** No active hold on the fulfillment order's order; one parameter: true. */
export const NO_ACTIVE_HOLD = `NOT EXISTS (SELECT 1 FROM "order_fulfillment_holds" h WHERE h."order_id" = "fulfillment_orders"."order_id" AND h."active" = ?)`;

/** `"status" IN (…)` of a fixed list; its parameters are the list. */
export const statusIn = (list: readonly string[]) => `"status" IN (${placeholders(list.length)})`;

/** Sorts rows by created_at, then id (the order a read shows lines in). */
export const byCreated = <T extends { created_at: Date; id: string }>(a: T, b: T) =>
  a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const isJson = (v: unknown) => v !== null && typeof v === 'object' && !(v instanceof Date);

/**
 * Inserts rows of one table in one statement and returns them whole (RETURNING *), in the order
 * given, as the Prisma model's createManyAndReturn would: the id (UUIDv7) and both timestamps are
 * filled here as the client fills them; a column left out (or undefined) takes its database default.
 */
export async function insertRows<T>(st: Statements, table: string, rows: ReadonlyArray<Record<string, unknown>>, now: Date): Promise<T[]> {
  if (!rows.length) return [];
  const full = rows.map((r) => ({ id: newId(), ...r, created_at: now, updated_at: now }) as Record<string, unknown>);
  const defined = (r: Record<string, unknown>) => Object.keys(r).filter((k) => r[k] !== undefined);
  const cols = defined(full[0]);
  // One statement for rows of the same columns (SQLite has no DEFAULT in VALUES); else one per row.
  if (full.some((r) => defined(r).join() !== cols.join())) {
    const out: T[] = [];
    for (const r of full) out.push(...(await insertRows<T>(st, table, [r], now)));
    return out;
  }
  const params: unknown[] = [];
  const values = full.map((row) => {
    const marks = cols.map((c) => {
      const v = row[c];
      params.push(isJson(v) ? JSON.stringify(v) : v);
      return isJson(v) ? st.dialect.jsonParam : '?';
    });
    return `(${marks.join(', ')})`;
  });
  const inserted = await st.all<T & { id: string }>(
    `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES ${values.join(', ')} RETURNING *`,
    params,
  );
  const order = new Map(full.map((r, i) => [r.id as string, i]));
  return inserted.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}
