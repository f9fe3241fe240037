import { createRequire } from 'node:module';
import { ChannelCallError, axiosPolicy, describeNetworkError, type ChannelEnv } from '../http.js';
import {
  money,
  text,
  type ChannelAddress,
  type ChannelOrder,
  type ChannelVariant,
  type OpenConnection,
  type TrackingInfo,
  type WooCredentials,
} from '../types.js';

// WooCommerce connector over the official @woocommerce/woocommerce-rest-api (REST API v3). Its
// `url` option is the shop's api_base_url (the store URL by default), so a proxy or a test double
// stands in without changes; over https it authenticates with HTTP Basic, over http with OAuth
// 1.0a signatures, as WooCommerce documents. axiosConfig carries the outbound network policy.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = Record<string, any>;
interface WooClient {
  get(path: string, params?: object): Promise<{ data: unknown; headers: unknown }>;
  post(path: string, body: object, params?: object): Promise<{ data: unknown; headers: unknown }>;
  put(path: string, body: object, params?: object): Promise<{ data: unknown; headers: unknown }>;
}
// The package is CommonJS with its class on `default`; loaded at the first call (~18 MiB with
// axios), not at start, so a server with no WooCommerce shop never holds it.
type WooClass = new (opts: object) => WooClient;
let wooClass: WooClass | undefined;
const wooModule = () =>
  (wooClass ??= ((m) => m.default ?? m)(createRequire(import.meta.url)('@woocommerce/woocommerce-rest-api')) as WooClass);

const PAGE = 50;

/** The REST namespaces fos calls: WooCommerce's own and the Shipment Tracking extension's. */
export const WC = 'wc/v3';
export const SHIPMENT_TRACKING = 'wc-shipment-tracking/v3';

function client(conn: OpenConnection, env: ChannelEnv, version: string): WooClient {
  const c = conn.credentials as WooCredentials;
  const Woo = wooModule();
  return new Woo({
    url: conn.api_base_url,
    consumerKey: c.consumer_key,
    consumerSecret: c.consumer_secret,
    version,
    axiosConfig: axiosPolicy(env) as never,
  });
}

/** One REST call; failures become ChannelCallError with the platform's own message. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
export async function wooCall<T = any>(
  conn: OpenConnection,
  env: ChannelEnv,
  method: 'get' | 'post' | 'put',
  path: string,
  body?: object,
  params?: Record<string, unknown>,
  version = WC,
) {
  const api = client(conn, env, version);
  try {
    const res = method === 'get' ? await api.get(path, params ?? {}) : await api[method](path, body ?? {}, params ?? {});
    return { data: res.data as T, headers: res.headers as Record<string, string> };
  } catch (err) {
    const e = err as { response?: { status: number; data?: { message?: string; code?: string } } };
    const host = new URL(conn.api_base_url).host;
    if (!e.response) throw new ChannelCallError(describeNetworkError(err, host));
    const { status, data } = e.response;
    const msg = typeof data?.message === 'string' ? data.message : `HTTP ${status}`;
    if (status === 401 || status === 403)
      throw new ChannelCallError(`WooCommerce refused the REST API key (HTTP ${status}): ${msg}`, true, status);
    if (status === 404 && path === 'system_status')
      throw new ChannelCallError(`no WooCommerce REST API at ${conn.api_base_url} (HTTP 404)`, true, status);
    throw new ChannelCallError(`WooCommerce: ${msg} (HTTP ${status})`, status < 500 && status !== 429, status);
  }
}

/**
 * One real call: the store's system status (environment, settings, active plugins). The Shipment
 * Tracking extension counts as present when its plugin is active there.
 */
export async function checkWoo(conn: OpenConnection, env: ChannelEnv) {
  const { data } = await wooCall(conn, env, 'get', 'system_status');
  const plugins: Json[] = Array.isArray(data?.active_plugins) ? data.active_plugins : [];
  return {
    name: text(data?.environment?.site_url) ?? conn.shop_domain,
    currency: text(data?.settings?.currency),
    shipment_tracking: plugins.some((p) => String(p?.plugin ?? '').startsWith('woocommerce-shipment-tracking/')),
  };
}

function address(a: Json | undefined, phone?: unknown): ChannelAddress | null {
  if (!a || !Object.values(a).some((v) => typeof v === 'string' && v)) return null;
  return {
    name: text([a.first_name, a.last_name].filter(Boolean).join(' ')),
    company: text(a.company),
    address1: text(a.address_1),
    address2: text(a.address_2),
    city: text(a.city),
    state: text(a.state),
    country: text(a.country),
    zip: text(a.postcode),
    phone: text(a.phone) ?? text(phone),
  };
}

/** A WooCommerce order (REST v3 / webhook body). Throws on a payload that is not an order. */
export function orderFromWoo(o: Json): ChannelOrder {
  if (!o || typeof o.id !== 'number' || !Array.isArray(o.line_items))
    throw new Error('not a WooCommerce order: id and line_items are required');
  const b = o.billing ?? {};
  return {
    remote_id: String(o.id),
    order_number: `#${text(o.number) ?? o.id}`,
    updated_at: text(o.date_modified_gmt) ? `${o.date_modified_gmt}Z` : null,
    cancelled: ['cancelled', 'refunded', 'failed', 'trash'].includes(o.status),
    paid: !!o.date_paid_gmt || ['processing', 'completed'].includes(o.status),
    authorized: false, // WooCommerce orders have no authorized state of their own (docs/sales-channels.md)
    currency: text(o.currency) ?? 'USD',
    note: text(o.customer_note),
    tags: [],
    email: text(b.email),
    customer_name: text([b.first_name, b.last_name].filter(Boolean).join(' ')),
    phone: text(b.phone),
    shipping_address: address(o.shipping, b.phone) ?? address(b),
    billing_address: address(b),
    shipping_method: text(o.shipping_lines?.[0]?.method_title),
    total_tax: money(o.total_tax),
    total_shipping: money(o.shipping_total),
    metadata: (o.meta_data ?? [])
      .filter((m: Json) => !String(m.key).startsWith('_'))
      .map((m: Json) => ({ key: String(m.key), value: typeof m.value === 'string' ? m.value : JSON.stringify(m.value) })),
    lines: o.line_items.map((l: Json) => ({
      remote_id: String(l.id),
      remote_variant_id: String(l.variation_id || l.product_id || '') || null,
      sku: text(l.sku),
      name: text(l.name) ?? 'Item',
      quantity: Math.max(0, Math.round(money(l.quantity))),
      price: money(l.price),
      discount: Math.max(0, money(l.subtotal) - money(l.total)),
    })),
  };
}

const pageOf = (headers: Record<string, string>, page: number) => (page < Number(headers['x-wp-totalpages'] ?? 1) ? page + 1 : null);

/** A page (1-based) of orders modified since `since`, or of open orders when null. */
export async function wooOrdersPage(conn: OpenConnection, env: ChannelEnv, since: Date | null, page: number) {
  const params = since
    ? { modified_after: since.toISOString(), orderby: 'modified', order: 'asc', per_page: PAGE, page }
    : { status: 'pending,processing,on-hold', orderby: 'date', order: 'asc', per_page: PAGE, page };
  const { data, headers } = await wooCall<Json[]>(conn, env, 'get', 'orders', undefined, params);
  return { orders: data.map(orderFromWoo), next: pageOf(headers, page) };
}

function variantOf(p: Json, v: Json | null, currency: string | null): ChannelVariant {
  const x = v ?? p;
  return {
    remote_id: String(x.id),
    remote_inventory_item_id: null,
    product_listing_id: String(p.id),
    product_listing_name: text(p.name),
    sku: text(x.sku),
    barcode: text(x.global_unique_id),
    name: v ? text([p.name, ...(v.attributes ?? []).map((a: Json) => a.option)].join(' - ')) : text(p.name),
    image_url: text(v?.image?.src) ?? text(p.images?.[0]?.src),
    price: x.price === '' || x.price === undefined ? null : money(x.price),
    currency,
    hs_code: null,
    country_of_origin: null,
    weight: x.weight ? money(x.weight) : null,
    weight_unit: null,
  };
}

/** A page of products, each expanded into its variations (one listing variant per variation). */
export async function wooVariantsPage(conn: OpenConnection, env: ChannelEnv, page: number, currency: string | null) {
  const { data, headers } = await wooCall<Json[]>(conn, env, 'get', 'products', undefined, { per_page: PAGE, page });
  const variants: ChannelVariant[] = [];
  for (const p of data) {
    if (p.type === 'variable') {
      const { data: vs } = await wooCall<Json[]>(conn, env, 'get', `products/${p.id}/variations`, undefined, { per_page: 100 });
      for (const v of vs) variants.push(variantOf(p, v, currency));
    } else variants.push(variantOf(p, null, currency));
  }
  return { variants, next: pageOf(headers, page) };
}

/**
 * Tracking out: a Shipment Tracking item when the shop has the extension, else an order note (a
 * customer note per shop setting); then `completed` once all is shipped. Idempotent: what is
 * already on the order (the same tracking number, the same note) is not posted again, so a retry
 * after a lost answer or after a failed `completed` never sends the customer a second note.
 */
export async function wooFulfill(conn: OpenConnection, env: ChannelEnv, orderId: string, t: TrackingInfo, note: string, complete: boolean) {
  let posted: 'tracking' | 'note';
  if (conn.settings.shipment_tracking && t.number) {
    posted = 'tracking';
    const path = `orders/${orderId}/shipment-trackings`;
    const { data } = await wooCall<Json[]>(conn, env, 'get', path, undefined, undefined, SHIPMENT_TRACKING);
    const there = (Array.isArray(data) ? data : []).some((x) => String(x?.tracking_number) === t.number);
    if (!there) {
      const provider = { custom_tracking_provider: t.company ?? 'Carrier', custom_tracking_link: t.url ?? '' };
      await wooCall(conn, env, 'post', path, { tracking_number: t.number, ...provider }, undefined, SHIPMENT_TRACKING);
    }
  } else {
    posted = 'note';
    const { data } = await wooCall<Json[]>(conn, env, 'get', `orders/${orderId}/notes`, undefined, { type: 'any' });
    const there = (Array.isArray(data) ? data : []).some((x) => String(x?.note ?? '').trim() === note);
    if (!there) await wooCall(conn, env, 'post', `orders/${orderId}/notes`, { note, customer_note: conn.settings.notify_customer });
  }
  if (complete) await wooCall(conn, env, 'put', `orders/${orderId}`, { status: 'completed' });
  return posted;
}

/** Stock out: stock_quantity of a product or a variation (listing id = product, remote id = variation). */
export async function wooSetStock(conn: OpenConnection, env: ChannelEnv, productId: string, variantId: string, quantity: number) {
  const path = productId === variantId ? `products/${productId}` : `products/${productId}/variations/${variantId}`;
  await wooCall(conn, env, 'put', path, { manage_stock: true, stock_quantity: quantity });
}
