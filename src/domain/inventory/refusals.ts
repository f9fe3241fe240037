import type { Db, TxClient } from '../../db/types.js';
import { conflict, type DomainError } from '../errors.js';
import { refusalNames } from '../names/index.js';

// Refusals of the stock paths that several areas raise alike, naming records by their human keys
// (SKU, warehouse name) beside the ids; looked up only when refusing.

/** A release of committed units found fewer committed than it releases (cancel, edit, move). */
export async function notCommitted(
  client: Db['prisma'] | TxClient,
  productId: string,
  warehouseId: string,
  quantity: number,
  verb: string,
): Promise<DomainError> {
  const n = await refusalNames(client, { products: [productId], warehouses: [warehouseId] });
  return conflict(
    `Inventory of ${n.product(productId)} at ${n.warehouse(warehouseId)} has less than ${quantity} committed; it cannot be ${verb}.`,
    {
      product_id: productId,
      warehouse_id: warehouseId,
    },
  );
}
