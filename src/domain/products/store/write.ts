import type { Db } from '../../../db/types.js';
import { sqliteArg, type Statements } from '../../../db/statements.js';
import { insertValues, jsonRowsSql, type ValuesColumn } from '../../../db/values.js';

// The products area's write statements and their provider differences (issue 24, item 1): the
// bulk upsert's locking read and multi-row UPDATE (bulk-write.ts), the SKU owner lookup (sku.ts)
// and the duplicate-SKU scan of `fos admin products dedupe` (dedupe.ts).

export interface LockedProduct {
  id: string;
  sku: string;
  name: string;
  barcode: string | null;
  config: unknown;
}

// The bulk upsert's statements run on the transaction's prepared statements (src/db/statements.ts),
// with every list of SKUs bound as ONE JSON parameter: one statement text for any count, prepared
// once, and no per-parameter cost in Prisma's raw query (on PostgreSQL the statements go through
// it). Issue 36: through Prisma's raw query, 1,000 SKUs as 1,000 parameters cost more than the
// writes themselves. The list is the outer loop (CROSS JOIN keeps SQLite to that order: it cannot
// tell how long the list is, and chose to walk every product of the team instead), each SKU
// then found by the unique index on team_id, lower(sku) (an exact SKU is matched there too).

/**
 * The owner's products with these SKUs, locked until commit, so a concurrent PATCH or bulk of one
 * of them waits (as PATCH locks its row by writing it first). PostgreSQL: row locks in id order
 * (two bulks never wait on each other in a cycle). SQLite: a plain read; transaction() holds the
 * database's write lock since its BEGIN IMMEDIATE (src/db/sqlite-serial.ts).
 */
export async function lockBySku(st: Statements, teamId: string, skus: string[]): Promise<LockedProduct[]> {
  const d = st.dialect;
  const rows = await st.all<LockedProduct>(
    `SELECT p."id", p."sku", p."name", p."barcode", p."config" FROM ${d.jsonSql.values} AS j CROSS JOIN "products" p
     WHERE lower(p."sku") = lower(j.value) AND p."team_id" = ? AND p."sku" = j.value${d.singleWriter ? '' : ' ORDER BY p."id" FOR UPDATE OF p'}`,
    [JSON.stringify(skus), teamId],
  );
  return rows.map((r) => ({ ...r, config: d.json(r.config) }));
}

/**
 * Products of `teamId` whose SKU is one of `skus` ignoring case (the database's lower() on both
 * sides), oldest first; a product twice when two of `skus` fold alike.
 */
export function skuOwnerRows(st: Statements, teamId: string, skus: string[]) {
  return st.all<{ id: string; sku: string; key: string }>(
    `SELECT p."id", p."sku", lower(p."sku") AS "key" FROM ${st.dialect.jsonSql.values} AS j CROSS JOIN "products" p
     WHERE lower(p."sku") = lower(j.value) AND p."team_id" = ? ORDER BY p."created_at", p."id"`,
    [JSON.stringify(skus), teamId],
  );
}

/** Every product sharing its SKU, ignoring case, with another product of its team, by team, folded SKU and age. */
export function duplicateSkuRows(db: Db) {
  return db.prisma.$queryRaw<{ team_id: string; id: string; sku: string; name: string; created_at: Date; key: string }[]>`
    SELECT p."team_id", p."id", p."sku", p."name", p."created_at", lower(p."sku") AS "key" FROM "products" p
    WHERE p."sku" IS NOT NULL AND EXISTS (SELECT 1 FROM "products" q
      WHERE q."team_id" = p."team_id" AND q."sku" IS NOT NULL AND lower(q."sku") = lower(p."sku") AND q."id" <> p."id")
    ORDER BY p."team_id", lower(p."sku"), p."created_at", p."id"`;
}

const PG_TYPES: Record<string, string> = {
  type: '"ProductType"',
  is_hazmat: 'BOOLEAN',
  lot_tracked: 'BOOLEAN',
  first_article_inspection_completed_at: 'TIMESTAMP(3)',
  config: 'JSONB',
  length: 'DOUBLE PRECISION',
  width: 'DOUBLE PRECISION',
  height: 'DOUBLE PRECISION',
  weight: 'DOUBLE PRECISION',
  cost_price: 'DOUBLE PRECISION',
  customs_value: 'DOUBLE PRECISION',
  pick_fee_override: 'DOUBLE PRECISION',
  increment_level: 'DOUBLE PRECISION',
  maximum_level: 'DOUBLE PRECISION',
  minimum_level: 'DOUBLE PRECISION',
};

/**
 * Writes each product's own columns (`cols`, named in `names`) with UPDATE … FROM (rows): a column
 * a row does not give keeps its value (a per-row flag says which columns the row sets).
 * PostgreSQL: the rows as one JSON parameter (jsonRowsSql), each cell CAST to its column's type.
 * SQLite: bound parameters, 100 rows a statement (a few texts, each prepared once), because
 * SQLite's JSON reads some REALs 1 ulp off (a weight must be stored as sent).
 */
export async function updateProductRows(st: Statements, names: string[], written: { id: string; cols: Record<string, unknown> }[]) {
  const columns: ValuesColumn[] = [
    { name: 'id', pg: 'TEXT' },
    ...names.flatMap((n) => [
      { name: `set_${n}`, pg: 'BOOLEAN' },
      { name: n, pg: PG_TYPES[n] ?? 'TEXT' },
    ]),
  ];
  const set = names.map((n) => `"${n}" = CASE WHEN v."set_${n}" THEN v."${n}" ELSE "products"."${n}" END`).join(', ');
  const update = (v: string) => `WITH ${v} UPDATE "products" SET ${set}, "updated_at" = ? FROM "v" WHERE "products"."id" = v."id"`;
  // Each row's cells: its id, then a flag and a value per column.
  const cells = written.map((w) => {
    const out: unknown[] = [w.id];
    for (const n of names) {
      const given = n in w.cols;
      out.push(given, given ? cell(n, w.cols[n]) : null);
    }
    return out;
  });
  const now = new Date();
  if (st.dialect.provider === 'postgresql') {
    await st.run(update(`"v" AS (${jsonRowsSql('postgresql', columns)})`), [JSON.stringify(cells), now]);
    return;
  }
  const row = `(${columns.map(() => '?').join(', ')})`;
  const head = `"v"(${columns.map((c) => `"${c.name}"`).join(', ')})`;
  for (let at = 0; at < cells.length; at += SQLITE_ROWS) {
    const chunk = cells.slice(at, at + SQLITE_ROWS);
    const params: unknown[] = [];
    for (const c of chunk) for (const v of c) params.push(v);
    params.push(now);
    await st.run(update(`${head} AS (VALUES ${Array(chunk.length).fill(row).join(', ')})`), params);
  }
}

/** Rows per SQLite statement of the bulk writes: 100 rows of up to ~80 cells, well inside SQLite's 32,766 parameters. */
const SQLITE_ROWS = 100;

/** A cell as the statement binds it: config as its JSON text (both columns hold it as JSON). */
const cell = (column: string, v: unknown) => (column === 'config' && v !== null && typeof v !== 'string' ? JSON.stringify(v) : v);

/**
 * Inserts new products, one statement set per column set (rows giving the same fields share
 * one): PostgreSQL one INSERT … SELECT of the rows as one JSON parameter; SQLite multi-row
 * VALUES statements of bound parameters (insertValues: at most eleven texts, each prepared once).
 * Every row carries its id; both timestamps are `now`, as the client writes them. Issue 36:
 * 1,000 rows through Prisma's createMany cost 14x the driver's time.
 */
export async function insertProductRows(st: Statements, rows: Record<string, unknown>[], now: Date): Promise<void> {
  const pg = st.dialect.provider === 'postgresql';
  // SQLite: the timestamps as the statement binds them, converted once rather than per row.
  const at = pg ? now : sqliteArg(now);
  const groups = new Map<string, { cols: string[]; cells: unknown[][] }>();
  for (const r of rows) {
    const cols: string[] = [];
    for (const k in r) if (r[k] !== undefined) cols.push(k);
    const key = cols.join();
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { cols, cells: [] }));
    const cells: unknown[] = cols.map((c) => cell(c, r[c]));
    if (!pg) cells.push(at, at);
    group.cells.push(cells);
  }
  for (const { cols, cells } of groups.values()) {
    const head = `INSERT INTO "products" (${[...cols, 'created_at', 'updated_at'].map((c) => `"${c}"`).join(', ')})`;
    if (pg) {
      const columns = cols.map((name) => ({ name, pg: PG_TYPES[name] ?? 'TEXT' }));
      const stamps = ['CAST(? AS TIMESTAMP(3))', 'CAST(? AS TIMESTAMP(3))'];
      await st.run(`${head} ${jsonRowsSql('postgresql', columns, stamps)}`, [at, at, JSON.stringify(cells)]);
    } else {
      await insertValues(st, head, cells);
    }
  }
}
