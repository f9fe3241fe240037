import { join, raw, sqltag as sql } from '@prisma/client/runtime/client';
import type { Db, Provider, TxClient } from '../../../db/types.js';
import type { Statements } from '../../../db/statements.js';
import { chunkByParams, flag, valuesTable, type ValuesColumn } from '../../../db/values.js';

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

/**
 * The owner's products with these SKUs, locked until commit, so a concurrent PATCH or bulk of one
 * of them waits (as PATCH locks its row by writing it first). PostgreSQL: row locks in id order
 * (two bulks never wait on each other in a cycle). SQLite: a write statement, which takes the
 * database's write lock before anything is read.
 */
export async function lockBySku(tx: TxClient, provider: Provider, teamId: string, skus: string[]): Promise<LockedProduct[]> {
  const rows =
    provider === 'postgresql'
      ? await tx.$queryRaw<LockedProduct[]>`
        SELECT "id", "sku", "name", "barcode", "config" FROM "products"
        WHERE "team_id" = ${teamId} AND "sku" IN (${join(skus)}) ORDER BY "id" FOR UPDATE`
      : await tx.$queryRaw<LockedProduct[]>`
        UPDATE "products" SET "updated_at" = "updated_at"
        WHERE "team_id" = ${teamId} AND "sku" IN (${join(skus)})
        RETURNING "id", "sku", "name", "barcode", "config"`;
  return rows.map((r) => ({ ...r, config: typeof r.config === 'string' ? JSON.parse(r.config) : r.config }));
}

/** Products of `teamId` whose SKU is one of `skus` ignoring case (the database's lower() on both sides), oldest first. */
export function skuOwnerRows(tx: TxClient, teamId: string, skus: string[]) {
  return tx.$queryRaw<{ id: string; sku: string; key: string }[]>`
      SELECT "id", "sku", lower("sku") AS "key" FROM "products"
      WHERE "team_id" = ${teamId} AND "sku" IS NOT NULL AND lower("sku") IN (${join(skus.map((s) => sql`lower(${s})`))})
      ORDER BY "created_at", "id"`;
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
 * Writes each product's own columns (`cols`, named in `names`) with one UPDATE … FROM (VALUES …)
 * per ~30,000 parameters. A column a row does not give keeps its value (a per-row flag in the
 * VALUES list says which columns the row sets).
 */
export async function updateProductRows(
  tx: TxClient,
  provider: Provider,
  names: string[],
  written: { id: string; cols: Record<string, unknown> }[],
): Promise<void> {
  const columns: ValuesColumn[] = [
    { name: 'id', pg: 'TEXT' },
    ...names.flatMap((n) => [
      { name: `set_${n}`, pg: 'BOOLEAN' },
      { name: n, pg: PG_TYPES[n] ?? 'TEXT' },
    ]),
  ];
  const set = join(
    names.map((n) => sql`${raw(`"${n}" = CASE WHEN v."set_${n}" THEN v."${n}" ELSE "products"."${n}" END`)}`),
    ', ',
  );
  const now = new Date();
  for (const chunk of chunkByParams(written, () => 1 + names.length)) {
    const values = chunk.map((w) => [
      w.id,
      ...names.flatMap((n) => (n in w.cols ? [flag(provider, true), w.cols[n]] : [flag(provider, false), null])),
    ]);
    await tx.$executeRaw`WITH ${valuesTable(provider, 'v', columns, values)}
      UPDATE "products" SET ${set}, "updated_at" = ${now} FROM "v" WHERE "products"."id" = v."id"`;
  }
}

/**
 * Inserts new products with multi-row INSERTs on the transaction's prepared statements (issue 36:
 * 1,000 rows through Prisma's createMany cost 14x the driver's time), one per column set and
 * ~30,000 parameters. Every row carries its id; both timestamps are `now`, as the client writes them.
 */
export async function insertProductRows(st: Statements, rows: Record<string, unknown>[], now: Date): Promise<void> {
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of rows) {
    const cols = Object.keys(r).filter((k) => r[k] !== undefined);
    const key = cols.join();
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const pg = st.dialect.provider === 'postgresql';
  for (const [key, group] of groups) {
    const cols = [...key.split(','), 'created_at', 'updated_at'];
    const mark = (c: string) => (c === 'config' ? st.dialect.jsonParam : pg && PG_TYPES[c] ? `CAST(? AS ${PG_TYPES[c]})` : '?');
    const tuple = `(${cols.map(mark).join(', ')})`;
    for (const chunk of chunkByParams(group, () => cols.length)) {
      const params = chunk.flatMap((r) =>
        cols.map((c) => (c === 'created_at' || c === 'updated_at' ? now : c === 'config' ? JSON.stringify(r[c]) : r[c])),
      );
      await st.run(`INSERT INTO "products" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}`, params);
    }
  }
}
