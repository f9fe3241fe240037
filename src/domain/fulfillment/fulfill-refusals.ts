import type { TxClient } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { namedFulfillmentOrder, refusalNames } from '../names/index.js';
import { assertNoActiveHold } from '../orders/index.js';
import { activeLock, LOCKABLE } from './fulfillment-orders.js';
import { lockHeld } from './locks.js';
import {
  findFulfillmentOrderLine,
  findFulfillmentOrderOrderNumber,
  findFulfillmentOrderState,
  findLevelsOfProducts,
  findPackageForRefusal,
} from './store/refusals.js';

// Why a fulfill was refused: read only after a compare-and-set matched nothing, on the way to a
// 409 or 404 (fulfill.ts), so a fulfill that succeeds reads none of it.

export const noLabel = (packageId: string) =>
  conflict(`Package ${packageId} has no shipping label; label it first (POST /v1/ops/packages/${packageId}/label).`);

/** Why the fulfill's compare-and-set on the fulfillment order matched nothing (the package's own state first). */
export async function explainFulfillRefusal(tx: TxClient, teamId: string, packageId: string, lockedBy: string, now: Date): Promise<never> {
  // Sequential: a transaction is one connection (pg deprecates overlapping queries on a client).
  const pkg = await findPackageForRefusal(tx, teamId, packageId);
  if (!pkg) throw notFound('Package', packageId);
  const foId = pkg.fulfillment_order_id;
  if (!foId) throw conflict(`Package ${packageId} does not belong to a fulfillment order.`);
  if (pkg.status === 'FULFILLED') throw conflict(`Package ${packageId} is already fulfilled.`);
  const fo = await findFulfillmentOrderState(tx, teamId, foId);
  if (!fo) throw notFound('Fulfillment order', foId);
  const named = await namedFulfillmentOrder(tx, foId);
  if (!LOCKABLE.includes(fo.status)) {
    throw conflict(`${named} is ${fo.status}; only ACCEPTED or IN_PROGRESS fulfillment orders are fulfilled.`, {
      fulfillment_order_status: fo.status,
    });
  }
  const lock = activeLock(fo, now);
  if (lock && lock.lock_owner !== lockedBy) throw await lockHeld(tx, foId, lock);
  if (lock) {
    // The lock is the caller's, so what stopped it is the package's label or a hold on the order.
    if (pkg.status === 'PENDING' && !pkg.shipment_status) throw noLabel(packageId);
    await assertNoActiveHold(tx, fo.order_id);
    throw conflict(`${named} changed while package ${packageId} was being fulfilled; try again.`);
  }
  const why = fo.lock_owner === lockedBy ? `the lock of "${lockedBy}" expired` : 'it is not locked';
  throw conflict(
    `${named} must be locked by "${lockedBy}" to fulfill package ${packageId}, but ${why}; lock it first (POST /v1/ops/fulfillment-orders/${foId}/lock).`,
  );
}

/** Why a fulfillment order's line could not give what the package ships: no line of this order, or too little left. */
export async function explainShortFoLine(
  tx: TxClient,
  foId: string,
  lineId: string,
  quantity: number,
  packageLine: { id: string; sku: string | null; name: string | null },
): Promise<never> {
  const line = await findFulfillmentOrderLine(tx, foId, lineId);
  const fo = (await refusalNames(tx, { fulfillmentOrders: [foId] })).fulfillmentOrder(foId);
  if (!line) throw notOfFo(packageLine, fo);
  if (line.short_quantity > 0 && quantity > line.remaining_quantity - line.short_quantity)
    throw await shortfallRefusal(tx, foId, line, quantity);
  throw conflict(`${line.sku ?? line.name}: package holds ${quantity} but only ${line.remaining_quantity} remain to fulfill on ${fo}.`);
}

/**
 * A package that would ship units recorded short (a short pick or pack): refused, naming the SKU,
 * the order number and the shortfall, with the way out (split the short units off, then ship the rest).
 */
async function shortfallRefusal(
  tx: TxClient,
  foId: string,
  line: { sku: string | null; name: string; remaining_quantity: number; short_quantity: number },
  quantity: number,
) {
  const fo = await findFulfillmentOrderOrderNumber(tx, foId);
  const sku = line.sku ?? line.name;
  const found = line.remaining_quantity - line.short_quantity;
  return conflict(
    `${sku} of order ${fo.order.order_number} is short ${line.short_quantity}: the package holds ${quantity} but only ${found} were found. ` +
      `Split the short units off (POST /v1/ops/fulfillment-orders/${foId}/split-shortfall, or fos fulfill run --partial) and ship what was found.`,
    { sku, order_number: fo.order.order_number, fulfillment_order_id: foId, short_quantity: line.short_quantity, found_quantity: found },
  );
}

/** `fo`: the fulfillment order as a refusal names it (refusalNames: `fulfillment order <id> (order #1007)`). */
export const notOfFo = (i: { id: string; sku: string | null; name: string | null }, fo: string) =>
  conflict(`Package line ${i.id} (${i.sku ?? i.name}) is not a line item of ${fo}.`);

/** Why the warehouse's inventory could not give what the package ships: a product without a level, else the first short one. */
export async function explainShortStock(tx: TxClient, warehouseId: string, short: string[], need: Map<string, number>): Promise<never> {
  const found = await findLevelsOfProducts(tx, warehouseId, short);
  const missing = short.find((p) => !found.some((l) => l.product_id === p));
  const level = found[0];
  const n = await refusalNames(tx, { warehouses: [warehouseId], products: [missing ?? level.product_id] });
  if (missing) throw conflict(`${n.warehouse(warehouseId)} has no inventory of ${n.product(missing)}.`);
  throw conflict(
    `${n.warehouse(warehouseId)} is short of ${n.product(level.product_id)}: ${need.get(level.product_id)} to ship, on_hand ${level.on_hand}, committed ${level.committed}.`,
  );
}
