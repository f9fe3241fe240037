import { join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';
import type { Statements } from './statements.js';
import type { Provider } from './types.js';

// Many rows written by one statement (issue 29 item 3): the rows travel as a VALUES list named by
// a common table expression, and one UPDATE … FROM joins it by key. The same text runs on both
// databases (SQLite 3.33+ has UPDATE … FROM; both take `WITH v(a, b) AS (VALUES …)`). PostgreSQL
// types each cell by a CAST (its parameters arrive untyped); SQLite gets the bare parameter, so a
// date or JSON value is stored exactly as Prisma stores it in a plain UPDATE.

export interface ValuesColumn {
  name: string;
  /** The column's PostgreSQL type, for the cell's CAST (TEXT, INTEGER, BOOLEAN, TIMESTAMP(3), …). */
  pg: string;
}

/** A boolean literal (no parameter): the "this row sets that column" flags of a sparse update. */
export const flag = (provider: Provider, on: boolean): Sql => raw(provider === 'postgresql' ? (on ? 'TRUE' : 'FALSE') : on ? '1' : '0');

/** `v("a", "b") AS (VALUES (…), (…))`, for a WITH clause. Cells may be Sql fragments (flag()). */
export function valuesTable(provider: Provider, name: string, columns: ValuesColumn[], rows: unknown[][]): Sql {
  const cell = (c: ValuesColumn, v: unknown) => (provider === 'postgresql' ? sql`CAST(${v} AS ${raw(c.pg)})` : sql`${v}`);
  const head = raw(`"${name}"(${columns.map((c) => `"${c.name}"`).join(', ')})`);
  return sql`${head} AS (VALUES ${join(
    rows.map((r) => sql`(${join(r.map((v, i) => cell(columns[i], v)))})`),
    ', ',
  )})`;
}

/**
 * Splits rows into statements of at most `budget` parameters (SQLite allows 32,766 per statement,
 * PostgreSQL 65,535): a 1,000-row write is one to a few statements.
 */
export function chunkByParams<T>(rows: T[], paramsOf: (row: T) => number, budget = 30_000): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let used = 0;
  for (const row of rows) {
    const n = paramsOf(row);
    if (cur.length && used + n > budget) {
      out.push(cur);
      cur = [];
      used = 0;
    }
    cur.push(row);
    used += n;
  }
  if (cur.length) out.push(cur);
  return out;
}

/**
 * A table of rows for the prepared statements of src/db/statements.ts: `SELECT <cells> FROM <rows>`, the
 * rows of a JSON array of arrays bound as ONE `?` (json_each on SQLite, jsonb_array_elements on
 * PostgreSQL, each cell CAST to its column's `pg` type, which may name an enum). The text is the
 * same for any number of rows, so the statement is prepared once; the JSON is JSON.stringify(rows).
 * `extra` cells (e.g. `?` for a timestamp shared by every row) come after the row's own, and their
 * parameters come BEFORE the rows' in the statement's parameter list.
 */
export function jsonRowsSql(provider: Provider, columns: ValuesColumn[], extra: string[] = []): string {
  if (provider === 'postgresql') {
    const cells = columns.map((c, i) => `CAST(e->>${i} AS ${c.pg}) AS "${c.name}"`);
    return `SELECT ${[...cells, ...extra].join(', ')} FROM jsonb_array_elements(CAST(? AS JSONB)) AS e`;
  }
  const cells = columns.map((c, i) => `json_extract("value", '$[${i}]') AS "${c.name}"`);
  return `SELECT ${[...cells, ...extra].join(', ')} FROM json_each(?)`;
}

/**
 * SQLite: rows written by `head` (an INSERT naming its columns) as multi-row VALUES statements of
 * 100 and 10 rows and one of the 1-9 left, so at most eleven texts per `head`, each prepared once.
 * Measured against one INSERT … SELECT FROM json_each(?) of the same 2,000 ledger rows: 17 vs
 * 24 ms into an empty table, 47 vs 57 ms into one of 200,000 rows (docs/performance.md, "The wait
 * behind a receipt"). SQLite allows 32,766 parameters a statement: 100 rows of up to 300 cells fit.
 */
export async function insertValues(st: Pick<Statements, 'run'>, head: string, rows: unknown[][]): Promise<void> {
  const row = rows.length ? `(${rows[0].map(() => '?').join(', ')})` : '';
  const write = (at: number, size: number) => {
    const params: unknown[] = [];
    for (let i = at; i < at + size; i++) params.push(...rows[i]);
    return st.run(`${head} VALUES ${Array(size).fill(row).join(', ')}`, params);
  };
  let at = 0;
  for (const size of [100, 10]) for (; at + size <= rows.length; at += size) await write(at, size);
  if (at < rows.length) await write(at, rows.length - at);
}
