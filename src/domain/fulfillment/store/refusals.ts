import type { Db, TxClient } from '../../../db/types.js';

// The reads that explain a refused fulfill or cancel (fulfill-refusals.ts, fulfill.ts,
// cancel.ts): made only after a compare-and-set matched nothing, so a write that succeeds reads
// none of them. What each refusal says stays in those files.

type Client = Db['prisma'] | TxClient;

/** The package's status (null: no such package). */
export function findPackageStatus(client: Client, id: string) {
  return client.package.findUnique({ where: { id }, select: { status: true } });
}

/** The package's status; throws when there is no such package. */
export function findPackageStatusOrThrow(tx: TxClient, id: string) {
  return tx.package.findUniqueOrThrow({ where: { id }, select: { status: true } });
}

/** The team's package with what a refused fulfill is explained by. */
export function findPackageForRefusal(tx: TxClient, teamId: string, id: string) {
  return tx.package.findFirst({
    where: { id, fulfiller_team_id: teamId },
    select: { status: true, shipment_status: true, fulfillment_order_id: true },
  });
}

/** The team's fulfillment order's status, lock and order. */
export function findFulfillmentOrderState(tx: TxClient, teamId: string, id: string) {
  return tx.fulfillmentOrder.findFirst({
    where: { id, fulfiller_team_id: teamId },
    select: { status: true, lock_owner: true, lock_expires_at: true, order_id: true },
  });
}

/** The fulfillment order's line of this id (null: no line of this order). */
export function findFulfillmentOrderLine(tx: TxClient, foId: string, lineId: string) {
  return tx.fulfillmentOrderLineItem.findFirst({ where: { id: lineId, fulfillment_order_id: foId } });
}

/** The order number of the fulfillment order's order. */
export function findFulfillmentOrderOrderNumber(tx: TxClient, foId: string) {
  return tx.fulfillmentOrder.findUniqueOrThrow({ where: { id: foId }, select: { order: { select: { order_number: true } } } });
}

/** The warehouse's levels of these products, in id order. */
export function findLevelsOfProducts(tx: TxClient, warehouseId: string, productIds: string[]) {
  return tx.inventoryLevel.findMany({
    where: { warehouse_id: warehouseId, product_id: { in: productIds } },
    orderBy: { id: 'asc' },
  });
}
