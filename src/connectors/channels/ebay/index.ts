import { invalid } from '../../../domain/errors.js';
import { syncOnlyWebhooks } from '../sync-only.js';
import type { ChannelConnector, Json } from '../connector.js';
import { ChannelCallError, type ChannelEnv } from '../http.js';
import type { ChannelOrder, OpenConnection, ShippedLine, TrackingInfo } from '../types.js';
import { ebayCall } from './client.js';
import { orderFromEbay, variantFromEbay } from './map.js';
import { activeListings, parseMarker, reviseQuantities } from './trading.js';
import { CARRIER_CODES, EBAY_API, type EbayCredentials } from './types.js';

// The eBay connector (docs/sales-channels.md §eBay): an application keyset (client id and secret)
// and the seller's refresh token; orders from the Sell Fulfillment API by polling sync only (fos
// subscribes to no eBay notifications: every delivery to the shop's webhook address is refused,
// docs/sales-channels.md §3d says why); shipping fulfillments
// with tracking; stock and listings through the Sell Inventory API (inventory items by SKU), and
// for listings made outside it (Seller Hub, Trading API) through the Trading API (trading.ts).

const ORDER_PAGE = 50; // getOrders: at most 200
const ITEM_PAGE = 100; // getInventoryItems: at most 200
/** bulk_update_price_quantity takes at most 25 requests (SKUs) per call. */
const STOCK_BATCH = 25;
const FULFILLMENT = 'sell/fulfillment/v1/order';

const carrierCode = (company: string | null) =>
  company ? (CARRIER_CODES[company.toLowerCase().replace(/[^a-z]/g, '')] ?? 'Other') : 'Other';

async function createFulfillment(
  conn: OpenConnection,
  env: ChannelEnv,
  order: { remote_id: string; order_number: string },
  lines: ShippedLine[],
  t: TrackingInfo,
) {
  const id = encodeURIComponent(order.remote_id);
  // eBay takes letters and digits only in a tracking number (no spaces or hyphens).
  const number = t.number ? t.number.replace(/[^A-Za-z0-9]/g, '') : '';
  // Idempotent: a fulfillment with this tracking number already on the order (an earlier answer was lost) is not made again.
  if (number) {
    const { data } = await ebayCall<Json>(conn, env, 'GET', `${FULFILLMENT}/${id}/shipping_fulfillment`);
    const there = (data?.fulfillments ?? []).find((f: Json) => String(f.shipmentTrackingNumber ?? '') === number);
    if (there)
      return `eBay already holds fulfillment ${there.fulfillmentId} of ${order.order_number} with this tracking (an earlier answer was lost): nothing sent again`;
  }
  const lineItems = lines.filter((l) => l.quantity > 0).map((l) => ({ lineItemId: l.remote_id, quantity: l.quantity }));
  if (!lineItems.length) throw new ChannelCallError(`eBay order ${order.remote_id}: no shipped lines`, true);
  // shippingCarrierCode and trackingNumber go together or not at all.
  const body = {
    lineItems,
    shippedDate: new Date().toISOString(),
    ...(number ? { shippingCarrierCode: carrierCode(t.company), trackingNumber: number } : {}),
  };
  const res = await ebayCall<Json>(conn, env, 'POST', `${FULFILLMENT}/${id}/shipping_fulfillment`, { body });
  // The new fulfillment's id is the last segment of the Location header.
  const fulfillmentId = decodeURIComponent(
    String(res.headers.location ?? '')
      .split('/')
      .pop() ||
      number ||
      '?',
  );
  return `eBay fulfillment ${fulfillmentId} created for ${order.order_number}`;
}

/** A SKU's published offers (getOffers); none is eBay's 404 (errorId 25713). Unpublished ones take no bulk update. */
async function publishedOffers(conn: OpenConnection, env: ChannelEnv, sku: string): Promise<string[]> {
  try {
    const { data } = await ebayCall<Json>(conn, env, 'GET', 'sell/inventory/v1/offer', { query: { sku, limit: 100 } });
    const offers: Json[] = Array.isArray(data?.offers) ? data.offers : [];
    return offers.filter((o) => o?.status === 'PUBLISHED' && typeof o.offerId === 'string').map((o) => o.offerId as string);
  } catch (err) {
    if (err instanceof ChannelCallError && err.status === 404) return [];
    throw err;
  }
}

/** bulk_update_price_quantity answers each SKU (200, or 207 with some refused): any refusal fails the push with eBay's words. */
function refusals(data: Json): string[] {
  return (Array.isArray(data?.responses) ? data.responses : [])
    .filter((r: Json) => Number(r.statusCode) >= 300)
    .map((r: Json) => `${r.sku}: ${r.errors?.[0]?.longMessage ?? r.errors?.[0]?.message ?? `status ${r.statusCode}`}`);
}

/** Sell Inventory API quantities (bulk_update_price_quantity, 25 SKUs a call); eBay's refusals. */
async function inventoryQuantities(conn: OpenConnection, env: ChannelEnv, items: { remote_id: string; quantity: number }[]) {
  const requests = [];
  for (const i of items) {
    // The listing shows the smaller of the item's and the offer's quantity (eBay's bulk updates
    // guide): a SKU's published offers get the same figure, or a raise would not show.
    const offers = (await publishedOffers(conn, env, i.remote_id)).map((offerId) => ({ offerId, availableQuantity: i.quantity }));
    requests.push({ sku: i.remote_id, shipToLocationAvailability: { quantity: i.quantity }, ...(offers.length ? { offers } : {}) });
  }
  const refused: string[] = [];
  for (let i = 0; i < requests.length; i += STOCK_BATCH) {
    const { data } = await ebayCall<Json>(conn, env, 'POST', 'sell/inventory/v1/bulk_update_price_quantity', {
      body: { requests: requests.slice(i, i + STOCK_BATCH) },
    });
    refused.push(...refusals(data));
  }
  return refused;
}

/**
 * A page of Trading listings. GetMyeBaySelling lists every active listing, the Inventory API's
 * too (those refuse Trading revisions): a SKU that is an inventory item (bulk_get_inventory_item
 * answers 200 for it) was listed already with the inventory items and is left out.
 */
async function tradingVariants(conn: OpenConnection, env: ChannelEnv, page: number) {
  const { items, more } = await activeListings(conn, env, page);
  const inventory = new Set<string>();
  for (let i = 0; i < items.length; i += STOCK_BATCH) {
    const requests = items.slice(i, i + STOCK_BATCH).map((v) => ({ sku: v.remote_id }));
    const { data } = await ebayCall<Json>(conn, env, 'POST', 'sell/inventory/v1/bulk_get_inventory_item', { body: { requests } });
    for (const r of Array.isArray(data?.responses) ? data.responses : []) if (Number(r.statusCode) === 200) inventory.add(String(r.sku));
  }
  return { items: items.filter((v) => !inventory.has(v.remote_id)), next: more ? `t${page + 1}` : null };
}

export const ebay: ChannelConnector = {
  platform: 'EBAY',
  label: 'eBay',
  // The public API names no metadata key for eBay (spec 2.6): buyer and sales record go to custom.
  metadataKey: 'custom',
  fields(c) {
    const need = (v: string | undefined, field: string) => {
      const s = v?.trim();
      if (!s) throw invalid(`body.connection.${field}`, 'is required for an EBAY shop');
      return s;
    };
    const credentials: EbayCredentials = {
      client_id: need(c.client_id, 'client_id'),
      client_secret: need(c.client_secret, 'client_secret'),
      refresh_token: need(c.refresh_token, 'refresh_token'),
      // New or changed keys: the cached token is dropped; the check asks for one.
      access_token: null,
      token_expires_at: null,
      webhook_secret: '',
    };
    const apiBase = (c.api_base_url?.trim() || EBAY_API).replace(/\/+$/, '');
    return { domain: new URL(apiBase).host, credentials, apiBase, apiVersion: null };
  },
  async check(conn, env) {
    // A token refresh and one Fulfillment API read: the keys, the refresh token and the scope.
    const { data } = await ebayCall<Json>(conn, env, 'GET', FULFILLMENT, { query: { limit: 1 } });
    const seller = data?.orders?.[0]?.sellerId;
    return { name: typeof seller === 'string' ? `eBay seller ${seller}` : `eBay (${conn.shop_domain})`, currency: null };
  },
  // No eBay notifications (see above): nothing verifies, every delivery is refused (401).
  webhooks: syncOnlyWebhooks('eBay'),
  async orders(conn, env, since, token) {
    const offset = token ? Number(token) : 0;
    // The first sync takes the orders not yet (fully) shipped; later ones every order modified since.
    const filter = since ? `lastmodifieddate:[${since.toISOString()}..]` : 'orderfulfillmentstatus:{NOT_STARTED|IN_PROGRESS}';
    const { data } = await ebayCall<Json>(conn, env, 'GET', FULFILLMENT, { query: { filter, limit: ORDER_PAGE, offset } });
    const list: Json[] = Array.isArray(data?.orders) ? data.orders : [];
    const items: ChannelOrder[] = list.map(orderFromEbay);
    return { items, next: data?.next && list.length ? String(offset + list.length) : null };
  },
  async variants(conn, env, token) {
    // The inventory items first (token: getInventoryItems' page number, 0 first), then the
    // Trading listings (token "t<page>": GetMyeBaySelling's page number, 1 first).
    if (token?.startsWith('t')) {
      try {
        return await tradingVariants(conn, env, Number(token.slice(1)));
      } catch (err) {
        // Orders come after listings in a sync: a Trading refusal (a keyset without Trading
        // access, a call limit) must not stop them. The next sync reads the listings again.
        if (!(err instanceof ChannelCallError)) throw err;
        return { items: [], next: null, errors: [`eBay Trading listings: ${err.message}`] };
      }
    }
    const page = token ? Number(token) : 0;
    const { data } = await ebayCall<Json>(conn, env, 'GET', 'sell/inventory/v1/inventory_item', {
      query: { limit: ITEM_PAGE, offset: page },
    });
    const list: Json[] = Array.isArray(data?.inventoryItems) ? data.inventoryItems : [];
    const items = list.map(variantFromEbay).filter((v) => v !== null);
    return { items, next: data?.next && list.length ? String(page + 1) : 't1' };
  },
  fulfill: (conn, env, order, lines, tracking) => createFulfillment(conn, env, order, lines, tracking),
  // eBay follows the carrier's scans itself from the tracking number: nothing to attach.
  shipmentStatus: async () => null,
  async setStock(conn, env, items) {
    // A variant discovery found as a Trading listing carries its marker; the others are inventory items.
    const trading = items.filter((i) => parseMarker(i.inventory_item_id));
    const refused = [
      ...(await inventoryQuantities(
        conn,
        env,
        items.filter((i) => !parseMarker(i.inventory_item_id)),
      )),
      ...(trading.length ? await reviseQuantities(conn, env, trading) : []),
    ];
    if (refused.length) throw new ChannelCallError(`eBay refused the quantity of ${refused.join('; ')}`, true);
  },
};
