import { join } from '@prisma/client/runtime/client';
import type { TxClient } from '../../db/types.js';

// The locations' statements (issue 24 item 1): the putaway rule's reads (putaway.ts).

export interface BinRow {
  product_id?: string;
  id: string;
  name: string;
}

/** The active, non-default PICKABLE bins holding units of these products, by pick_sequence, name, id. */
export async function pickableBinsHolding(tx: TxClient, warehouseId: string, productIds: string[]) {
  return tx.$queryRaw<BinRow[]>`
    SELECT s."product_id", l."id", l."name" FROM "location_stock" s JOIN "locations" l ON l."id" = s."location_id"
    WHERE s."warehouse_id" = ${warehouseId} AND s."product_id" IN (${join(productIds)}) AND s."on_hand" > 0
      AND l."type" = 'PICKABLE' AND l."active" = ${true} AND l."is_default" = ${false}
    ORDER BY l."pick_sequence", l."name", l."id"`;
}

/** Up to `limit` active, non-default PICKABLE bins holding nothing, by pick_sequence, name, id. */
export async function emptyPickableBins(tx: TxClient, warehouseId: string, limit: number) {
  return tx.$queryRaw<BinRow[]>`
    SELECT l."id", l."name" FROM "locations" l
    WHERE l."warehouse_id" = ${warehouseId} AND l."type" = 'PICKABLE' AND l."active" = ${true} AND l."is_default" = ${false}
      AND NOT EXISTS (SELECT 1 FROM "location_stock" s WHERE s."location_id" = l."id" AND s."on_hand" > 0)
    ORDER BY l."pick_sequence", l."name", l."id"
    LIMIT ${limit}`;
}

/** The warehouse's first active DAMAGED location by walk order (damaged receipts and returns land there). */
export async function damagedLocationOf(tx: TxClient, warehouseId: string) {
  return tx.location.findFirst({
    where: { warehouse_id: warehouseId, type: 'DAMAGED', active: true },
    orderBy: [{ pick_sequence: 'asc' }, { name: 'asc' }, { id: 'asc' }],
    select: { id: true, name: true, type: true },
  });
}

/** A DAMAGED location named DAMAGED under its fixed id, unless that id or name exists (insert-or-nothing). */
export async function insertDamagedLocation(tx: TxClient, id: string, warehouseId: string, now: Date) {
  await tx.$executeRaw`
    INSERT INTO "locations" ("id", "team_id", "warehouse_id", "name", "type", "pick_sequence", "active", "is_default", "created_at", "updated_at")
    SELECT ${id}, w."team_id", w."id", 'DAMAGED', 'DAMAGED', 0, ${true}, ${false}, ${now}, ${now} FROM "warehouses" w WHERE w."id" = ${warehouseId}
    ON CONFLICT DO NOTHING`;
}
