import type { Db, ShopConnection } from '../../db/types.js';
import { openJson, sealJson } from '../secrets/secret-box.js';
import { ChannelCallError, type ChannelEnv } from './http.js';
import { shopifyFulfill } from './shopify-fulfill.js';
import { checkShopify, shopifyOrdersPage, shopifySetAvailable, shopifyShipmentEvent, shopifyVariantsPage } from './shopify.js';
import type {
  ChannelOrder,
  ChannelVariant,
  ConnectedPlatform,
  ConnectionSettings,
  Credentials,
  OpenConnection,
  ShipmentUpdate,
  ShippedLine,
  TrackingInfo,
} from './types.js';
import { checkWoo, wooCall, wooFulfill, wooOrdersPage, wooSetStock, wooVariantsPage } from './woocommerce.js';

// One entry point per operation for both connectors, so intake, sync and pushes never branch
// on the platform themselves. Pages are addressed by an opaque token: Shopify's GraphQL cursor,
// WooCommerce's page number.

export const sealContext = (shopId: string) => `shop:${shopId}`;
export const sealCredentials = (shopId: string, credentials: Credentials) => sealJson(credentials, sealContext(shopId));

export const DEFAULT_SETTINGS: ConnectionSettings = {
  notify_customer: false,
  location_id: null,
  warehouse_id: null,
  ship_on_authorized: false,
  shipment_tracking: false,
};

/**
 * The connection with its credentials opened (in memory only, never returned or logged). With a
 * database, renewed credentials (a refreshed Shopify token) are written back sealed, compare-and-
 * set on the sealed value read, so a concurrent change of the connection is never overwritten.
 */
export function openConnection(row: ShopConnection, db?: Db): OpenConnection {
  let sealed = row.credentials;
  const persistCredentials = db
    ? async (c: Credentials) => {
        const next = sealCredentials(row.shop_id, c);
        const r = await db.prisma.shopConnection.updateMany({
          where: { shop_id: row.shop_id, credentials: sealed },
          data: { credentials: next },
        });
        if (r.count) sealed = next;
      }
    : undefined;
  return {
    persistCredentials,
    shop_id: row.shop_id,
    shop_type: row.shop_type as ConnectedPlatform,
    shop_domain: row.shop_domain,
    api_base_url: row.api_base_url,
    api_version: row.api_version,
    credentials: openJson<Credentials>(row.credentials, sealContext(row.shop_id)),
    settings: { ...DEFAULT_SETTINGS, ...(row.settings as Partial<ConnectionSettings>) },
  };
}

export interface Page<T> {
  items: T[];
  next: string | null;
}

export interface Connector {
  /** One real call; shipment_tracking: the WooCommerce Shipment Tracking extension is active. */
  check(conn: OpenConnection, env: ChannelEnv): Promise<{ name: string; currency: string | null; shipment_tracking?: boolean }>;
  orders(conn: OpenConnection, env: ChannelEnv, since: Date | null, token: string | null): Promise<Page<ChannelOrder>>;
  variants(conn: OpenConnection, env: ChannelEnv, token: string | null, currency: string | null): Promise<Page<ChannelVariant>>;
  fulfill(
    conn: OpenConnection,
    env: ChannelEnv,
    order: { remote_id: string; order_number: string },
    lines: ShippedLine[],
    tracking: TrackingInfo,
    complete: boolean,
  ): Promise<string>;
  /** A shipped parcel's newer status; null when the shop has nothing it could attach it to. */
  shipmentStatus(
    conn: OpenConnection,
    env: ChannelEnv,
    order: { remote_id: string; order_number: string },
    u: ShipmentUpdate,
  ): Promise<string | null>;
  setStock(
    conn: OpenConnection,
    env: ChannelEnv,
    items: { remote_id: string; listing_id: string | null; inventory_item_id: string | null; quantity: number }[],
  ): Promise<void>;
}

const shopify: Connector = {
  check: checkShopify,
  async orders(conn, env, since, token) {
    const p = await shopifyOrdersPage(conn, env, since, token);
    return { items: p.orders, next: p.next };
  },
  async variants(conn, env, token, currency) {
    const p = await shopifyVariantsPage(conn, env, token, currency);
    return { items: p.variants, next: p.next };
  },
  async fulfill(conn, env, order, lines, tracking) {
    const r = await shopifyFulfill(conn, env, order.remote_id, lines, tracking);
    const ids = r.fulfillment_ids.join(', ');
    return r.reconciled
      ? `Shopify already holds fulfillment ${ids} of ${order.order_number} with this tracking (an earlier answer was lost): nothing sent again`
      : `Shopify fulfillment ${ids} created for ${order.order_number}`;
  },
  async shipmentStatus(conn, env, order, u) {
    const r = await shopifyShipmentEvent(conn, env, order.remote_id, u);
    return r && `Shopify fulfillment ${r.fulfillment_id} of ${order.order_number}: event ${r.status}`;
  },
  async setStock(conn, env, items) {
    const withItem = items.filter((i) => i.inventory_item_id);
    if (withItem.length)
      await shopifySetAvailable(
        conn,
        env,
        withItem.map((i) => ({ inventory_item_id: i.inventory_item_id!, quantity: i.quantity })),
      );
  },
};

const woocommerce: Connector = {
  check: checkWoo,
  async orders(conn, env, since, token) {
    const p = await wooOrdersPage(conn, env, since, token ? Number(token) : 1);
    return { items: p.orders, next: p.next ? String(p.next) : null };
  },
  async variants(conn, env, token, currency) {
    const p = await wooVariantsPage(conn, env, token ? Number(token) : 1, currency);
    return { items: p.variants, next: p.next ? String(p.next) : null };
  },
  async fulfill(conn, env, order, _lines, tracking, complete) {
    const note = `Shipped${tracking.company ? ` with ${tracking.company}` : ''}: tracking number ${tracking.number ?? '(none)'}${tracking.url ? ` — ${tracking.url}` : ''}`;
    const posted = await wooFulfill(conn, env, order.remote_id, tracking, note, complete);
    const what = posted === 'tracking' ? 'Shipment Tracking item' : 'tracking note';
    return `WooCommerce order ${order.remote_id}: ${what} added${complete ? ', status completed' : ''}`;
  },
  async shipmentStatus(conn, env, order, u) {
    // WooCommerce has no shipment states of its own: an order note, like the tracking.
    const status = u.status.toLowerCase().replace(/_/g, ' ');
    const note = `Shipment ${u.tracking_code}: ${status}${u.message ? ` — ${u.message}` : ''}`;
    await wooCall(conn, env, 'post', `orders/${order.remote_id}/notes`, { note, customer_note: conn.settings.notify_customer });
    return `WooCommerce order ${order.remote_id}: note "${note}" added`;
  },
  async setStock(conn, env, items) {
    for (const i of items) await wooSetStock(conn, env, i.listing_id ?? i.remote_id, i.remote_id, i.quantity);
  },
};

export function connectorFor(platform: string): Connector {
  if (platform === 'SHOPIFY') return shopify;
  if (platform === 'WOOCOMMERCE') return woocommerce;
  throw new ChannelCallError(`no connector for ${platform} yet`, true);
}
