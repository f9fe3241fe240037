import type { TxClient } from '../../db/types.js';

// The warehouses area's statements: the write claim every stock change starts with, and the
// default location each warehouse has.

/** The warehouse claimed with a no-op UPDATE (of `teamId` when given); the count of rows it matched. */
export async function touchWarehouse(tx: TxClient, warehouseId: string, teamId?: string): Promise<number> {
  return teamId === undefined
    ? await tx.$executeRaw`UPDATE "warehouses" SET "id" = "id" WHERE "id" = ${warehouseId}`
    : await tx.$executeRaw`UPDATE "warehouses" SET "id" = "id" WHERE "id" = ${warehouseId} AND "team_id" = ${teamId}`;
}

/** The warehouse's default location under its fixed id, unless it exists (insert-or-nothing). */
export async function insertDefaultLocation(tx: TxClient, id: string, warehouseId: string, now: Date) {
  await tx.$executeRaw`
    INSERT INTO "locations" ("id", "team_id", "warehouse_id", "name", "type", "pick_sequence", "active", "is_default", "created_at", "updated_at")
    SELECT ${id}, w."team_id", w."id", 'DEFAULT', 'PICKABLE', 0, ${true}, ${true}, ${now}, ${now} FROM "warehouses" w WHERE w."id" = ${warehouseId}
    ON CONFLICT DO NOTHING`;
}
