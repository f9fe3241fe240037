import { invalid } from '../../../domain/errors.js';
import type { ChannelConnector, ConnectionInput } from '../connector.js';
import type { ShopifyCredentials } from '../types.js';
import { header, verifyPlatformSignature } from '../webhook-signature.js';
import { shopifyFulfill } from './fulfill.js';
import { answerFulfillmentNotification } from './fulfillment-service.js';
import { orderFromWebhook } from './map.js';
import {
  SHOPIFY_API_VERSION,
  checkShopify,
  shopifyBaseUrl,
  shopifyOrdersPage,
  shopifySetAvailable,
  shopifyShipmentEvent,
  shopifyVariantsPage,
} from './reads.js';

// The Shopify connector (GraphQL Admin API through @shopify/admin-api-client): docs/sales-channels.md.

export const SHOPIFY_TOPICS = ['orders/create', 'orders/updated', 'orders/cancelled'];

/**
 * Shopify: a legacy token (shpat_…) or a Dev Dashboard app's client id and secret (the token is
 * then asked for by the check call and cached); webhooks of such an app are signed with its secret.
 */
function shopifyCredentials(c: ConnectionInput): ShopifyCredentials {
  const t = (v?: string | null) => v?.trim() || null;
  const [id, secret, token] = [t(c.client_id), t(c.client_secret), t(c.access_token)];
  if (id || secret) {
    if (!id) throw invalid('body.connection.client_id', 'is required with client_secret');
    if (!secret) throw invalid('body.connection.client_secret', 'is required with client_id');
    // A changed app invalidates the cached token: it is asked for again.
    const keep =
      c.client_id === id && c.client_secret === secret ? { access_token: token, token_expires_at: c.token_expires_at ?? null } : {};
    return { client_id: id, client_secret: secret, webhook_secret: t(c.webhook_secret) ?? secret, ...keep };
  }
  if (!token)
    throw invalid(
      'body.connection',
      'a Shopify connection needs client_id and client_secret (Dev Dashboard app) or an access_token (shpat_…)',
    );
  if (!t(c.webhook_secret)) throw invalid('body.connection.webhook_secret', 'is required for a SHOPIFY shop');
  return { access_token: token, webhook_secret: t(c.webhook_secret)! };
}

export const shopify: ChannelConnector = {
  platform: 'SHOPIFY',
  label: 'Shopify',
  metadataKey: 'shopify',
  fields(c) {
    if (!c.shop_domain) throw invalid('body.connection.shop_domain', 'is required for a SHOPIFY shop');
    const domain = c.shop_domain
      .trim()
      .replace(/^https?:\/\//, '')
      .replace(/\/.*$/, '')
      .toLowerCase();
    const credentials = shopifyCredentials(c);
    const apiBase = (c.api_base_url?.trim() || shopifyBaseUrl(domain)).replace(/\/+$/, '');
    return { domain, credentials, apiBase, apiVersion: c.api_version ?? SHOPIFY_API_VERSION };
  },
  check: checkShopify,
  webhooks: {
    topics: SHOPIFY_TOPICS,
    verify: (secret, headers, body) => verifyPlatformSignature(secret, body, header(headers, 'x-shopify-hmac-sha256')),
    topic: (headers) => header(headers, 'x-shopify-topic'),
    deliveryId: (headers) => header(headers, 'x-shopify-webhook-id'),
    async interpret(topic, body) {
      const order = orderFromWebhook(body);
      if (topic === 'orders/cancelled') order.cancelled = true;
      return { kind: 'order', order };
    },
  },
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
  async answerRequests(db, shopId, body, env) {
    let kind: unknown;
    try {
      kind = JSON.parse(body.toString('utf8'))?.kind;
    } catch {
      kind = null;
    }
    if (kind !== 'FULFILLMENT_REQUEST' && kind !== 'CANCELLATION_REQUEST')
      throw invalid('body.kind', 'must be FULFILLMENT_REQUEST or CANCELLATION_REQUEST');
    return answerFulfillmentNotification(db, shopId, kind, { allowPrivate: env.allowPrivate }, { allowPrivate: env.allowPrivate });
  },
};
