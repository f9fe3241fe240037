// Loopback test doubles of the Shopify GraphQL Admin API and the WooCommerce REST API v3,
// speaking their documented request and response shapes and recording what fos sent, so tests
// assert headers, auth, operations and variables. Also: signed webhook bodies as each platform
// sends them.
//
//   const shopify = await shopifyDouble({ token: 'shpat_x' });   (shopify-double.ts) shopify.url, shopify.calls, …
//   const woo = await wooDouble({ key: 'ck_x', secret: 'cs_x' });  woo.url, woo.calls, woo.orders.push(…)

import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: any;
}

async function listen(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void) {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, body, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

export const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('base64');

// ---------- Shopify ----------

export { shopifyDouble, type ShopifyDouble } from './shopify-double.js';

/** A Shopify order node as the GraphQL `orders` query returns it. */
export function shopifyOrderNode(
  n: number,
  lines: { sku: string; quantity: number; price?: number; variant?: string }[],
  extra: Record<string, unknown> = {},
) {
  return {
    id: `gid://shopify/Order/${n}`,
    name: `#${n}`,
    email: `buyer${n}@example.com`,
    phone: null,
    createdAt: '2026-11-20T10:00:00Z',
    updatedAt: '2026-11-20T10:00:00Z',
    cancelledAt: null,
    displayFinancialStatus: 'PAID',
    note: null,
    tags: ['web'],
    currencyCode: 'USD',
    totalTaxSet: { shopMoney: { amount: '1.00', currencyCode: 'USD' } },
    totalShippingPriceSet: { shopMoney: { amount: '5.00', currencyCode: 'USD' } },
    customer: { displayName: 'Ada Lovelace', email: `buyer${n}@example.com`, phone: null },
    shippingAddress: {
      name: 'Ada Lovelace',
      company: null,
      address1: '1 Main St',
      address2: null,
      city: 'Arlington',
      provinceCode: 'VA',
      countryCodeV2: 'US',
      zip: '22201',
      phone: null,
    },
    billingAddress: null,
    shippingLine: { title: 'Standard' },
    customAttributes: [{ key: 'gift', value: 'yes' }],
    lineItems: {
      nodes: lines.map((l, i) => ({
        id: `gid://shopify/LineItem/${n}${i}`,
        sku: l.sku,
        name: `Item ${l.sku}`,
        quantity: l.quantity,
        originalUnitPriceSet: { shopMoney: { amount: String(l.price ?? 10), currencyCode: 'USD' } },
        totalDiscountSet: { shopMoney: { amount: '0.00', currencyCode: 'USD' } },
        variant: l.variant ? { id: l.variant } : null,
      })),
    },
    ...extra,
  };
}

/** A Shopify orders/create webhook body (REST JSON, as Shopify sends it). */
export function shopifyWebhookOrder(
  id: number,
  lines: { sku: string | null; quantity: number; price?: string; variant_id?: number }[],
  extra: Record<string, unknown> = {},
) {
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${id}`,
    order_number: id,
    email: 'grace@example.com',
    phone: null,
    created_at: '2026-11-24T10:00:00-05:00',
    updated_at: '2026-11-24T10:00:00-05:00',
    cancelled_at: null,
    financial_status: 'paid',
    currency: 'USD',
    total_price: '25.00',
    total_tax: '2.00',
    total_discounts: '0.00',
    note: 'Leave at door',
    tags: 'vip, web',
    note_attributes: [{ name: 'gift_wrap', value: 'yes' }],
    customer: { id: 1, first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', phone: '+1 703 555 0100' },
    shipping_address: {
      first_name: 'Grace',
      last_name: 'Hopper',
      name: 'Grace Hopper',
      company: 'Navy Yard',
      address1: '1 Compiler Road',
      address2: null,
      city: 'Arlington',
      province: 'Virginia',
      province_code: 'VA',
      country: 'United States',
      country_code: 'US',
      zip: '22201',
      phone: '+1 703 555 0100',
    },
    billing_address: null,
    shipping_lines: [{ title: 'Priority', price: '5.00' }],
    total_shipping_price_set: { shop_money: { amount: '5.00', currency_code: 'USD' } },
    line_items: lines.map((l, i) => ({
      id: id * 10 + i,
      admin_graphql_api_id: `gid://shopify/LineItem/${id * 10 + i}`,
      variant_id: l.variant_id ?? null,
      product_id: 7,
      sku: l.sku,
      name: `Item ${l.sku}`,
      title: `Item ${l.sku}`,
      quantity: l.quantity,
      price: l.price ?? '9.00',
      total_discount: '0.00',
    })),
    ...extra,
  };
}

// ---------- WooCommerce ----------

export interface WooDouble {
  url: string;
  calls: Recorded[];
  orders: any[];
  products: any[];
  variations: Map<number, any[]>;
  notes: { order_id: string; body: any }[];
  /** Shipment Tracking extension items by order id (only when the double has the extension). */
  trackings: Map<string, any[]>;
  failNext(pathPrefix: string, n: number, status?: number): void;
  close(): Promise<void>;
}

/** RFC 3986 percent-encoding, as OAuth 1.0a signs. */
const pct = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Checks an OAuth 1.0a HMAC-SHA256 query signature (one-legged: no token) the way WooCommerce does. */
function oauthSignatureOk(req: IncomingMessage, u: URL, secret: string) {
  // A repeated key counts once, the last value winning, as PHP reads the query for WooCommerce
  // (the official client sends its query params in the URL and again among the OAuth params).
  const unique = new Map(u.searchParams);
  const params = [...unique].filter(([k]) => k !== 'oauth_signature').map(([k, v]) => [pct(k), pct(v)] as const);
  params.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
  const base = [req.method!, pct(`http://${req.headers.host}${u.pathname}`), pct(params.map(([k, v]) => `${k}=${v}`).join('&'))].join('&');
  return (
    createHmac('sha256', `${pct(secret)}&`)
      .update(base)
      .digest('base64') === u.searchParams.get('oauth_signature')
  );
}

export async function wooDouble(opts: { key: string; secret?: string; shipmentTracking?: boolean }): Promise<WooDouble> {
  const failures = new Map<string, { n: number; status: number }>();
  const d = {
    calls: [] as Recorded[],
    orders: [] as any[],
    products: [] as any[],
    variations: new Map<number, any[]>(),
    notes: [] as { order_id: string; body: any }[],
    trackings: new Map<string, any[]>(),
  };
  const paged = (res: ServerResponse, items: any[], q: Record<string, string>) => {
    const per = Number(q.per_page ?? 10);
    const pageNo = Number(q.page ?? 1);
    const pages = Math.max(1, Math.ceil(items.length / per));
    return json(res, 200, items.slice((pageNo - 1) * per, pageNo * per), {
      'x-wp-total': String(items.length),
      'x-wp-totalpages': String(pages),
    });
  };
  const server = await listen((req, raw, res) => {
    const u = new URL(req.url!, 'http://x');
    const q = Object.fromEntries(u.searchParams);
    const body = raw ? JSON.parse(raw) : null;
    d.calls.push({ method: req.method!, path: u.pathname, query: q, headers: req.headers, body });
    // Over http the official client signs with OAuth 1.0a (WooCommerce REST API docs).
    if (
      q.oauth_consumer_key !== opts.key ||
      q.oauth_signature_method !== 'HMAC-SHA256' ||
      !q.oauth_signature ||
      !oauthSignatureOk(req, u, opts.secret ?? 'cs_good')
    ) {
      return json(res, 401, {
        code: 'woocommerce_rest_authentication_error',
        message: 'Invalid signature - provided signature does not match.',
        data: { status: 401 },
      });
    }
    // Shipment Tracking's namespace answers only on a store with the extension.
    const tracking = opts.shipmentTracking && u.pathname.startsWith('/wp-json/wc-shipment-tracking/v3/');
    const path = u.pathname.replace(/^\/wp-json\/(wc|wc-shipment-tracking)\/v3\//, tracking ? 'st:' : '');
    if (!tracking && !u.pathname.startsWith('/wp-json/wc/v3/'))
      return json(res, 404, {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    for (const [prefix, f] of failures) {
      // "PUT orders/1" fails only that method; "orders/1" every call under the path.
      const [method, rest] = /^(GET|POST|PUT|DELETE) /.test(prefix) ? prefix.split(' ') : [null, prefix];
      if ((!method || method === req.method) && path.startsWith(rest!) && f.n > 0) {
        f.n--;
        return json(res, f.status, {
          code: 'internal_server_error',
          message: 'There has been a critical error on this website.',
          data: { status: f.status },
        });
      }
    }
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && path === 'system_status') {
      const plugins = [{ plugin: 'woocommerce/woocommerce.php', name: 'WooCommerce', version: '10.3.0' }];
      if (opts.shipmentTracking)
        plugins.push({
          plugin: 'woocommerce-shipment-tracking/woocommerce-shipment-tracking.php',
          name: 'WooCommerce Shipment Tracking',
          version: '2.9.0',
        });
      return json(res, 200, { environment: { site_url: 'https://woo.example' }, settings: { currency: 'EUR' }, active_plugins: plugins });
    }
    if ((m = /^st:orders\/(\d+)\/shipment-trackings$/.exec(path))) {
      const list = d.trackings.get(m[1]!) ?? [];
      if (req.method === 'GET') return json(res, 200, list);
      if (req.method === 'POST') {
        if (!body?.tracking_number)
          return json(res, 400, {
            code: 'rest_missing_callback_param',
            message: 'Missing parameter(s): tracking_number',
            data: { status: 400 },
          });
        const item = { tracking_id: `t${list.length + 1}`, date_shipped: '2026-11-28', ...body };
        d.trackings.set(m[1]!, [...list, item]);
        return json(res, 201, item);
      }
    }
    if (req.method === 'GET' && (m = /^orders\/(\d+)\/notes$/.exec(path)))
      return json(
        res,
        200,
        d.notes
          .map((n, i) => ({ ...n, id: i + 1 }))
          .filter((n) => n.order_id === m![1])
          .map((n) => ({ id: n.id, note: n.body.note, customer_note: !!n.body.customer_note })),
      );
    if (req.method === 'GET' && path === 'orders') {
      const statuses = q.status ? q.status.split(',') : null;
      const list = d.orders.filter(
        (o) => (q.modified_after ? `${o.date_modified_gmt}Z` > q.modified_after : true) && (!statuses || statuses.includes(o.status)),
      );
      return paged(res, list, q);
    }
    if (req.method === 'GET' && path === 'products') return paged(res, d.products, q);
    if (req.method === 'GET' && (m = /^products\/(\d+)\/variations$/.exec(path)))
      return json(res, 200, d.variations.get(Number(m[1])) ?? []);
    if (req.method === 'POST' && (m = /^orders\/(\d+)\/notes$/.exec(path))) {
      d.notes.push({ order_id: m[1]!, body });
      return json(res, 201, { id: d.notes.length, note: body.note, customer_note: body.customer_note });
    }
    if (req.method === 'PUT' && (m = /^orders\/(\d+)$/.exec(path))) {
      const o = d.orders.find((x) => String(x.id) === m![1]);
      if (!o) return json(res, 404, { code: 'woocommerce_rest_shop_order_invalid_id', message: 'Invalid ID.', data: { status: 404 } });
      Object.assign(o, body);
      return json(res, 200, o);
    }
    if (req.method === 'PUT' && /^products\/\d+(\/variations\/\d+)?$/.test(path)) return json(res, 200, { id: 1, ...body });
    return json(res, 404, {
      code: 'rest_no_route',
      message: 'No route was found matching the URL and request method.',
      data: { status: 404 },
    });
  });
  return { ...d, url: server.url, close: server.close, failNext: (prefix, n, status = 500) => failures.set(prefix, { n, status }) };
}

/** A WooCommerce order as REST v3 returns it and webhooks send it. */
export function wooOrder(
  id: number,
  lines: { sku: string; quantity: number; price?: number; product_id?: number; variation_id?: number }[],
  extra: Record<string, unknown> = {},
) {
  return {
    id,
    parent_id: 0,
    number: String(id),
    status: 'processing',
    currency: 'EUR',
    date_created_gmt: '2026-11-24T09:00:00',
    date_modified_gmt: '2026-11-24T09:00:00',
    date_paid_gmt: '2026-11-24T09:00:00',
    discount_total: '0.00',
    shipping_total: '4.00',
    total: '24.00',
    total_tax: '0.00',
    customer_note: 'Ring twice',
    billing: {
      first_name: 'Alan',
      last_name: 'Turing',
      company: '',
      address_1: '2 Bletchley Park',
      address_2: '',
      city: 'Milton Keynes',
      state: '',
      postcode: 'MK3 6EB',
      country: 'GB',
      email: 'alan@example.com',
      phone: '+44 1908 640404',
    },
    shipping: {
      first_name: 'Alan',
      last_name: 'Turing',
      company: '',
      address_1: '2 Bletchley Park',
      address_2: '',
      city: 'Milton Keynes',
      state: '',
      postcode: 'MK3 6EB',
      country: 'GB',
      phone: '',
    },
    payment_method: 'stripe',
    meta_data: [
      { id: 1, key: 'delivery_slot', value: 'morning' },
      { id: 2, key: '_internal', value: 'x' },
    ],
    line_items: lines.map((l, i) => ({
      id: id * 10 + i,
      name: `Woo ${l.sku}`,
      product_id: l.product_id ?? 100 + i,
      variation_id: l.variation_id ?? 0,
      quantity: l.quantity,
      subtotal: String((l.price ?? 10) * l.quantity),
      total: String((l.price ?? 10) * l.quantity),
      sku: l.sku,
      price: l.price ?? 10,
    })),
    shipping_lines: [{ method_title: 'Flat rate' }],
    ...extra,
  };
}
