import { join } from '@prisma/client/runtime/client';
import type { Db, TxClient } from '../../../db/types.js';
import { NO_ACTIVE_HOLD } from '../../orders/index.js';
import { HELD_LOCATION_TYPES } from '../../../contract/inventory-enums.js';

// The picking area's hand-written statements (waves, scans, the walk), through Prisma's tagged
// templates as before: the same SQL on both databases, on a transaction's client or on db.prisma.

/** A client a read runs on: a transaction's, or the database's outside one. */
export type Client = Db['prisma'] | TxClient;

/**
 * Compare-and-set: the fulfillment order joins the session only if it is still free (in no
 * session, one of `statuses`, not on hold). Its id and tote, or undefined when it was not free.
 */
export async function claimForSessionRow(
  tx: TxClient,
  teamId: string,
  sessionId: string,
  foId: string,
  statuses: string[],
): Promise<{ id: string; tote_id: string | null } | undefined> {
  const [row] = await tx.$queryRaw<{ id: string; tote_id: string | null }[]>`
    UPDATE "fulfillment_orders" SET "picking_session_id" = ${sessionId}, "updated_at" = ${new Date()}
    WHERE "id" = ${foId} AND "fulfiller_team_id" = ${teamId} AND "picking_session_id" IS NULL
      AND "status" IN (${join(statuses)}) AND ${NO_ACTIVE_HOLD}
    RETURNING "id", "tote_id"`;
  return row;
}

/** Takes the session's row (its scans are serialised by it); the number of rows changed (0 or 1). */
export async function touchSessionRow(tx: TxClient, teamId: string, sessionId: string): Promise<number> {
  return tx.$executeRaw`UPDATE "picking_sessions" SET "updated_at" = ${new Date()} WHERE "id" = ${sessionId} AND "team_id" = ${teamId}`;
}

export interface ScanRow {
  fulfillment_order_id: string;
  fulfillment_order_line_item_id: string;
  product_id: string;
  location_id: string;
  lot_code: string;
  expiration_date: string | null;
  quantity: number;
  short: boolean | number;
  line_quantity: number;
  line_remaining: number;
}

/** Pick scans of open fulfillment orders for these products in these warehouses, oldest first, with their lines' figures. */
export async function openScanRows(client: Client, productIds: string[], warehouseIds: string[]): Promise<ScanRow[]> {
  return client.$queryRaw<ScanRow[]>`
    SELECT s."fulfillment_order_id", s."fulfillment_order_line_item_id", s."product_id", s."location_id", s."lot_code",
      s."expiration_date", s."quantity", s."short", li."quantity" AS "line_quantity", li."remaining_quantity" AS "line_remaining"
    FROM "pick_scans" s
      JOIN "fulfillment_order_line_items" li ON li."id" = s."fulfillment_order_line_item_id"
      JOIN "fulfillment_orders" fo ON fo."id" = s."fulfillment_order_id"
    WHERE s."product_id" IN (${join(productIds)}) AND fo."warehouse_id" IN (${join(warehouseIds)})
      AND fo."status" NOT IN ('FULFILLED', 'CANCELLED')
    ORDER BY s."created_at", s."id"`;
}

export interface BinRow {
  id: string;
  product_id: string;
  warehouse_id: string;
  location_id: string;
  lot_code: string;
  expiration_date: string | null;
  on_hand: number;
  name: string;
  type: string;
  pick_sequence: number;
  created_at: Date;
}

/**
 * Stock rows of these products in these warehouses with their bins: those with units outside
 * held (DAMAGED, QUARANTINE) bins, and every row in `locationIds` (bins with open picks), unordered.
 */
export async function binRows(client: Client, productIds: string[], warehouseIds: string[], locationIds: string[]): Promise<BinRow[]> {
  return client.$queryRaw<BinRow[]>`
    SELECT s."id", s."product_id", s."warehouse_id", s."location_id", s."lot_code", s."expiration_date", s."on_hand", s."created_at",
      l."name", l."type", l."pick_sequence"
    FROM "location_stock" s JOIN "locations" l ON l."id" = s."location_id"
    WHERE s."product_id" IN (${join(productIds)}) AND s."warehouse_id" IN (${join(warehouseIds)})
      AND ((s."on_hand" > 0 AND l."type" NOT IN (${join(HELD_LOCATION_TYPES)})) OR s."location_id" IN (${join(locationIds.length ? locationIds : [''])}))`;
}
