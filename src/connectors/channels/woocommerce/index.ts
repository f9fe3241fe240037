import { invalid } from '../../../domain/errors.js';
import type { ChannelConnector } from '../connector.js';
import { header, verifyPlatformSignature } from '../webhook-signature.js';
import { checkWoo, orderFromWoo, wooCall, wooFulfill, wooOrdersPage, wooSetStock, wooVariantsPage } from './api.js';

// The WooCommerce connector (REST API v3 through @woocommerce/woocommerce-rest-api): docs/sales-channels.md.

export const WOO_TOPICS = ['order.created', 'order.updated', 'order.deleted'];

export const woocommerce: ChannelConnector = {
  platform: 'WOOCOMMERCE',
  label: 'WooCommerce',
  metadataKey: 'meta_data',
  fields(c) {
    const need = (k: 'store_url' | 'consumer_key' | 'consumer_secret' | 'webhook_secret') => {
      if (!c[k]) throw invalid(`body.connection.${k}`, 'is required for a WOOCOMMERCE shop');
      return c[k]!.trim();
    };
    const domain = need('store_url').replace(/\/+$/, '');
    if (!/^https?:\/\//.test(domain)) throw invalid('body.connection.store_url', 'must be the store address, https://…');
    const credentials = {
      consumer_key: need('consumer_key'),
      consumer_secret: need('consumer_secret'),
      webhook_secret: need('webhook_secret'),
    };
    return { domain, credentials, apiBase: (c.api_base_url?.trim() || domain).replace(/\/+$/, ''), apiVersion: null };
  },
  check: checkWoo,
  webhooks: {
    topics: WOO_TOPICS,
    verify: (secret, headers, body) => verifyPlatformSignature(secret, body, header(headers, 'x-wc-webhook-signature')),
    // WooCommerce pings a new webhook with an unsigned form body "webhook_id=<n>" and disables
    // webhooks whose ping fails.
    isPing: (headers, body) => !header(headers, 'x-wc-webhook-signature') && /^webhook_id=\d+$/.test(body.toString('utf8')),
    topic: (headers) => header(headers, 'x-wc-webhook-topic'),
    deliveryId: (headers) => header(headers, 'x-wc-webhook-delivery-id'),
    async interpret(topic, body) {
      if (topic !== 'order.deleted') return { kind: 'order', order: orderFromWoo(body) };
      const id = body?.id;
      if (typeof id !== 'number' && typeof id !== 'string') throw new Error('order.deleted without an order id');
      return { kind: 'cancel', remote_id: String(id) };
    },
  },
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
