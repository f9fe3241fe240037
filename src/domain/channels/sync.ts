import type { Db, Shop, ShopConnection } from '../../db/types.js';
import type { Principal } from '../keys/index.js';
import { DomainError, invalid, notFound } from '../errors.js';
import { connectorFor, openConnection } from './connection.js';
import { ChannelCallError, type ChannelEnv } from '../../connectors/channels/http.js';
import { intakeOrder } from './intake.js';
import { shopScope } from './shops.js';
import type { ChannelVariant, OpenConnection } from '../../connectors/channels/types.js';
import type { Skipped } from '../../connectors/channels/connector.js';
import { COUNTRY_CODES, CURRENCY_CODES, HS_CODE_PATTERN } from '../../contract/iso.js';
import { claimLease, connectionsDue, findConnection, updateConnectionById } from './store/connections.js';
import { merchantProductsBySku, saveListingVariant } from './store/listings.js';
import { findShopInScope, findShopOrThrow } from './store/shops.js';

// Orders in by sync, and listings. Webhooks get lost; a sync pulls the orders updated since the
// last one (the first sync of a connection: every open order) through the same idempotent
// intake, page by page (Shopify cursors, WooCommerce page numbers), then the shop's variants
// into product_listing_variants. One replica at a time per shop: a sync holds a lease taken by
// compare-and-set on sync_lease_until; another replica finding it held does nothing. The
// background pass also compares last_sync_at with what it read, so a replica that found a shop
// due just before another one finished syncing it does not sync it a second time.

export const DEFAULT_SYNC_INTERVAL_MS = 15 * 60_000;
const LEASE_MS = 10 * 60_000;
/** Overlap between syncs: orders updated while the last one ran are pulled again (intake is idempotent). */
const OVERLAP_MS = 60_000;
const MAX_PAGES = 200;
const RETRY_AFTER_FAILURE_MS = 5 * 60_000;

export interface SyncSummary {
  orders: Record<'created' | 'updated' | 'cancelled' | 'unchanged' | 'ignored' | 'failed', number>;
  listings: { imported: number; unmatched: number };
  since: Date | null;
  errors: string[];
  /** Orders the connector does not take (Amazon FBA), with the reason; also counted in orders.ignored. */
  skipped: Skipped[];
}

/** At most this many skipped orders are listed in a summary (all are counted). */
const MAX_SKIPPED_LISTED = 100;

async function claim(db: Db, row: ShopConnection, now: Date, unchanged: boolean) {
  const also = unchanged ? { last_sync_at: row.last_sync_at } : {};
  const { count } = await claimLease(db.prisma, row.id, now, new Date(now.getTime() + LEASE_MS), also);
  return count === 1;
}

async function pullOrders(db: Db, shop: Shop, conn: OpenConnection, env: ChannelEnv, since: Date | null, s: SyncSummary) {
  const connector = connectorFor(conn.shop_type);
  let token: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const p = await connector.orders(conn, env, since, token);
    for (const o of p.items) {
      try {
        s.orders[(await intakeOrder(db, shop, o, { allowPrivate: env.allowPrivate })).action]++;
      } catch (err) {
        s.orders.failed++;
        s.errors.push(`order ${o.order_number}: ${(err as Error).message}`);
      }
    }
    for (const k of p.skipped ?? []) {
      s.orders.ignored++;
      if (s.skipped.length < MAX_SKIPPED_LISTED) s.skipped.push(k);
    }
    if (!p.next) return;
    token = p.next;
  }
}

async function pullListings(db: Db, shop: Shop, conn: OpenConnection, env: ChannelEnv, currency: string | null, s: SyncSummary) {
  const connector = connectorFor(conn.shop_type);
  let token: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const p = await connector.variants(conn, env, token, currency);
    await storeVariants(db, shop, p.items, s);
    s.errors.push(...(p.errors ?? []));
    if (!p.next) return;
    token = p.next;
  }
}

const COUNTRIES = new Set<string>(COUNTRY_CODES);
const CURRENCIES = new Set<string>(CURRENCY_CODES);
const HS_CODE = new RegExp(HS_CODE_PATTERN);

/** A platform's code that is no ISO country / currency or HS code is not stored (null), never stored invalid. */
function cleanCodes(v: ChannelVariant): ChannelVariant {
  const upper = (x: string | null) => x?.trim().toUpperCase() ?? null;
  const country = upper(v.country_of_origin);
  const currency = upper(v.currency);
  const hs = v.hs_code?.trim() ?? null;
  return {
    ...v,
    country_of_origin: country && COUNTRIES.has(country) ? country : null,
    currency: currency && CURRENCIES.has(currency) ? currency : null,
    hs_code: hs && HS_CODE.test(hs) ? hs : null,
  };
}

/** Upserts listing variants linked by SKU to the merchant's products; variants with no such product are counted, not stored. */
async function storeVariants(db: Db, shop: Shop, variants: ChannelVariant[], s: SyncSummary) {
  const skus = [...new Set(variants.map((v) => v.sku).filter((x): x is string => !!x))];
  const products = skus.length ? await merchantProductsBySku(db.prisma, shop.merchant_team_id, skus) : [];
  const bySku = new Map<string, string>();
  for (const p of products) if (p.sku && !bySku.has(p.sku)) bySku.set(p.sku, p.id);
  const now = new Date();
  for (const v of variants) {
    const productId = v.sku ? bySku.get(v.sku) : undefined;
    if (!productId) {
      s.listings.unmatched++;
      continue;
    }
    const { remote_inventory_item_id, ...fields } = cleanCodes(v);
    const data = { ...fields, remote_inventory_item_id, product_id: productId, shop_id: shop.id, synced_at: now };
    await saveListingVariant(db.prisma, shop.id, v.remote_id, data);
    s.listings.imported++;
  }
}

/** One sync of a shop's connection; null when another replica holds it. */
export async function syncConnection(
  db: Db,
  row: ShopConnection,
  env: ChannelEnv,
  opts: { since?: Date | null; now?: Date; ifUnchanged?: boolean } = {},
): Promise<SyncSummary | null> {
  const now = opts.now ?? new Date();
  if (!(await claim(db, row, now, opts.ifUnchanged ?? false))) return null;
  const since = opts.since !== undefined ? opts.since : row.sync_cursor;
  const s: SyncSummary = {
    orders: { created: 0, updated: 0, cancelled: 0, unchanged: 0, ignored: 0, failed: 0 },
    listings: { imported: 0, unmatched: 0 },
    since,
    errors: [],
    skipped: [],
  };
  try {
    const shop = await findShopOrThrow(db.prisma, row.shop_id);
    const conn = openConnection(row, db);
    const info = await connectorFor(conn.shop_type).check(conn, env);
    // Listings first: orders taken in afterwards match their lines by listing variant.
    await pullListings(db, shop, conn, env, info.currency, s);
    await pullOrders(db, shop, conn, env, since, s);
    await updateConnectionById(db.prisma, row.id, {
      last_sync_at: now,
      sync_cursor: new Date(now.getTime() - OVERLAP_MS),
      sync_lease_until: null,
      last_check_at: now,
      last_check_ok: true,
      ...(s.errors.length ? { last_error: `sync: ${s.errors[0]}`, last_error_at: now } : {}),
    });
    return s;
  } catch (err) {
    const message = err instanceof ChannelCallError ? err.message : String((err as Error)?.message ?? err);
    await updateConnectionById(db.prisma, row.id, { sync_lease_until: null, last_error: `sync: ${message}`, last_error_at: new Date() });
    if (err instanceof ChannelCallError)
      throw new DomainError('validation-failed', `The ${row.shop_type} sync failed: ${message}.`, {
        errors: [{ path: 'shop_id', message }],
      });
    throw err;
  }
}

/** POST /v1/ops/shops/{id}/sync: a sync now, from `since` when given. */
export async function syncShop(db: Db, p: Principal, shopId: string, since: string | undefined, env: ChannelEnv) {
  const shop = await findShopInScope(db.prisma, shopScope(p), shopId);
  if (!shop) throw notFound('Shop', shopId);
  const row = await findConnection(db.prisma, shopId);
  if (!row) throw invalid('shop_id', `shop ${shopId} has no platform connection`);
  if (!row.active) throw new DomainError('conflict', `The connection of shop ${shopId} is disabled; enable it first.`);
  const summary = await syncConnection(db, row, env, since ? { since: new Date(since) } : {});
  if (!summary)
    throw new DomainError('conflict', `Shop ${shopId} is being synced by another request or replica; try again when it is done.`);
  return summary;
}

/** The background pass: every active connection not synced within intervalMs, one at a time. */
export async function syncDueShops(db: Db, env: ChannelEnv, intervalMs: number, now = new Date()) {
  // A connection whose last attempt failed waits a few minutes before the next one.
  const due = await connectionsDue(db.prisma, new Date(now.getTime() - intervalMs), new Date(now.getTime() - RETRY_AFTER_FAILURE_MS));
  let synced = 0;
  for (const row of due) {
    try {
      if (await syncConnection(db, row, env, { now, ifUnchanged: true })) synced++;
    } catch {
      // Recorded on the connection (last_error); the next pass tries again.
    }
  }
  return synced;
}
