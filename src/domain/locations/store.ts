import { join } from '@prisma/client/runtime/client';
import type { Db, Prisma, TxClient } from '../../db/types.js';

// The locations area's data access (issues 24 and 38): the putaway rule's reads (putaway.ts), the
// DAMAGED location (held.ts) and the locations' own rows (locations.ts), through SQL or Prisma.
// The rules (unique names and barcodes, the default location's protection) stay in those files.

type Client = Db['prisma'] | TxClient;

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

/** The location's id, name, type and active flag (after the DAMAGED location's insert-or-nothing). */
export function findHeldCandidate(tx: TxClient, id: string) {
  return tx.location.findUnique({ where: { id }, select: { id: true, name: true, type: true, active: true } });
}

export function findLocationName(tx: TxClient, id: string) {
  return tx.location.findUnique({ where: { id }, select: { id: true, name: true } });
}

export function locationTypeExists(tx: TxClient, teamId: string, id: string) {
  return tx.locationType.findFirst({ where: { id, team_id: teamId }, select: { id: true } });
}

/** The first location of the warehouse (other than `exceptId`) using one of these names or barcodes. */
export function findLocationUsing(tx: TxClient, warehouseId: string, names: string[], barcodes: string[], exceptId?: string) {
  return tx.location.findFirst({
    where: {
      warehouse_id: warehouseId,
      ...(exceptId ? { id: { not: exceptId } } : {}),
      OR: [{ name: { in: names } }, ...(barcodes.length ? [{ barcode: { in: barcodes } }] : [])],
    },
    select: { id: true, name: true, barcode: true },
  });
}

/** The warehouse's highest pick_sequence (null: no location). */
export async function maxPickSequence(tx: TxClient, warehouseId: string) {
  const last = await tx.location.aggregate({ where: { warehouse_id: warehouseId }, _max: { pick_sequence: true } });
  return last._max.pick_sequence;
}

export function insertLocations(tx: TxClient, data: Prisma.LocationCreateManyInput[]) {
  return tx.location.createMany({ data });
}

/** These locations by pick_sequence, name. */
export function findLocationsIn(tx: TxClient, ids: string[]) {
  return tx.location.findMany({ where: { id: { in: ids } }, orderBy: [{ pick_sequence: 'asc' }, { name: 'asc' }] });
}

/** One page of locations (pageArgs' window). */
export function findLocationPage(client: Client, window: { where: Prisma.LocationWhereInput; orderBy: never; skip: number; take: number }) {
  return client.location.findMany(window);
}

export function findTeamLocation(client: Client, teamId: string, id: string) {
  return client.location.findFirst({ where: { id, team_id: teamId } });
}

/** Writes the team's location's updated_at (its row lock, first); the count matched (0: not the team's). */
export function touchTeamLocation(tx: TxClient, teamId: string, id: string, now: Date) {
  return tx.location.updateMany({ where: { id, team_id: teamId }, data: { updated_at: now } });
}

export function updateLocationRow(tx: TxClient, id: string, data: Prisma.LocationUpdateInput) {
  return tx.location.update({ where: { id }, data });
}

/** Units the location holds (null: no stock row). */
export async function unitsHeldAt(tx: TxClient, locationId: string) {
  const held = await tx.locationStock.aggregate({ where: { location_id: locationId }, _sum: { on_hand: true } });
  return held._sum.on_hand;
}

/** Deletes the location and its (empty) stock rows. */
export async function deleteLocationRows(tx: TxClient, id: string) {
  await tx.locationStock.deleteMany({ where: { location_id: id } });
  await tx.location.delete({ where: { id } });
}

/** The team's location in the warehouse with this name or barcode (first by name). */
export function findLocationNamed(tx: TxClient, teamId: string, warehouseId: string, ref: string) {
  return tx.location.findFirst({
    where: { warehouse_id: warehouseId, team_id: teamId, OR: [{ name: ref }, { barcode: ref }] },
    orderBy: { name: 'asc' },
  });
}

export function teamWarehouseExists(client: Client, teamId: string, id: string) {
  return client.warehouse.findFirst({ where: { id, team_id: teamId }, select: { id: true } });
}

/** The product's id and SKU if it belongs to one of these teams. */
export function findProductOfTeams(client: Client, teamIds: string[], id: string) {
  return client.product.findFirst({ where: { id, team_id: { in: teamIds } }, select: { id: true, sku: true } });
}
