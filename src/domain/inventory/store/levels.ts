import { join, sqltag as sql } from '@prisma/client/runtime/client';
import { caseBy, placeholders } from '../../../db/dialect.js';
import { boundStatements, lockInOrder, portableStatementsOf } from '../../../db/statements.js';
import type { TxClient } from '../../../db/types.js';
import { BUCKETS, type Bucket } from '../../../contract/inventory-enums.js';

// The inventory levels' statements (issue 24 item 1): the guarded UPDATEs of the ledger
// (ledger.ts, ledger-bulk.ts), the level and warehouse locks, and the below-minimum read.

export type BucketDeltas = Record<Bucket, number>;

export interface MovedLevel {
  id: string;
  product_id: string;
  warehouse_id: string;
  sku?: string | null;
}

/**
 * PostgreSQL: the row locks of these levels, in id order (the one order every path takes levels
 * in); nothing on SQLite, where the transaction's first write holds the database.
 */
export async function lockLevelsInOrder(tx: TxClient, levelIds: string[]): Promise<void> {
  const st = boundStatements(tx);
  const ids = [...new Set(levelIds)];
  if (st && ids.length) await lockInOrder(st, 'inventory_levels', `"id" IN (${placeholders(ids.length)})`, ids);
}

/** Takes the level's row lock (PostgreSQL) with a no-op UPDATE. */
export async function touchLevel(tx: TxClient, levelId: string) {
  await tx.$executeRaw`UPDATE "inventory_levels" SET "id" = "id" WHERE "id" = ${levelId}`;
}

/**
 * One level moved by `d` where every bucket stays >= 0, committed + unavailable <= on_hand when
 * `sellable`, and on_hand is still `onHandIs` when given (a guard that is off compares 0 = 0, so
 * one statement serves every combination). Returns the count of rows it changed (0 or 1).
 */
export async function updateLevelGuarded(
  tx: TxClient,
  levelId: string,
  d: BucketDeltas,
  guards: { sellable: boolean; onHandIs?: number },
  now: Date,
): Promise<number> {
  const sellable = guards.sellable ? 1 : 0;
  const expect = guards.onHandIs === undefined ? 0 : 1;
  const onHandIs = guards.onHandIs ?? 0;
  return tx.$executeRaw`
      UPDATE "inventory_levels" SET "on_hand" = "on_hand" + ${d.on_hand}, "committed" = "committed" + ${d.committed},
        "unavailable" = "unavailable" + ${d.unavailable}, "on_order" = "on_order" + ${d.on_order}, "updated_at" = ${now}
      WHERE "id" = ${levelId} AND "on_hand" + ${d.on_hand} >= 0 AND "committed" + ${d.committed} >= 0
        AND "unavailable" + ${d.unavailable} >= 0 AND "on_order" + ${d.on_order} >= 0
        AND (${sellable} = 0 OR "committed" + ${d.committed} + "unavailable" + ${d.unavailable} <= "on_hand" + ${d.on_hand})
        AND (${expect} = 0 OR "on_hand" = ${onHandIs})`;
}

/**
 * The levels of these products at the warehouse, each moved by its own deltas (a CASE per bucket)
 * where every bucket stays >= 0, in ONE UPDATE; returns the levels it moved with their product's SKU.
 * A bucket no product moves is left out of the statement (it cannot go below zero by not moving).
 */
export async function updateProductLevels(
  tx: TxClient,
  warehouseId: string,
  moving: Array<{ productId: string; d: BucketDeltas }>,
  now: Date,
  levelsLocked = false,
): Promise<MovedLevel[]> {
  const buckets = BUCKETS.filter((b) => moving.some((c) => c.d[b] !== 0));
  const delta = new Map(
    buckets.map((b) => [
      b,
      caseBy(
        'product_id',
        moving.map((c) => [c.productId, c.d[b]] as const),
      ),
    ]),
  );
  // PostgreSQL: the rows locked in id order first (the UPDATE's own scan takes them in the plan's
  // order: two fulfills of the same SKUs deadlocked on it, issue 36). One row needs no order.
  const st = boundStatements(tx);
  if (st && moving.length > 1 && !levelsLocked)
    await lockInOrder(st, 'inventory_levels', `"warehouse_id" = ? AND "product_id" IN (${placeholders(moving.length)})`, [
      warehouseId,
      ...moving.map((c) => c.productId),
    ]);
  const set = buckets.map((b) => `"${b}" = "${b}" + ${delta.get(b)!.sql}`);
  const guards = buckets.map((b) => `"${b}" + ${delta.get(b)!.sql} >= 0`);
  return portableStatementsOf(tx).all<MovedLevel>(
    `UPDATE "inventory_levels" SET ${set.join(', ')}, "updated_at" = ?
      WHERE "warehouse_id" = ? AND "product_id" IN (${placeholders(moving.length)}) AND ${guards.join(' AND ')}
      RETURNING "id", "product_id", "warehouse_id", (SELECT p."sku" FROM "products" p WHERE p."id" = "inventory_levels"."product_id") AS "sku"`,
    [
      ...buckets.flatMap((b) => delta.get(b)!.params),
      now,
      warehouseId,
      ...moving.map((c) => c.productId),
      ...buckets.flatMap((b) => delta.get(b)!.params),
    ],
  );
}

/** A page of ids of levels whose position (available + on_order) is below their product's minimum_level, by id. */
export async function levelIdsBelowMinimum(
  client: TxClient,
  warehouseIds: string[],
  q: { product_id?: string[]; sku?: string; after: string | null; limit: number; offset: number },
): Promise<string[]> {
  const rows = await client.$queryRaw<{ id: string }[]>`
    SELECT l."id" FROM "inventory_levels" l JOIN "products" p ON p."id" = l."product_id"
    WHERE l."warehouse_id" IN (${join(warehouseIds)})
      ${q.product_id ? sql`AND l."product_id" IN (${join(q.product_id)})` : sql``}
      ${q.sku ? sql`AND p."sku" = ${q.sku}` : sql``}
      ${q.after !== null ? sql`AND l."id" > ${q.after}` : sql``}
      AND p."minimum_level" IS NOT NULL
      AND (l."on_hand" - l."committed" - l."unavailable" + l."on_order") < p."minimum_level"
    ORDER BY l."id" LIMIT ${q.limit} OFFSET ${q.offset}`;
  return rows.map((r) => r.id);
}

// Through Prisma: the levels the ledger creates and the figures a refusal or a result reads back.

/** The product's level at the warehouse with the product's SKU, inserted empty when missing (one upsert). */
export function upsertLevel(tx: TxClient, productId: string, warehouseId: string) {
  return tx.inventoryLevel.upsert({
    where: { product_id_warehouse_id: { product_id: productId, warehouse_id: warehouseId } },
    create: { product_id: productId, warehouse_id: warehouseId },
    update: {},
    select: { id: true, product_id: true, warehouse_id: true, product: { select: { sku: true } } },
  });
}

/** The levels of these products at the warehouse that exist (ids). */
export function findLevelRefs(tx: TxClient, warehouseId: string, productIds: string[]) {
  return tx.inventoryLevel.findMany({
    where: { warehouse_id: warehouseId, product_id: { in: productIds } },
    select: { id: true, product_id: true, warehouse_id: true },
  });
}

/** These levels, every column. */
export function findLevels(tx: TxClient, ids: string[]) {
  return tx.inventoryLevel.findMany({ where: { id: { in: ids } } });
}

export function findLevel(tx: TxClient, id: string) {
  return tx.inventoryLevel.findUniqueOrThrow({ where: { id } });
}
