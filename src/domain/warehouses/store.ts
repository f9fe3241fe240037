import type { Db, Prisma, TxClient } from '../../db/types.js';

// The warehouses area's data access (issue 38 item 4): the write claim every stock change starts
// with, the default location each warehouse has, and the warehouses as the API reads and sets them.

type Client = Db['prisma'] | TxClient;

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

/** The warehouse's id, name and team (after its claim). */
export function findClaimedWarehouse(tx: TxClient, warehouseId: string) {
  return tx.warehouse.findUnique({ where: { id: warehouseId }, select: { id: true, name: true, team_id: true } });
}

/** A warehouse as the API shows it. */
const warehouseSelect = {
  id: true,
  name: true,
  address1: true,
  city: true,
  state: true,
  zip: true,
  country: true,
  label_format: true,
  time_zone: true,
  created_at: true,
  updated_at: true,
} as const;

/** One page of warehouses (pageArgs' window), as the API shows them. */
export function findWarehousePage(
  client: Client,
  window: { where: Prisma.WarehouseWhereInput; orderBy: never; skip: number; take: number },
) {
  return client.warehouse.findMany({ ...window, select: warehouseSelect });
}

export function findTeamWarehouse(client: Client, teamId: string, id: string) {
  return client.warehouse.findFirst({ where: { id, team_id: teamId }, select: warehouseSelect });
}

/** Updates the team's warehouse; the count changed (0: not the team's). */
export function updateTeamWarehouse(client: Client, teamId: string, id: string, data: Prisma.WarehouseUpdateManyMutationInput) {
  return client.warehouse.updateMany({ where: { id, team_id: teamId }, data });
}
