import type { Db, Prisma, TxClient } from '../../../db/types.js';

// What the inventory lists read through Prisma (issue 38 item 4): the caller's warehouses, and a
// page of levels, movements or bin rows with what they show of products and bins. The filters,
// the paging and the views stay in levels.ts, movements.ts, bin-stock.ts and replenish.ts.

type Client = Db['prisma'] | TxClient;
type Window<W> = { where: W; orderBy: never; skip: number; take: number };

const ofTeam = (teamId: string, ids?: string[]) => ({ team_id: teamId, ...(ids ? { id: { in: ids } } : {}) });

/** The team's warehouses (of these ids, when given): ids. */
export function findTeamWarehouseIds(client: Client, teamId: string, ids?: string[]) {
  return client.warehouse.findMany({ where: ofTeam(teamId, ids), select: { id: true } });
}

/** The team's warehouses (of these ids, when given): ids and names. */
export function findTeamWarehouses(client: Client, teamId: string, ids?: string[]) {
  return client.warehouse.findMany({ where: ofTeam(teamId, ids), select: { id: true, name: true } });
}

// Levels.

/** What a level shows of its product. */
const levelProduct = {
  product: { select: { sku: true, name: true, team_id: true, minimum_level: true, maximum_level: true, increment_level: true } },
} as const;

export type LevelWithProduct = Prisma.InventoryLevelGetPayload<{ include: typeof levelProduct }>;

/** These levels with their products, in `orderBy`. */
export function findLevelsWithProduct(client: Client, ids: string[], orderBy: Prisma.InventoryLevelOrderByWithRelationInput[]) {
  return client.inventoryLevel.findMany({ where: { id: { in: ids } }, orderBy, include: levelProduct });
}

/** One page of levels (pageArgs' window) with their products. */
export function findLevelPage(client: Client, window: Window<Prisma.InventoryLevelWhereInput>) {
  return client.inventoryLevel.findMany({ ...window, include: levelProduct });
}

// Movements.

/** One page of movements (pageArgs' window). */
export function findMovementPage(client: Client, window: Window<Prisma.InventoryMovementWhereInput>) {
  return client.inventoryMovement.findMany(window);
}

// Bin rows.

/** Every product with this SKU, whichever team's: ids. */
export function findProductIdsBySku(client: Client, sku: string) {
  return client.product.findMany({ where: { sku }, select: { id: true } });
}

/** The team's bins whose id, name or barcode is `location`: ids. */
export function findBinIdsNamed(client: Client, teamId: string, location: string) {
  return client.location.findMany({
    where: { team_id: teamId, OR: [{ id: location }, { name: location }, { barcode: location }] },
    select: { id: true },
  });
}

/** One page of bin rows (pageArgs' window). */
export function findBinStockPage(client: Client, window: Window<Prisma.LocationStockWhereInput>) {
  return client.locationStock.findMany(window);
}

/** What a bin row shows of these products. */
export function findBinStockProducts(client: Client, ids: string[]) {
  return client.product.findMany({ where: { id: { in: ids } }, select: { id: true, sku: true, name: true, lot_tracked: true } });
}

/** What a bin row shows of these bins. */
export function findBinStockBins(client: Client, ids: string[]) {
  return client.location.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, type: true, pick_sequence: true } });
}
