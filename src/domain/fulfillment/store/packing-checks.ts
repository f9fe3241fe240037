import { join } from '@prisma/client/runtime/client';
import { statementsOf } from '../../../db/statements.js';
import type { TxClient } from '../../../db/types.js';
import { NO_ACTIVE_HOLD } from '../../orders/index.js';
import { HELD_LOCATION_TYPES } from '../../../contract/inventory-enums.js';

// The statements of pack scans (pack-scans.ts, pack-checks.ts) and of moves and splits
// (move-split.ts). They run through Prisma's tagged templates on the transaction's client, as they
// did before they were moved here: the same SQL on both databases.

export interface ClaimedBoxRow {
  id: string;
  order_id: string;
  warehouse_id: string;
  tote_id: string | null;
}

/**
 * The packing write's compare-and-set on the fulfillment order: not one of `closed`, no active
 * hold, no lock but `owner`'s; sets packing_started_at when `start` and unset. Undefined: no match.
 */
export async function claimBoxRow(
  tx: TxClient,
  teamId: string,
  foId: string,
  owner: string | null,
  start: boolean,
  now: Date,
  closed: string[],
): Promise<ClaimedBoxRow | undefined> {
  const [row] = await tx.$queryRaw<ClaimedBoxRow[]>`
    UPDATE "fulfillment_orders" SET "updated_at" = ${now},
      "packing_started_at" = COALESCE("packing_started_at", ${start ? now : null})
    WHERE "id" = ${foId} AND "fulfiller_team_id" = ${teamId} AND "status" NOT IN (${join(closed)}) AND ${NO_ACTIVE_HOLD}
      AND ("lock_owner" IS NULL OR "lock_expires_at" IS NULL OR "lock_expires_at" <= ${now} OR "lock_owner" = ${owner ?? ''})
    RETURNING "id", "order_id", "warehouse_id", "tote_id"`;
  return row;
}

export interface ProductCodeRow {
  id: string;
  sku: string | null;
  name: string;
  lot_tracked: boolean | number | null;
}

/** The team's products (at most 20, by id) whose lower-cased barcode or SKU is `c` (already lower-cased). */
export async function productsByCodeRows(tx: TxClient, teamId: string, c: string): Promise<ProductCodeRow[]> {
  return tx.$queryRaw<ProductCodeRow[]>`
    SELECT "id", "sku", "name", "lot_tracked" FROM "products"
    WHERE ("fulfiller_team_id" = ${teamId} OR "team_id" = ${teamId}) AND (LOWER("barcode") = ${c} OR LOWER("sku") = ${c})
    ORDER BY "id" LIMIT 20`;
}

export interface LotRow {
  lot_code: string;
  expiration_date: string | null;
  on_hand: number | bigint;
}

/** The product's lots the warehouse holds outside held (DAMAGED, QUARANTINE) bins (units on hand per lot), soonest expiry first. */
export async function heldLotRows(tx: TxClient, productId: string, warehouseId: string): Promise<LotRow[]> {
  return tx.$queryRaw<LotRow[]>`
    SELECT s."lot_code", s."expiration_date", SUM(s."on_hand") AS "on_hand"
    FROM "location_stock" s JOIN "locations" l ON l."id" = s."location_id"
    WHERE s."product_id" = ${productId} AND s."warehouse_id" = ${warehouseId} AND s."on_hand" > 0 AND l."type" NOT IN (${join(HELD_LOCATION_TYPES)})
    GROUP BY s."lot_code", s."expiration_date"
    ORDER BY s."expiration_date", s."lot_code"`;
}

export interface UntouchedRow {
  id: string;
  order_id: string;
  warehouse_id: string;
  fulfiller_team_id: string;
  merchant_team_id: string;
}

/**
 * A move's or split's compare-and-set on the fulfillment order: one of `movable`, not locked, no
 * package but cancelled ones, nothing fulfilled. Undefined: no match.
 */
export async function claimUntouchedRow(
  tx: TxClient,
  teamId: string,
  id: string,
  now: Date,
  movable: string[],
): Promise<UntouchedRow | undefined> {
  // PostgreSQL: the row lock first, in a statement of its own. The UPDATE's NOT EXISTS reads the
  // UPDATE's snapshot, which is older than a row lock it waits for: a package created (under
  // this same row lock, claimForPacking) by a transaction that committed while this one waited
  // would be missed, and the order moved or split under it (issue 36: 26 of 28 tries). After
  // the lock, the UPDATE's new snapshot sees every package that holder made.
  const lock = statementsOf(tx).dialect.lockRow('fulfillment_orders');
  if (lock) await statementsOf(tx).all(lock, [id]);
  const [fo] = await tx.$queryRaw<UntouchedRow[]>`
    UPDATE "fulfillment_orders" SET "updated_at" = ${now}
    WHERE "id" = ${id} AND "fulfiller_team_id" = ${teamId} AND "status" IN (${join(movable)})
      AND ("lock_owner" IS NULL OR "lock_expires_at" IS NULL OR "lock_expires_at" <= ${now})
      AND NOT EXISTS (SELECT 1 FROM "packages" p WHERE p."fulfillment_order_id" = "fulfillment_orders"."id" AND p."status" <> 'CANCELLED')
      AND NOT EXISTS (SELECT 1 FROM "fulfillment_order_line_items" l WHERE l."fulfillment_order_id" = "fulfillment_orders"."id" AND l."remaining_quantity" < l."quantity")
    RETURNING "id", "order_id", "warehouse_id", "fulfiller_team_id", "merchant_team_id"`;
  return fo;
}
