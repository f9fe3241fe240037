import { randomBytes } from 'node:crypto';
import { invalid } from '../../../domain/errors.js';
import type { ChannelConnector, Json } from '../connector.js';
import { ChannelCallError, type ChannelEnv } from '../http.js';
import type { ChannelOrder, OpenConnection, ShippedLine, TrackingInfo } from '../types.js';
import { header, sameSecret } from '../webhook-signature.js';
import { BIGCOMMERCE_API, bcCall } from './client.js';
import { orderFromBigCommerce, variantFromBigCommerce } from './map.js';
import { SECRET_HEADER, STATUS, type BigCommerceCredentials } from './types.js';

// The BigCommerce connector (docs/sales-channels.md §BigCommerce): a store API account (store hash
// and access token); orders from the V2 Orders API, page by page; `store/order/*` webhooks, which
// fos registers at connect (V3 /hooks) with a secret header of its own, since BigCommerce signs
// nothing; shipments with tracking (POST /v2/orders/{id}/shipments); stock through the V3
// Inventory API (absolute adjustments at a location); variants (V3 Catalog) as listings.

export const BIGCOMMERCE_TOPICS = ['store/order/created', 'store/order/updated', 'store/order/statusUpdated', 'store/order/archived'];
const PAGE = 50;
/** The V3 Inventory API takes at most 2,000 items per absolute adjustment. */
const STOCK_BATCH = 2000;

/** One order with its products and shipping addresses (three V2 reads). */
async function readOrder(conn: OpenConnection, env: ChannelEnv, o: Json): Promise<ChannelOrder> {
  const [products, shipping] = await Promise.all([
    bcCall<Json[] | null>(conn, env, 'GET', `v2/orders/${o.id}/products`, { query: { limit: 250 } }),
    bcCall<Json[] | null>(conn, env, 'GET', `v2/orders/${o.id}/shipping_addresses`, { query: { limit: 250 } }),
  ]);
  return orderFromBigCommerce(o, products.data ?? [], shipping.data ?? []);
}

/** Carriers BigCommerce names in tracking_carrier (its own codes); any other goes in shipping_provider-free comments. */
const CARRIER_CODES: Record<string, string> = {
  usps: 'usps',
  ups: 'ups',
  fedex: 'fedex',
  dhl: 'dhl',
  dhlexpress: 'dhl',
  canadapost: 'canada-post',
  royalmail: 'royal-mail',
  auspost: 'australia-post',
  australiapost: 'australia-post',
};
const carrierCode = (company: string | null) => (company ? (CARRIER_CODES[company.toLowerCase().replace(/[^a-z]/g, '')] ?? null) : null);

async function createShipment(
  conn: OpenConnection,
  env: ChannelEnv,
  order: { remote_id: string; order_number: string },
  lines: ShippedLine[],
  t: TrackingInfo,
) {
  const id = order.remote_id;
  // Idempotent: a shipment with this tracking number already on the order (an earlier answer was lost) is not made again.
  const existing = await bcCall<Json[] | null>(conn, env, 'GET', `v2/orders/${id}/shipments`, { query: { limit: 250 } });
  const there = (existing.data ?? []).find((s) => t.number && String(s.tracking_number) === t.number);
  if (there)
    return `BigCommerce already holds shipment ${there.id} of ${order.order_number} with this tracking (an earlier answer was lost): nothing sent again`;
  const products = (await bcCall<Json[] | null>(conn, env, 'GET', `v2/orders/${id}/products`, { query: { limit: 250 } })).data ?? [];
  const byId = new Map(products.map((p) => [String(p.id), p]));
  const shipped = lines.filter((l) => byId.has(l.remote_id) && l.quantity > 0);
  if (!shipped.length) throw new ChannelCallError(`BigCommerce order ${id} has none of the shipped lines`, true);
  // A shipment goes to one of the order's shipping addresses: the first shipped line's.
  const addressId = byId.get(shipped[0]!.remote_id)!.order_address_id;
  const items = shipped
    .filter((l) => byId.get(l.remote_id)!.order_address_id === addressId)
    .map((l) => ({ order_product_id: Number(l.remote_id), quantity: l.quantity }));
  const code = carrierCode(t.company);
  const body = {
    order_address_id: addressId,
    tracking_number: t.number ?? '',
    ...(code ? { tracking_carrier: code } : {}),
    ...(t.url ? { tracking_link: t.url } : {}),
    comments: t.company ? `Shipped with ${t.company}` : 'Shipped',
    items,
  };
  const { data } = await bcCall<Json>(conn, env, 'POST', `v2/orders/${id}/shipments`, { body });
  return `BigCommerce shipment ${data?.id} created for ${order.order_number}`;
}

export const bigcommerce: ChannelConnector = {
  platform: 'BIGCOMMERCE',
  label: 'BigCommerce',
  metadataKey: 'bigcommerce',
  fields(c) {
    const hash = (c.store_hash ?? c.shop_domain)?.trim();
    if (!hash) throw invalid('body.connection.store_hash', 'is required for a BIGCOMMERCE shop');
    if (!/^[A-Za-z0-9]+$/.test(hash)) throw invalid('body.connection.store_hash', 'must be the store hash (letters and digits)');
    const token = c.access_token?.trim();
    if (!token) throw invalid('body.connection.access_token', 'is required for a BIGCOMMERCE shop');
    const credentials: BigCommerceCredentials = {
      access_token: token,
      webhook_secret: c.webhook_secret?.trim() || randomBytes(24).toString('hex'),
    };
    const apiBase = (c.api_base_url?.trim() || `${BIGCOMMERCE_API}/${hash}`).replace(/\/+$/, '');
    return { domain: hash, credentials, apiBase, apiVersion: null };
  },
  async check(conn, env) {
    const { data } = await bcCall<Json>(conn, env, 'GET', 'v2/store');
    return { name: String(data?.name ?? conn.shop_domain), currency: typeof data?.currency === 'string' ? data.currency : null };
  },
  async register(conn, env) {
    if (!env.origin) throw new ChannelCallError("fos's public address is not known: the order webhooks cannot be registered", true);
    const destination = `${env.origin}/v1/channels/${conn.shop_id}/webhooks`;
    const secret = (conn.credentials as BigCommerceCredentials).webhook_secret;
    const hook = { scope: 'store/order/*', destination, is_active: true, headers: { 'X-Fos-Webhook-Secret': secret } };
    // Connected before (new credentials): the hook fos registered is updated, not registered twice.
    // A hook gone meanwhile (removed in the control panel, or with the app's uninstall) is registered anew.
    let id = conn.settings.webhook_id;
    let data: Json | null = null;
    if (id)
      data = await bcCall<Json>(conn, env, 'PUT', `v3/hooks/${id}`, { body: hook }).then(
        (r) => r.data,
        (err) => {
          if (err instanceof ChannelCallError && err.status === 404) return (id = null);
          throw err;
        },
      );
    if (!id) data = (await bcCall<Json>(conn, env, 'POST', 'v3/hooks', { body: hook })).data;
    return { webhook_id: data?.data?.id != null ? String(data.data.id) : (id ?? null) };
  },
  webhooks: {
    topics: BIGCOMMERCE_TOPICS,
    verify: (secret, headers) => sameSecret(secret, header(headers, SECRET_HEADER)),
    topic(_headers, body) {
      try {
        const scope = JSON.parse(body.toString('utf8'))?.scope;
        return typeof scope === 'string' ? scope : null;
      } catch {
        return null;
      }
    },
    deliveryId(_headers, body) {
      try {
        const hash = JSON.parse(body.toString('utf8'))?.hash;
        return typeof hash === 'string' ? hash : null;
      } catch {
        return null;
      }
    },
    async interpret(topic, body, open, env) {
      // The payload names the order only (data: {type: 'order', id}): fos reads it from the API.
      const id = body?.data?.id;
      if (typeof id !== 'number' && typeof id !== 'string') throw new Error(`${topic} without data.id`);
      if (topic === 'store/order/archived') return { kind: 'cancel', remote_id: String(id) };
      const conn = await open();
      const { data } = await bcCall<Json>(conn, env, 'GET', `v2/orders/${id}`);
      return { kind: 'order', order: await readOrder(conn, env, data) };
    },
  },
  async orders(conn, env, since, token) {
    const page = token ? Number(token) : 1;
    // The first sync takes the orders awaiting fulfillment; later ones every order modified since.
    const query: Record<string, string | number> = since
      ? { min_date_modified: since.toISOString(), sort: 'date_modified:asc', page, limit: PAGE }
      : { status_id: STATUS.AWAITING_FULFILLMENT, sort: 'id:asc', page, limit: PAGE };
    const { data } = await bcCall<Json[] | null>(conn, env, 'GET', 'v2/orders', { query });
    const list = data ?? [];
    const items: ChannelOrder[] = [];
    for (const o of list) items.push(await readOrder(conn, env, o));
    return { items, next: list.length === PAGE ? String(page + 1) : null };
  },
  async variants(conn, env, token, currency) {
    const page = token ? Number(token) : 1;
    const { data } = await bcCall<Json>(conn, env, 'GET', 'v3/catalog/products', {
      query: { include: 'variants,images', page, limit: PAGE },
    });
    const products: Json[] = Array.isArray(data?.data) ? data.data : [];
    const items = products.flatMap((p) => (p.variants ?? []).map((v: Json) => variantFromBigCommerce(p, v, currency)));
    const pg = data?.meta?.pagination;
    return { items, next: pg && Number(pg.current_page) < Number(pg.total_pages) ? String(page + 1) : null };
  },
  fulfill: (conn, env, order, lines, tracking) => createShipment(conn, env, order, lines, tracking),
  // BigCommerce shipments carry no carrier scans of their own: nothing to attach a status to.
  shipmentStatus: async () => null,
  async setStock(conn, env, items) {
    const location = Number(conn.settings.location_id ?? 1);
    if (!Number.isInteger(location) || location < 1)
      throw new ChannelCallError(`settings.location_id ${conn.settings.location_id} is no BigCommerce location id`, true);
    const rows = items.map((i) => ({ location_id: location, variant_id: Number(i.remote_id), quantity: i.quantity }));
    for (let i = 0; i < rows.length; i += STOCK_BATCH)
      await bcCall(conn, env, 'PUT', 'v3/inventory/adjustments/absolute', {
        body: { reason: 'fos: available quantity', items: rows.slice(i, i + STOCK_BATCH) },
      });
  },
  async unregister(conn, env) {
    // DELETE /v3/hooks/{webhook_id} answers the deleted hook (200); a 404 means it is gone already
    // (removed in the control panel), which is what the delete wants.
    const id = conn.settings.webhook_id;
    if (!id) return 'BigCommerce: no hook was registered, nothing to remove';
    try {
      await bcCall(conn, env, 'DELETE', `v3/hooks/${encodeURIComponent(id)}`);
    } catch (err) {
      if (err instanceof ChannelCallError && err.status === 404) return `BigCommerce hook ${id} was gone already`;
      throw err;
    }
    return `BigCommerce hook ${id} (store/order/*) removed`;
  },
};
