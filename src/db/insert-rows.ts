import { newId } from './ids.js';
import type { Statements } from './statements.js';

// One INSERT … RETURNING * for rows of one table on a write's prepared statements
// (statements.ts), as the Prisma model's createManyAndReturn would write them.

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
  const shape = cols.join();
  if (full.length > 1 && full.some((r) => defined(r).join() !== shape)) {
    const out: T[] = [];
    for (const r of full) out.push(...(await insertRows<T>(st, table, [r], now)));
    return out;
  }
  const params: unknown[] = [];
  const values = full.map((row) => {
    const marks = cols.map((c) => {
      const v = row[c];
      if (!isJson(v)) {
        params.push(v);
        return '?';
      }
      params.push(JSON.stringify(v));
      return st.dialect.jsonParam;
    });
    return `(${marks.join(', ')})`;
  });
  const inserted = await st.all<T & { id: string }>(
    `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES ${values.join(', ')} RETURNING *`,
    params,
  );
  if (inserted.length < 2) return inserted;
  const order = new Map(full.map((r, i) => [r.id as string, i]));
  return inserted.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}
