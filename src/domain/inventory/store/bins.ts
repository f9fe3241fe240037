import { randomUUID } from 'node:crypto';
import { join, sqltag as sql } from '@prisma/client/runtime/client';
import { caseBy, placeholders } from '../../../db/dialect.js';
import { portableStatementsOf } from '../../../db/statements.js';
import type { TxClient } from '../../../db/types.js';

// The bins' statements (issue 24 item 1): location_stock rows of product, bin and lot written by
// the ledger (bins.ts, ledger-bulk.ts) and read by the replenishment list (replenish.ts).

export interface StockRow {
  id: string;
  location_id: string;
  lot_code: string;
  expiration_date: string | null;
  on_hand: number;
  type: string;
}

export interface StockIn {
  product_id: string;
  warehouse_id: string;
  location_id: string;
  lot_code: string;
  expiration_date: string | null;
  quantity: number;
}

/** Units into one bin row: inserted, or added to the row of (product, bin, lot). One statement. */
export async function upsertStock(tx: TxClient, r: StockIn, now: Date) {
  const [row] = await tx.$queryRaw<{ id: string; expiration_date: string | null }[]>`
    INSERT INTO "location_stock" ("id", "product_id", "warehouse_id", "location_id", "lot_code", "expiration_date", "on_hand", "created_at", "updated_at")
    VALUES (${randomUUID()}, ${r.product_id}, ${r.warehouse_id}, ${r.location_id}, ${r.lot_code}, ${r.expiration_date}, ${r.quantity}, ${now}, ${now})
    ON CONFLICT ("product_id", "location_id", "lot_code") DO UPDATE SET "on_hand" = "location_stock"."on_hand" + ${r.quantity},
      "expiration_date" = COALESCE(${r.expiration_date}, "location_stock"."expiration_date"), "updated_at" = ${now}
    RETURNING "id", "expiration_date"`;
  return row;
}

/** The bin rows of a product in a warehouse holding stock (optionally of one bin, one lot), by pick_sequence then age. */
export async function stockRows(
  tx: TxClient,
  productId: string,
  warehouseId: string,
  filter: { location_id?: string; lot_code?: string | null },
) {
  const params: unknown[] = [productId, warehouseId];
  if (filter.location_id) params.push(filter.location_id);
  if (filter.lot_code) params.push(filter.lot_code);
  return portableStatementsOf(tx).all<StockRow>(
    `SELECT s."id", s."location_id", s."lot_code", s."expiration_date", s."on_hand", l."type"
    FROM "location_stock" s JOIN "locations" l ON l."id" = s."location_id"
    WHERE s."product_id" = ? AND s."warehouse_id" = ? AND s."on_hand" > 0${filter.location_id ? ' AND s."location_id" = ?' : ''}${filter.lot_code ? ' AND s."lot_code" = ?' : ''}
    ORDER BY l."pick_sequence", s."created_at", s."id"`,
    params,
  );
}

/**
 * The bin rows holding stock of several products in a warehouse (by product, then pick_sequence,
 * then age) and each product's level on_hand and the sum of its bins, in one statement.
 */
export async function stockOfProducts(tx: TxClient, warehouseId: string, productIds: string[]) {
  type Row = StockRow & { product_id: string; level_on_hand: unknown; bins_on_hand: unknown };
  const rows = await portableStatementsOf(tx).all<Row>(
    `SELECT l."product_id", l."on_hand" AS "level_on_hand",
      (SELECT COALESCE(SUM(b."on_hand"), 0) FROM "location_stock" b WHERE b."product_id" = l."product_id" AND b."warehouse_id" = l."warehouse_id") AS "bins_on_hand",
      s."id", s."location_id", s."lot_code", s."expiration_date", s."on_hand", loc."type"
    FROM "inventory_levels" l
    LEFT JOIN "location_stock" s ON s."product_id" = l."product_id" AND s."warehouse_id" = l."warehouse_id" AND s."on_hand" > 0
    LEFT JOIN "locations" loc ON loc."id" = s."location_id"
    WHERE l."warehouse_id" = ? AND l."product_id" IN (${placeholders(productIds.length)})
    ORDER BY l."product_id", loc."pick_sequence", s."created_at", s."id"`,
    [warehouseId, ...productIds],
  );
  const out = new Map<string, { rows: StockRow[]; onHand: { level: number; bins: number } }>();
  for (const r of rows) {
    let p = out.get(r.product_id);
    // PostgreSQL's SUM is a bigint: a BigInt or a string.
    if (!p) out.set(r.product_id, (p = { rows: [], onHand: { level: Number(r.level_on_hand), bins: Number(r.bins_on_hand) } }));
    if (r.id)
      p.rows.push({
        id: r.id,
        location_id: r.location_id,
        lot_code: r.lot_code,
        expiration_date: r.expiration_date,
        on_hand: r.on_hand,
        type: r.type,
      });
  }
  return out;
}

/** Units out of bin rows, [row id, units] each, in one compare-and-set UPDATE; the count of rows it changed. */
export async function takeFromStock(tx: TxClient, takes: Array<readonly [string, number]>): Promise<number> {
  const q = caseBy('id', takes);
  return portableStatementsOf(tx).run(
    `UPDATE "location_stock" SET "on_hand" = "on_hand" - ${q.sql}, "updated_at" = ?
    WHERE "id" IN (${placeholders(takes.length)}) AND "on_hand" >= ${q.sql}`,
    [...q.params, new Date(), ...takes.map(([id]) => id), ...q.params],
  );
}

/** A level's on_hand (0 without a level) and the sum of its bins, in one statement. */
export async function levelAndBinsOnHand(tx: TxClient, productId: string, warehouseId: string) {
  const [row] = await portableStatementsOf(tx).all<{ level: unknown; bins: unknown }>(
    `SELECT COALESCE((SELECT "on_hand" FROM "inventory_levels" WHERE "product_id" = ? AND "warehouse_id" = ?), 0) AS "level",
      COALESCE((SELECT SUM("on_hand") FROM "location_stock" WHERE "product_id" = ? AND "warehouse_id" = ?), 0) AS "bins"`,
    [productId, warehouseId, productId, warehouseId],
  );
  // PostgreSQL's SUM is a bigint: a BigInt or a string.
  return { level: Number(row?.level ?? 0), bins: Number(row?.bins ?? 0) };
}

export interface Pair {
  warehouse_id: string;
  product_id: string;
}

export interface BinStockRow extends Pair {
  location_id: string;
  name: string;
  type: string;
  lot_code: string;
  expiration_date: string | null;
  on_hand: number;
}

/** Up to `limit` (warehouse, product) pairs after `after` whose OVERSTOCK bins hold units, in key order. */
export async function overstockPairs(
  client: TxClient,
  warehouses: string[],
  products: string[] | undefined,
  after: [string, string] | null,
  limit: number,
) {
  return client.$queryRaw<Pair[]>`
    SELECT DISTINCT s."warehouse_id", s."product_id" FROM "location_stock" s JOIN "locations" l ON l."id" = s."location_id"
    WHERE s."warehouse_id" IN (${join(warehouses)}) AND s."on_hand" > 0 AND l."type" = 'OVERSTOCK'
      ${products ? sql`AND s."product_id" IN (${join(products)})` : sql``}
      ${after ? sql`AND (s."warehouse_id" > ${after[0]} OR (s."warehouse_id" = ${after[0]} AND s."product_id" > ${after[1]}))` : sql``}
    ORDER BY s."warehouse_id", s."product_id"
    LIMIT ${limit}`;
}

/** The PICKABLE and OVERSTOCK bin rows holding units of these products in these warehouses, by pick_sequence then age. */
export function pickableAndOverstock(client: TxClient, warehouseIds: string[], productIds: string[]) {
  return client.$queryRaw<BinStockRow[]>`
      SELECT s."warehouse_id", s."product_id", s."location_id", l."name", l."type", s."lot_code", s."expiration_date", s."on_hand"
      FROM "location_stock" s JOIN "locations" l ON l."id" = s."location_id"
      WHERE s."warehouse_id" IN (${join(warehouseIds)}) AND s."product_id" IN (${join(productIds)}) AND s."on_hand" > 0
        AND l."type" IN ('PICKABLE', 'OVERSTOCK')
      ORDER BY l."pick_sequence", s."created_at", s."id"`;
}

/** The units of a product in one bin (of one lot, when given), through Prisma: 0 for none. */
export async function binOnHand(tx: TxClient, productId: string, locationId: string, lotCode: string | undefined): Promise<number> {
  const held = await tx.locationStock.aggregate({
    where: { product_id: productId, location_id: locationId, ...(lotCode ? { lot_code: lotCode } : {}) },
    _sum: { on_hand: true },
  });
  return held._sum.on_hand ?? 0;
}

/** Clears the bin's count request (a short pick's mark) when it has one. */
export function clearCountRequest(tx: TxClient, locationId: string) {
  return tx.location.updateMany({ where: { id: locationId, count_requested_at: { not: null } }, data: { count_requested_at: null } });
}
