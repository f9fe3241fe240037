import { newId } from '../../../db/ids.js';
import type { Statements } from '../../../db/statements.js';
import { jsonRowsSql, type ValuesColumn } from '../../../db/values.js';
import { BUCKETS } from '../../../contract/inventory-enums.js';
import type { StockRow } from './bins.js';
import type { StockIn } from './bins.js';

// The bulk ledger's statements (ledger-bulk.ts; issue 29 item 3) on the write paths' prepared
// statements (src/db/statements.ts): each write's rows travel as ONE JSON parameter (jsonRowsSql),
// so a 1,000-line receipt or adjustment is a handful of statements whose texts never change (the
// driver prepares each once), with no Prisma query building or per-parameter processing. Every
// column the Prisma model fills is given (ids UUIDv7, timestamps as Prisma writes them: a Date
// parameter), so rows written here read and sort like rows written through Prisma.

const col = (name: string, pg = 'TEXT'): ValuesColumn => ({ name, pg });

/** Empty levels of these products at the warehouse where missing, in the given (product) order. */
export async function insertLevels(st: Statements, warehouseId: string, productIds: string[], now: Date): Promise<void> {
  if (!productIds.length) return;
  const rows = jsonRowsSql(st.dialect.provider, [col('id'), col('product_id')], ['?', '?', '?']);
  await st.run(
    `INSERT INTO "inventory_levels" ("id", "product_id", "warehouse_id", "created_at", "updated_at") ${rows} WHERE true
     ON CONFLICT ("product_id", "warehouse_id") DO NOTHING`,
    [warehouseId, now, now, JSON.stringify(productIds.map((p) => [newId(), p]))],
  );
}

/** The level ids of these products at the warehouse, by product id. */
export async function levelIdsOf(st: Statements, warehouseId: string, productIds: string[]): Promise<Map<string, string>> {
  const rows = await st.all<{ id: string; product_id: string }>(
    `SELECT "id", "product_id" FROM "inventory_levels" WHERE "warehouse_id" = ? AND "product_id" IN (SELECT value FROM ${st.dialect.jsonSql.values})`,
    [warehouseId, JSON.stringify(productIds)],
  );
  return new Map(rows.map((r) => [r.product_id, r.id]));
}

/** PostgreSQL: the levels' row locks, in id order (SQLite: the transaction's first write holds the database). */
export async function lockLevels(st: Statements, ids: string[]): Promise<void> {
  if (st.dialect.singleWriter || !ids.length) return;
  await st.all(
    `SELECT "id" FROM "inventory_levels" WHERE "id" IN (SELECT value FROM ${st.dialect.jsonSql.values}) ORDER BY "id" FOR UPDATE`,
    [JSON.stringify(ids)],
  );
}

/** The on_hand of these levels, by level id. */
export async function onHandOf(st: Statements, ids: string[]): Promise<Map<string, number>> {
  const rows = await st.all<{ id: string; on_hand: number }>(
    `SELECT "id", "on_hand" FROM "inventory_levels" WHERE "id" IN (SELECT value FROM ${st.dialect.jsonSql.values})`,
    [JSON.stringify(ids)],
  );
  return new Map(rows.map((r) => [r.id, st.dialect.int(r.on_hand)]));
}

/** One row of updateLevels: [level id, on_hand, committed, unavailable, on_order, sellable, on_hand_is]. */
export type LevelUpdateRow = [string, number, number, number, number, boolean, number | null];

/**
 * The levels moved by their own deltas in ONE UPDATE, each where its guards hold (every bucket
 * stays >= 0; committed + unavailable <= on_hand when `sellable`; on_hand still `on_hand_is` when
 * given: as updateLevelGuarded); returns the ids of the levels it moved.
 */
export async function updateLevels(st: Statements, values: LevelUpdateRow[], now: Date): Promise<Set<string>> {
  const cols = [col('id'), ...BUCKETS.map((b) => col(b, 'INTEGER')), col('sellable', 'BOOLEAN'), col('on_hand_is', 'INTEGER')];
  const set = BUCKETS.map((b) => `"${b}" = "inventory_levels"."${b}" + v."${b}"`).join(', ');
  const guards = BUCKETS.map((b) => `"inventory_levels"."${b}" + v."${b}" >= 0`).join(' AND ');
  const rows = await st.all<{ id: string }>(
    `WITH "v" AS (${jsonRowsSql(st.dialect.provider, cols)})
     UPDATE "inventory_levels" SET ${set}, "updated_at" = ? FROM "v"
     WHERE "inventory_levels"."id" = v."id" AND ${guards}
       AND (NOT v."sellable" OR "inventory_levels"."committed" + v."committed" + "inventory_levels"."unavailable" + v."unavailable"
         <= "inventory_levels"."on_hand" + v."on_hand")
       AND (v."on_hand_is" IS NULL OR "inventory_levels"."on_hand" = v."on_hand_is")
     RETURNING "inventory_levels"."id"`,
    [JSON.stringify(values), now],
  );
  return new Set(rows.map((r) => r.id));
}

/** Units into bin rows: each inserted, or added to the row of (product, bin, lot), in ONE statement; the stored rows. */
export async function upsertStocks(st: Statements, rows: StockIn[], now: Date) {
  const cols = ['id', 'product_id', 'warehouse_id', 'location_id', 'lot_code', 'expiration_date'].map((n) => col(n));
  const values = jsonRowsSql(st.dialect.provider, [...cols, col('on_hand', 'INTEGER')], ['?', '?']);
  const stored = await st.all<{ id: string; product_id: string; expiration_date: string | null }>(
    `INSERT INTO "location_stock" ("id", "product_id", "warehouse_id", "location_id", "lot_code", "expiration_date", "on_hand", "created_at", "updated_at")
     ${values} WHERE true
     ON CONFLICT ("product_id", "location_id", "lot_code") DO UPDATE SET "on_hand" = "location_stock"."on_hand" + excluded."on_hand",
       "expiration_date" = COALESCE(excluded."expiration_date", "location_stock"."expiration_date"), "updated_at" = excluded."updated_at"
     RETURNING "id", "product_id", "expiration_date"`,
    [
      now,
      now,
      JSON.stringify(rows.map((r) => [newId(), r.product_id, r.warehouse_id, r.location_id, r.lot_code, r.expiration_date, r.quantity])),
    ],
  );
  return stored;
}

/** Which of these products an order line waits for (unallocated units): those whose levels fill backorders. */
export async function productsWaiting(st: Statements, productIds: string[]): Promise<Set<string>> {
  const rows = await st.all<{ product_id: string }>(
    `SELECT DISTINCT "product_id" FROM "order_line_items"
     WHERE "product_id" IN (SELECT value FROM ${st.dialect.jsonSql.values}) AND "unallocated_quantity" > 0`,
    [JSON.stringify(productIds)],
  );
  return new Set(rows.map((r) => r.product_id));
}

/** The bin rows holding units of these products in the warehouse, by pick_sequence then age (stockRows for many products). */
export async function stockRowsOf(st: Statements, warehouseId: string, productIds: string[]) {
  const rows = await st.all<StockRow & { product_id: string }>(
    `SELECT s."id", s."product_id", s."location_id", s."lot_code", s."expiration_date", s."on_hand", l."type"
     FROM "location_stock" s JOIN "locations" l ON l."id" = s."location_id"
     WHERE s."warehouse_id" = ? AND s."product_id" IN (SELECT value FROM ${st.dialect.jsonSql.values}) AND s."on_hand" > 0
     ORDER BY l."pick_sequence", s."created_at", s."id"`,
    [warehouseId, JSON.stringify(productIds)],
  );
  return rows.map((r) => ({ ...r, on_hand: st.dialect.int(r.on_hand) }));
}

/** Units out of bin rows, [row id, units] each, in ONE compare-and-set UPDATE (never below zero); the count of rows it changed. */
export async function takeFromStocks(st: Statements, takes: Array<[string, number]>, now: Date): Promise<number> {
  const cols = [col('id'), col('q', 'INTEGER')];
  return st.run(
    `WITH "v" AS (${jsonRowsSql(st.dialect.provider, cols)})
     UPDATE "location_stock" SET "on_hand" = "location_stock"."on_hand" - v."q", "updated_at" = ?
     FROM "v" WHERE "location_stock"."id" = v."id" AND "location_stock"."on_hand" >= v."q"`,
    [JSON.stringify(takes), now],
  );
}
