import { randomUUID } from 'node:crypto';
import type { Db, TxClient } from '../../../db/types.js';

// What a stock pass reads and writes (stock.ts; issue 38 item 4): the shop's listing variants,
// the stock of their products, and the last figure pushed per product (channel_stock_pushes).
// Each function is one statement on the client or transaction given.

type Client = Db['prisma'] | TxClient;

/** A push's outcome: the figure pushed, or the error and when to try again. */
export interface StockPushFields {
  last_error: string | null;
  attempts: number;
  due_at: Date;
  dirty: boolean;
  pushed_at?: Date;
  pushed_qty?: number;
}

export function listingVariantsOfShop(client: Client, shopId: string) {
  return client.productListingVariant.findMany({ where: { shop_id: shopId } });
}

/** on_hand, committed and unavailable summed per product (over one warehouse when given, else all). */
export function stockOfProducts(client: Client, productIds: string[], warehouseId: string | null) {
  return client.inventoryLevel.groupBy({
    by: ['product_id'],
    where: { product_id: { in: productIds }, ...(warehouseId ? { warehouse_id: warehouseId } : {}) },
    _sum: { on_hand: true, committed: true, unavailable: true },
  });
}

/** The last pushes of these products to the shop. */
export function stockPushesOf(client: Client, shopId: string, productIds: string[]) {
  return client.channelStockPush.findMany({ where: { shop_id: shopId, product_id: { in: productIds } } });
}

/** The push of a product to the shop written (created with a new id when it has none). */
export function saveStockPush(client: Client, shopId: string, productId: string, data: StockPushFields) {
  return client.channelStockPush.upsert({
    where: { shop_id_product_id: { shop_id: shopId, product_id: productId } },
    create: { id: randomUUID(), shop_id: shopId, product_id: productId, ...data },
    update: data,
  });
}
