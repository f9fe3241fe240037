import type { Prisma, TxClient } from '../../../db/types.js';
import type { Client } from './sql.js';

// The pick scans' and the walk's Prisma reads and writes (issue 38 item 4): what a scan resolves
// (bins, products, stock), the scans themselves, and what the walk and packing read of them. The
// rules (what a scan may take, shortfalls) stay in scans.ts, pick-list.ts and picked-lines.ts.

/**
 * The session's open fulfillment orders in the wave's order (priority first, then oldest: the walk
 * serves them so, and a bin short of units shorts the lowest priority), with their lines that have
 * a product and their order numbers.
 */
export function findSessionOpenOrders(client: Client, teamId: string, sessionId: string) {
  return client.fulfillmentOrder.findMany({
    where: { picking_session_id: sessionId, fulfiller_team_id: teamId, status: { notIn: ['FULFILLED', 'CANCELLED'] } },
    orderBy: [{ order: { priority_rank: 'desc' } }, { created_at: 'asc' }, { id: 'asc' }],
    include: {
      line_items: { where: { product_id: { not: null } }, orderBy: [{ created_at: 'asc' }, { id: 'asc' }] },
      order: { select: { order_number: true } },
    },
  });
}

/** What the walk shows of these products. */
export function findWalkProducts(client: Client, ids: string[]) {
  return client.product.findMany({ where: { id: { in: ids } }, select: { id: true, sku: true, name: true, barcode: true } });
}

export function findToteNames(client: Client, ids: string[]) {
  return client.tote.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

/** The team's bins of these warehouses with this name or barcode. */
export function findBinsByCode(tx: TxClient, teamId: string, warehouseIds: string[], code: string) {
  return tx.location.findMany({
    where: { team_id: teamId, warehouse_id: { in: warehouseIds }, OR: [{ name: code }, { barcode: code }] },
    select: { id: true, name: true, warehouse_id: true },
  });
}

/** A product the team owns or fulfills with this barcode or SKU. */
export function findProductByCode(tx: TxClient, teamId: string, code: string) {
  return tx.product.findFirst({
    where: { OR: [{ team_id: teamId }, { fulfiller_team_id: teamId }], AND: [{ OR: [{ barcode: code }, { sku: code }] }] },
    select: { id: true, sku: true },
  });
}

export function findLocationWarehouse(tx: TxClient, id: string) {
  return tx.location.findUniqueOrThrow({ where: { id }, select: { warehouse_id: true } });
}

export function findLotStock(tx: TxClient, productId: string, locationId: string, lotCode: string) {
  return tx.locationStock.findFirst({ where: { product_id: productId, location_id: locationId, lot_code: lotCode } });
}

/** The order's lines of the product, oldest first: their quantities. */
export function findProductLines(tx: TxClient, foId: string, productId: string) {
  return tx.fulfillmentOrderLineItem.findMany({
    where: { fulfillment_order_id: foId, product_id: productId },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
    select: { id: true, quantity: true, remaining_quantity: true },
  });
}

/** Picked (not short) units of the order per line. */
export function sumPickedByLine(tx: TxClient, foId: string) {
  return tx.pickScan.groupBy({
    by: ['fulfillment_order_line_item_id'],
    where: { fulfillment_order_id: foId, short: false },
    _sum: { quantity: true },
  });
}

export function findLineShort(tx: TxClient, lineId: string) {
  return tx.fulfillmentOrderLineItem.findUniqueOrThrow({
    where: { id: lineId },
    select: { remaining_quantity: true, short_quantity: true },
  });
}

export function setLineShort(tx: TxClient, lineId: string, units: number) {
  return tx.fulfillmentOrderLineItem.update({ where: { id: lineId }, data: { short_quantity: units } });
}

export function insertScan(tx: TxClient, data: Prisma.PickScanUncheckedCreateInput) {
  return tx.pickScan.create({ data });
}

export function updateOrderPicking(tx: TxClient, foId: string, data: Prisma.FulfillmentOrderUpdateInput) {
  return tx.fulfillmentOrder.update({ where: { id: foId }, data });
}

/** Asks for a count of the bin (a short pick found fewer units than expected). */
export function requestBinCount(tx: TxClient, locationId: string, now: Date) {
  return tx.location.update({ where: { id: locationId }, data: { count_requested_at: now } });
}

export function findSessionScan(tx: TxClient, teamId: string, sessionId: string, id: string) {
  return tx.pickScan.findFirst({ where: { id, picking_session_id: sessionId, team_id: teamId } });
}

export function findOrderStatus(tx: TxClient, foId: string) {
  return tx.fulfillmentOrder.findUniqueOrThrow({ where: { id: foId }, select: { status: true } });
}

export function deleteScan(tx: TxClient, id: string) {
  return tx.pickScan.delete({ where: { id } });
}

export function countShortScans(tx: TxClient, foId: string) {
  return tx.pickScan.count({ where: { fulfillment_order_id: foId, short: true } });
}

// Packing's view of the picks.

/** The order's picked (not short) scans, oldest first. */
export function findPickedScans(tx: TxClient, foId: string) {
  return tx.pickScan.findMany({ where: { fulfillment_order_id: foId, short: false }, orderBy: [{ created_at: 'asc' }, { id: 'asc' }] });
}

/** The order's packed units taken from a bin: line, bin, lot and quantity. */
export function findPackedFromBins(tx: TxClient, foId: string) {
  return tx.packageLineItem.findMany({
    where: { package: { fulfillment_order_id: foId }, location_id: { not: null } },
    select: { core_fulfillment_order_line_item_id: true, location_id: true, lot_code: true, quantity: true },
  });
}
