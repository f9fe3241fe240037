import { invalid } from '../../../domain/errors.js';
import { syncOnlyWebhooks } from '../sync-only.js';
import type { ChannelConnector, Json, Skipped } from '../connector.js';
import { ChannelCallError, type ChannelEnv } from '../http.js';
import type { ChannelOrder, OpenConnection, TrackingInfo } from '../types.js';
import { etsyCall } from './client.js';
import { orderFromEtsy, physical, variantsFromEtsy } from './map.js';
import { setEtsyStock } from './stock.js';
import { etsyConsent } from './oauth.js';
import { CARRIER_NAMES, ETSY_API, type EtsyCredentials } from './types.js';

// The Etsy connector (docs/sales-channels.md §3e): the app's keystring and shared secret and the
// seller's refresh token; receipts as orders by polling sync only (getShopReceipts since a
// cursor; fos subscribes to no Etsy webhooks, every delivery to the shop's address is refused);
// tracking by createReceiptShipment; stock by updateListingInventory; listings from
// getListingsByShop with their inventory.

const ORDER_PAGE = 50; // getShopReceipts: at most 100
const LISTING_PAGE = 100; // getListingsByShop: at most 100
/** getShopReceipts' min_last_modified takes no earlier second. */
const EARLIEST = 946684800;

const carrierName = (company: string | null) =>
  company ? (CARRIER_NAMES[company.toLowerCase().replace(/[^a-z]/g, '')] ?? 'other') : 'other';

const shopOf = (conn: OpenConnection) => {
  const id = (conn.credentials as EtsyCredentials).etsy_shop_id;
  if (!id) throw new ChannelCallError('Etsy: the connection has no shop id yet (run fos shops test to read it)', true);
  return encodeURIComponent(id);
};

async function createShipment(conn: OpenConnection, env: ChannelEnv, order: { remote_id: string; order_number: string }, t: TrackingInfo) {
  const path = `shops/${shopOf(conn)}/receipts/${encodeURIComponent(order.remote_id)}`;
  const code = t.number?.trim() ?? '';
  // Idempotent: a shipment with this tracking code already on the receipt (an earlier answer was
  // lost) is not sent again, so the buyer gets no second shipping email.
  const { data: receipt } = await etsyCall<Json>(conn, env, 'GET', path);
  const shipments: Json[] = Array.isArray(receipt?.shipments) ? receipt.shipments : [];
  const there = code ? shipments.find((s) => String(s.tracking_code ?? '') === code) : null;
  if (there)
    return `Etsy already holds shipment ${there.receipt_shipping_id} of receipt ${order.order_number} with this tracking (an earlier answer was lost): nothing sent again`;
  if (!code && receipt?.is_shipped) return `Etsy receipt ${order.order_number} is already marked shipped: nothing sent`;
  // Without a tracking code Etsy marks the receipt shipped only (it wants one in the US over $10).
  const form: Record<string, string> = code ? { tracking_code: code, carrier_name: carrierName(t.company) } : {};
  await etsyCall<Json>(conn, env, 'POST', `${path}/tracking`, { form });
  return code
    ? `Etsy shipment created for receipt ${order.order_number} (${form.carrier_name} ${code})`
    : `Etsy receipt ${order.order_number} marked shipped (no tracking code)`;
}

/** A listing's inventory; null for one Etsy keeps none of (404: never edited with the inventory tools). */
async function inventoryOf(conn: OpenConnection, env: ChannelEnv, listingId: string) {
  try {
    return (await etsyCall<Json>(conn, env, 'GET', `listings/${encodeURIComponent(listingId)}/inventory`)).data;
  } catch (err) {
    if (err instanceof ChannelCallError && err.status === 404) return null;
    throw err;
  }
}

/**
 * One page of the shop's active listings with their inventory: getListingsByShop with
 * includes=Inventory (Etsy's OpenAPI 3.0.0). Should Etsy refuse the association (400), the page
 * is read without it and each listing's inventory with getListingInventory.
 */
async function listingsWithInventory(conn: OpenConnection, env: ChannelEnv, offset: number) {
  const path = `shops/${shopOf(conn)}/listings`;
  const query = { state: 'active', limit: LISTING_PAGE, offset };
  let res: { data: Json };
  let separate = false;
  try {
    res = await etsyCall<Json>(conn, env, 'GET', path, { query: { ...query, includes: 'Inventory' } });
  } catch (err) {
    if (!(err instanceof ChannelCallError) || err.status !== 400) throw err;
    res = await etsyCall<Json>(conn, env, 'GET', path, { query });
    separate = true;
  }
  const list: Json[] = Array.isArray(res.data?.results) ? res.data.results : [];
  if (separate) for (const l of list) l.inventory = await inventoryOf(conn, env, String(l.listing_id));
  return { list, count: Number(res.data?.count ?? 0) };
}

export const etsy: ChannelConnector = {
  platform: 'ETSY',
  label: 'Etsy',
  // The public API names no metadata key for Etsy (spec 2.6): the buyer's user id and gift message go to custom.
  metadataKey: 'custom',
  fields(c) {
    const need = (v: string | undefined, field: string) => {
      const s = v?.trim();
      if (!s) throw invalid(`body.connection.${field}`, 'is required for an ETSY shop');
      return s;
    };
    const shopId = c.etsy_shop_id?.trim() || null;
    if (shopId && !/^[1-9]\d*$/.test(shopId)) throw invalid('body.connection.etsy_shop_id', "is Etsy's numeric shop id");
    const credentials: EtsyCredentials = {
      client_id: need(c.client_id, 'client_id'),
      client_secret: need(c.client_secret, 'client_secret'),
      refresh_token: need(c.refresh_token, 'refresh_token'),
      etsy_shop_id: shopId,
      // New or changed keys: the cached token is dropped; the check asks for one.
      access_token: null,
      token_expires_at: null,
      webhook_secret: '',
    };
    const apiBase = (c.api_base_url?.trim() || ETSY_API).replace(/\/+$/, '');
    return { domain: new URL(apiBase).host, credentials, apiBase, apiVersion: null };
  },
  async check(conn, env) {
    // A token refresh, getMe (the token's seller and their shop) and getShop (its name and currency).
    const { data: me } = await etsyCall<Json>(conn, env, 'GET', 'users/me');
    const c = conn.credentials as EtsyCredentials;
    const own = me?.shop_id != null ? String(me.shop_id) : null;
    if (!own) throw new ChannelCallError(`Etsy user ${me?.user_id ?? '?'} has no shop`, true);
    if (c.etsy_shop_id && c.etsy_shop_id !== own)
      throw new ChannelCallError(`the refresh token is Etsy shop ${own}'s, not shop ${c.etsy_shop_id}'s`, true);
    if (!c.etsy_shop_id) {
      conn.credentials = { ...c, etsy_shop_id: own } as EtsyCredentials;
      await conn.persistCredentials?.(conn.credentials);
    }
    const { data: shop } = await etsyCall<Json>(conn, env, 'GET', `shops/${encodeURIComponent(own)}`);
    return {
      name: typeof shop?.shop_name === 'string' ? `Etsy shop ${shop.shop_name}` : `Etsy shop ${own}`,
      currency: typeof shop?.currency_code === 'string' ? shop.currency_code : null,
    };
  },
  // No Etsy webhooks (see above): nothing verifies, every delivery is refused (401).
  webhooks: syncOnlyWebhooks('Etsy'),
  async orders(conn, env, since, token) {
    const offset = token ? Number(token) : 0;
    // The first sync takes the receipts not shipped nor canceled; later ones every receipt changed since.
    const query: Record<string, string | number | boolean> = since
      ? { min_last_modified: Math.max(EARLIEST, Math.floor(since.getTime() / 1000)), sort_on: 'updated', sort_order: 'asc' }
      : { was_shipped: false, was_canceled: false, sort_on: 'created', sort_order: 'asc' };
    const { data } = await etsyCall<Json>(conn, env, 'GET', `shops/${shopOf(conn)}/receipts`, {
      query: { ...query, limit: ORDER_PAGE, offset },
    });
    const list: Json[] = Array.isArray(data?.results) ? data.results : [];
    const items: ChannelOrder[] = [];
    const skipped: Skipped[] = [];
    for (const r of list) {
      if (Array.isArray(r?.transactions) && r.transactions.length && !physical(r).length)
        skipped.push({
          remote_id: String(r.receipt_id),
          order_number: String(r.receipt_id),
          reason: 'digital downloads only: nothing to ship',
        });
      else items.push(orderFromEtsy(r));
    }
    const seen = offset + list.length;
    return { items, skipped, next: list.length && seen < Number(data?.count ?? 0) ? String(seen) : null };
  },
  async variants(conn, env, token) {
    const offset = token ? Number(token) : 0;
    const { list, count } = await listingsWithInventory(conn, env, offset);
    const seen = offset + list.length;
    return { items: list.flatMap(variantsFromEtsy), next: list.length && seen < count ? String(seen) : null };
  },
  // Etsy ships a receipt, not lines: one shipment per package, its tracking code once.
  fulfill: (conn, env, order, _lines, tracking) => createShipment(conn, env, order, tracking),
  // Etsy follows the carrier's scans itself from the tracking code: nothing to attach.
  shipmentStatus: async () => null,
  setStock: (conn, env, items) => setEtsyStock(conn, env, items),
  // The seller's consent through fos (fos shops connect etsy --oauth): no refresh token made by hand.
  consent: etsyConsent,
};
