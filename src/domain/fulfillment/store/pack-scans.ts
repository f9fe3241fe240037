import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The open box's reads and writes (pack-box.ts, pack-scans.ts, pack-checks.ts, pack.ts) besides
// the packing write's claim (packing-checks.ts): the scans, the short units, the totes, and the
// fulfillment order's packing fields.

type Client = Db['prisma'] | TxClient;

/** The scans in the open box (not yet packed), oldest first. */
export function openScans(client: Client, foId: string) {
  return client.packScan.findMany({
    where: { fulfillment_order_id: foId, package_id: null },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
}

export function insertPackScan(tx: TxClient, data: Prisma.PackScanUncheckedCreateInput) {
  return tx.packScan.create({ data });
}

/** Takes the scan out of the open box if it is there (not packed); the count deleted (0 or 1). */
export function deleteOpenScan(tx: TxClient, foId: string, scanId: string) {
  return tx.packScan.deleteMany({ where: { id: scanId, fulfillment_order_id: foId, package_id: null } });
}

/** The package a scan of the fulfillment order went into (null: still in the box); null when there is no such scan. */
export function findScanPackage(tx: TxClient, foId: string, scanId: string) {
  return tx.packScan.findFirst({ where: { id: scanId, fulfillment_order_id: foId }, select: { package_id: true } });
}

/** Puts the open scans into the package, where none was packed meanwhile; the count moved. */
export function packScans(tx: TxClient, scanIds: string[], packageId: string) {
  return tx.packScan.updateMany({ where: { id: { in: scanIds }, package_id: null }, data: { package_id: packageId } });
}

/** Records `quantity` more units of the line as short. */
export function addShortQuantity(tx: TxClient, lineId: string, quantity: number) {
  return tx.fulfillmentOrderLineItem.update({ where: { id: lineId }, data: { short_quantity: { increment: quantity } } });
}

/** The team's totes whose id or name is `tote`. */
export function findTotesByIdOrName(tx: TxClient, teamId: string, tote: string) {
  return tx.tote.findMany({
    where: { team_id: teamId, OR: [{ id: tote }, { name: tote }] },
    select: { id: true, name: true },
  });
}

export function findToteName(client: Client, id: string) {
  return client.tote.findUnique({ where: { id }, select: { name: true } });
}

export function findOrderNumber(client: Client, orderId: string) {
  return client.order.findUniqueOrThrow({ where: { id: orderId }, select: { order_number: true } });
}

/** When packing of the fulfillment order started (null: not yet). */
export function findPackingStartedAt(client: Client, foId: string) {
  return client.fulfillmentOrder.findUniqueOrThrow({ where: { id: foId }, select: { packing_started_at: true } });
}

/** The fulfillment order's lock and packing start, as a pack checks them. */
export function findPackState(tx: TxClient, foId: string) {
  return tx.fulfillmentOrder.findUniqueOrThrow({
    where: { id: foId },
    select: { lock_owner: true, lock_expires_at: true, packing_started_at: true },
  });
}

/** The fulfillment order's packing fields after a pack (its start, its end, who packed). */
export function setPacked(
  tx: TxClient,
  foId: string,
  data: Pick<
    Prisma.FulfillmentOrderUncheckedUpdateInput,
    'packing_started_at' | 'packing_completed_at' | 'packed_by_user_id' | 'packed_by_user_name'
  >,
) {
  return tx.fulfillmentOrder.update({ where: { id: foId }, data });
}
