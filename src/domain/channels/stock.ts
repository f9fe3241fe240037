import type { Db, ShopConnection } from '../../db/types.js';
import { connectorFor, openConnection } from './connection.js';
import type { ChannelEnv } from '../../connectors/channels/http.js';
import { activeConnections, claimLease, releaseLease, updateConnectionById } from './store/connections.js';
import { listingVariantsOfShop, saveStockPush, stockOfProducts, stockPushesOf } from './store/stock.js';

// Stock out: each connected shop is told the available quantity (on_hand - committed -
// unavailable, of the mapped warehouse or of all) of every product it lists. A pass compares
// today's figure with the last one pushed (channel_stock_pushes) and sends only differences, in
// one call per shop for Shopify (inventorySetQuantities) and one per listing for WooCommerce
// (stock_quantity). Changes between two passes therefore coalesce: a burst of 1,000 fulfills of
// one SKU makes one call per shop. A shop is held by one replica per pass (a short lease on
// the connection, the one syncs use), and a failed push is retried on a later pass with backoff.

const LEASE_MS = 60_000;
const BACKOFF_MS = [30_000, 120_000, 600_000, 3_600_000];

export interface StockPassStats {
  shops: number;
  pushed: number;
  failed: number;
}

async function claim(db: Db, row: ShopConnection, now: Date) {
  const { count } = await claimLease(db.prisma, row.id, now, new Date(now.getTime() + LEASE_MS));
  return count === 1;
}

/** Listed products of the shop whose available figure differs from the last one pushed. */
async function changes(db: Db, row: ShopConnection, now: Date) {
  const listings = await listingVariantsOfShop(db.prisma, row.shop_id);
  if (!listings.length) return [];
  const productIds = [...new Set(listings.map((l) => l.product_id))];
  const warehouseId = (row.settings as { warehouse_id?: string | null } | null)?.warehouse_id ?? null;
  const [levels, pushed] = await Promise.all([
    stockOfProducts(db.prisma, productIds, warehouseId),
    stockPushesOf(db.prisma, row.shop_id, productIds),
  ]);
  const available = new Map(
    levels.map((l) => [l.product_id, Math.max(0, (l._sum.on_hand ?? 0) - (l._sum.committed ?? 0) - (l._sum.unavailable ?? 0))]),
  );
  const last = new Map(pushed.map((p) => [p.product_id, p]));
  return productIds.flatMap((productId) => {
    const qty = available.get(productId) ?? 0;
    const prev = last.get(productId);
    if (prev && prev.pushed_qty === qty) return [];
    if (prev && prev.due_at > now) return []; // backing off after a failure
    return [{ productId, qty, attempts: prev?.attempts ?? 0, listings: listings.filter((l) => l.product_id === productId) }];
  });
}

async function pushShop(db: Db, row: ShopConnection, env: ChannelEnv, now: Date) {
  const todo = await changes(db, row, now);
  if (!todo.length) return { pushed: 0, failed: 0 };
  const conn = openConnection(row, db);
  const items = todo.flatMap((c) =>
    c.listings.map((l) => ({
      remote_id: l.remote_id!,
      listing_id: l.product_listing_id,
      inventory_item_id: l.remote_inventory_item_id,
      quantity: c.qty,
    })),
  );
  let error: string | null = null;
  try {
    await connectorFor(conn.shop_type).setStock(conn, env, items);
  } catch (err) {
    error = (err as Error).message.slice(0, 500);
  }
  for (const c of todo) {
    const attempts = error ? c.attempts + 1 : 0;
    const data = error
      ? {
          last_error: error,
          attempts,
          due_at: new Date(now.getTime() + BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length) - 1]!),
          dirty: true,
        }
      : { last_error: null, attempts: 0, due_at: now, dirty: false, pushed_at: now, pushed_qty: c.qty };
    await saveStockPush(db.prisma, row.shop_id, c.productId, data);
  }
  if (error) await updateConnectionById(db.prisma, row.id, { last_error: `stock push: ${error}`, last_error_at: now });
  return error ? { pushed: 0, failed: todo.length } : { pushed: todo.length, failed: 0 };
}

/** One pass over every active connection. */
export async function pushStock(db: Db, env: ChannelEnv, now = new Date()): Promise<StockPassStats> {
  const rows = await activeConnections(db.prisma);
  const stats: StockPassStats = { shops: 0, pushed: 0, failed: 0 };
  for (const row of rows) {
    if (!(await claim(db, row, now))) continue;
    try {
      const r = await pushShop(db, row, env, now);
      stats.shops++;
      stats.pushed += r.pushed;
      stats.failed += r.failed;
    } finally {
      await releaseLease(db.prisma, row.id);
    }
  }
  return stats;
}
