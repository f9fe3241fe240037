import { invalid } from '../../../domain/errors.js';
import { syncOnlyWebhooks } from '../sync-only.js';
import type { ChannelConnector, ConnectionInput, Json } from '../connector.js';
import { ChannelCallError } from '../http.js';
import { spCall } from './client.js';
import { confirmShipment, patchQuantity } from './fulfill.js';
import { variantFromAmazon } from './map.js';
import { amazonOrders } from './orders.js';
import { LWA_TOKEN_URL, REGIONS, SP_API_ENDPOINTS, type AmazonCredentials, type AmazonRegion } from './types.js';

// The Amazon Selling Partner API connector (docs/sales-channels.md §3c): a seller's LWA refresh
// token with the app's client id and secret; orders by sync only (Orders API v0, orders.ts) —
// SP-API sends its notifications to Amazon SQS or EventBridge, never to an HTTP address, so fos
// registers and verifies no webhook; merchant-fulfilled orders only; shipment confirmation with
// tracking; stock and listings through the Listings Items API.

const LISTINGS_PAGE = 20;

function need(c: ConnectionInput, key: 'refresh_token' | 'client_id' | 'client_secret' | 'marketplace_id' | 'seller_id') {
  const v = c[key]?.trim();
  if (!v) throw invalid(`body.connection.${key}`, 'is required for an AMAZON shop');
  return v;
}

function amazonFields(c: ConnectionInput) {
  const region = (c.region?.trim().toUpperCase() || 'NA') as AmazonRegion;
  if (!REGIONS.includes(region)) throw invalid('body.connection.region', `must be one of ${REGIONS.join(', ')}`);
  const marketplace = need(c, 'marketplace_id');
  if (!/^[A-Z0-9]{6,20}$/.test(marketplace))
    throw invalid('body.connection.marketplace_id', 'must be a marketplace id, e.g. ATVPDKIKX0DER');
  // New credentials: no cached token is carried over (the check asks for one).
  const credentials: AmazonCredentials = {
    refresh_token: need(c, 'refresh_token'),
    client_id: need(c, 'client_id'),
    client_secret: need(c, 'client_secret'),
    region,
    marketplace_id: marketplace,
    seller_id: need(c, 'seller_id'),
    token_url: c.token_url?.trim() || LWA_TOKEN_URL,
  };
  const apiBase = (c.api_base_url?.trim() || SP_API_ENDPOINTS[region]).replace(/\/+$/, '');
  return { domain: marketplace, credentials, apiBase, apiVersion: null };
}

export const amazon: ChannelConnector = {
  platform: 'AMAZON',
  label: 'Amazon',
  metadataKey: 'custom',
  fields: amazonFields,
  async check(conn, env) {
    // Sellers API getMarketplaceParticipations: the token works and the seller sells in the marketplace.
    const { data } = await spCall<Json>(conn, env, 'GET', 'sellers/v1/marketplaceParticipations');
    const id = (conn.credentials as AmazonCredentials).marketplace_id;
    const list: Json[] = Array.isArray(data?.payload) ? data.payload : [];
    const p = list.find((x) => x?.marketplace?.id === id);
    if (!p) {
      const ids = list.map((x) => x?.marketplace?.id).filter(Boolean);
      throw new ChannelCallError(`the seller does not sell in marketplace ${id} (it sells in: ${ids.join(', ') || 'none'})`, true);
    }
    return { name: String(p.storeName ?? p.marketplace?.name ?? id), currency: p.marketplace?.defaultCurrencyCode ?? null };
  },
  // SP-API notifications go to Amazon SQS or EventBridge only: nothing reaches fos over HTTP.
  webhooks: syncOnlyWebhooks('Amazon'),
  orders: amazonOrders,
  async variants(conn, env, token) {
    const c = conn.credentials as AmazonCredentials;
    const query: Record<string, string | number | string[]> = {
      marketplaceIds: [c.marketplace_id],
      includedData: ['summaries', 'offers'],
      pageSize: LISTINGS_PAGE,
    };
    if (token) query.pageToken = token;
    const path = `listings/2021-08-01/items/${encodeURIComponent(c.seller_id ?? '')}`;
    const { data } = await spCall<Json>(conn, env, 'GET', path, { query });
    const items: Json[] = Array.isArray(data?.items) ? data.items : [];
    return {
      items: items.filter((i) => typeof i?.sku === 'string').map((i) => variantFromAmazon(i, c.marketplace_id)),
      next: data?.pagination?.nextToken || null,
    };
  },
  fulfill: (conn, env, order, lines, tracking) => confirmShipment(conn, env, order, lines, tracking),
  // Amazon takes no carrier scans from the seller: it tracks the package by its number itself.
  shipmentStatus: async () => null,
  async setStock(conn, env, items) {
    for (const i of items) await patchQuantity(conn, env, i.remote_id, i.inventory_item_id, i.quantity);
  },
};
