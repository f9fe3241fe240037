// A loopback BigCommerce speaking the documented REST shapes fos uses (developer.bigcommerce.com:
// Orders V2, Order Shipments, Catalog V3 products with variants, Inventory absolute adjustments,
// Webhooks V3: create, update, delete; Store information), under /stores/{store_hash}/. It checks X-Auth-Token, answers
// every call with the rate-limit headers, a V2 empty list with 204, refusals with the V2 error
// list, and records what fos sent so tests can assert it.

import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from './app.js';

export interface BcRecorded {
  method: string;
  /** The path after /stores/{hash}/, e.g. v2/orders/101/shipments. */
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface BcOrder {
  order: Record<string, any>;
  products: Record<string, any>[];
  addresses: Record<string, any>[];
}

export interface BigCommerceDouble {
  /** The api_base_url to connect with: http://127.0.0.1:<port>/stores/<hash>. */
  url: string;
  hash: string;
  token: string;
  orders: Map<number, BcOrder>;
  shipments: Map<number, any[]>;
  products: any[];
  hooks: any[];
  adjustments: any[];
  calls: BcRecorded[];
  /** The next `n` calls to "<METHOD> <path>" answer `status` (429: with the reset header given). */
  failNext(key: string, n: number, status: number, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

const RATE = { 'X-Rate-Limit-Requests-Quota': '150', 'X-Rate-Limit-Time-Window-Ms': '30000' };

export async function bigcommerceDouble(opts: { hash?: string; token?: string } = {}): Promise<BigCommerceDouble> {
  const state = {
    hash: opts.hash ?? 'abc123',
    token: opts.token ?? 'bc_good',
    orders: new Map<number, BcOrder>(),
    shipments: new Map<number, any[]>(),
    products: [] as any[],
    hooks: [] as any[],
    adjustments: [] as any[],
    calls: [] as BcRecorded[],
  };
  const faults = new Map<string, { n: number; status: number; headers: Record<string, string> }>();
  let left = 150;
  let nextId = 1;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    left = Math.max(0, left - 1);
    const h = { ...RATE, 'X-Rate-Limit-Requests-Left': String(left), 'X-Rate-Limit-Time-Reset-Ms': '12000', ...headers };
    if (body === null) return res.writeHead(status, h).end();
    res.writeHead(status, { 'content-type': 'application/json', ...h }).end(JSON.stringify(body));
  };
  const v2error = (res: ServerResponse, status: number, message: string) => send(res, status, [{ status, message }]);

  function handle(req: IncomingMessage, raw: string, res: ServerResponse) {
    const u = new URL(req.url!, 'http://x');
    const prefix = `/stores/${state.hash}/`;
    if (!u.pathname.startsWith(prefix)) return v2error(res, 404, 'The requested store was not found.');
    const path = u.pathname.slice(prefix.length);
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      return v2error(res, 400, 'The request body is not valid JSON.');
    }
    state.calls.push({ method: req.method!, path, query: Object.fromEntries(u.searchParams), headers: req.headers, body });
    if (req.headers['x-auth-token'] !== state.token)
      return v2error(res, 401, 'You are not authorized to access this resource: the X-Auth-Token is invalid.');
    const key = `${req.method} ${path}`;
    const fault = faults.get(key);
    if (fault && fault.n > 0) {
      fault.n--;
      if (fault.status === 429) return send(res, 429, { status: 429, title: 'Too many requests' }, fault.headers);
      return v2error(res, fault.status, `double fault on ${key}`);
    }
    const q = u.searchParams;
    let m: RegExpMatchArray | null;
    if (key === 'GET v2/store') return send(res, 200, { id: state.hash, name: 'Double Store', domain: 'double.example', currency: 'USD' });
    if (key === 'GET v2/orders') {
      const min = q.get('min_date_modified');
      let list = [...state.orders.values()].map((o) => o.order);
      if (q.get('status_id')) list = list.filter((o) => String(o.status_id) === q.get('status_id'));
      if (min) list = list.filter((o) => new Date(o.date_modified) >= new Date(min));
      const [field, dir] = (q.get('sort') ?? 'id:asc').split(':');
      const val = (o: any) => (field === 'date_modified' ? new Date(o.date_modified).getTime() : o[field!]);
      list.sort((a, b) => (val(a) - val(b)) * (dir === 'desc' ? -1 : 1));
      const limit = Number(q.get('limit') ?? 50);
      const page = Number(q.get('page') ?? 1);
      const slice = list.slice((page - 1) * limit, page * limit);
      return slice.length ? send(res, 200, slice) : send(res, 204, null);
    }
    if ((m = path.match(/^v2\/orders\/(\d+)(?:\/(products|shipping_addresses|shipments))?$/))) {
      const id = Number(m[1]);
      const o = state.orders.get(id);
      if (!o) return v2error(res, 404, 'The requested resource was not found.');
      if (req.method === 'GET' && !m[2]) return send(res, 200, o.order);
      if (req.method === 'GET' && m[2] === 'products') return send(res, 200, o.products);
      if (req.method === 'GET' && m[2] === 'shipping_addresses') return send(res, 200, o.addresses);
      if (req.method === 'GET' && m[2] === 'shipments') {
        const s = state.shipments.get(id) ?? [];
        return s.length ? send(res, 200, s) : send(res, 204, null);
      }
      if (req.method === 'POST' && m[2] === 'shipments') {
        // Docs: order_address_id and items (order_product_id, quantity) are required.
        if (!o.addresses.some((a) => a.id === body?.order_address_id)) return v2error(res, 400, 'The field order_address_id is invalid.');
        if (!Array.isArray(body?.items) || !body.items.length) return v2error(res, 400, 'The field items is required.');
        for (const it of body.items) {
          const p = o.products.find((x) => x.id === it.order_product_id);
          if (!p || p.order_address_id !== body.order_address_id || !(it.quantity > 0) || it.quantity > p.quantity)
            return v2error(res, 400, `The item ${it.order_product_id} cannot be shipped.`);
        }
        const shipment = { id: nextId++, order_id: id, date_created: new Date().toUTCString(), ...body };
        state.shipments.set(id, [...(state.shipments.get(id) ?? []), shipment]);
        return send(res, 201, shipment);
      }
    }
    if (key === 'GET v3/catalog/products') {
      const limit = Number(q.get('limit') ?? 50);
      const page = Number(q.get('page') ?? 1);
      const include = (q.get('include') ?? '').split(',');
      const data = state.products
        .slice((page - 1) * limit, page * limit)
        .map((p) => (include.includes('variants') ? p : { ...p, variants: undefined }));
      const total = state.products.length;
      const pages = Math.max(1, Math.ceil(total / limit));
      return send(res, 200, {
        data,
        meta: { pagination: { total, count: data.length, per_page: limit, current_page: page, total_pages: pages } },
      });
    }
    if (key === 'PUT v3/inventory/adjustments/absolute') {
      const items = body?.items;
      if (!Array.isArray(items) || !items.length || items.length > 2000)
        return send(res, 422, { status: 422, title: 'items must hold 1 to 2000 adjustments' });
      for (const it of items) {
        const ids = ['sku', 'variant_id', 'product_id'].filter((k) => it[k] !== undefined);
        if (!Number.isInteger(it.location_id) || !Number.isInteger(it.quantity) || ids.length !== 1)
          return send(res, 422, { status: 422, title: 'each item needs location_id, quantity and one of sku, variant_id, product_id' });
      }
      state.adjustments.push(body);
      return send(res, 200, { transaction_id: `tx-${state.adjustments.length}` });
    }
    if (key === 'POST v3/hooks') {
      if (typeof body?.scope !== 'string' || !/^https?:\/\//.test(String(body?.destination)))
        return send(res, 422, { status: 422, title: 'scope and destination are required' });
      const hook = { id: nextId++, client_id: 'double', store_hash: state.hash, is_active: true, created_at: 0, updated_at: 0, ...body };
      state.hooks.push(hook);
      return send(res, 200, { data: hook, meta: {} });
    }
    if (req.method === 'PUT' && (m = path.match(/^v3\/hooks\/(\d+)$/))) {
      const hook = state.hooks.find((h) => h.id === Number(m![1]));
      if (!hook) return send(res, 404, { status: 404, title: 'The requested webhook was not found.' });
      Object.assign(hook, body);
      return send(res, 200, { data: hook, meta: {} });
    }
    // Delete Webhook: the deleted hook answered with 200 (developer.bigcommerce.com, Webhooks V3).
    if (req.method === 'DELETE' && (m = path.match(/^v3\/hooks\/(\d+)$/))) {
      const at = state.hooks.findIndex((h) => h.id === Number(m![1]));
      if (at < 0) return send(res, 404, { status: 404, title: 'The requested webhook was not found.' });
      const [hook] = state.hooks.splice(at, 1);
      return send(res, 200, { data: hook, meta: {} });
    }
    return v2error(res, 404, `no route ${key}`);
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => handle(req, raw, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const double = Object.assign(state, {
    url: `http://127.0.0.1:${port}/stores/${state.hash}`,
    failNext(key: string, n: number, status: number, headers: Record<string, string> = {}) {
      faults.set(key, { n, status, headers });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
  return double as BigCommerceDouble;
}

/** A V2 order awaiting fulfillment with its products (one shipping address, id 10<order>). */
export function bcOrder(
  id: number,
  lines: { sku: string; quantity: number; price?: number; variant_id?: number }[],
  opts: { status_id?: number; modified?: Date; payment_status?: string } = {},
): BcOrder {
  const addressId = Number(`10${id}`);
  const billing = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    company: '',
    street_1: '1 Main St',
    street_2: '',
    city: 'Austin',
    state: 'Texas',
    zip: '78751',
    country: 'United States',
    country_iso2: 'US',
    phone: '5125550100',
    email: 'ada@example.com',
  };
  return {
    order: {
      id,
      status_id: opts.status_id ?? 11,
      status: 'Awaiting Fulfillment',
      date_created: new Date(0).toUTCString(),
      date_modified: (opts.modified ?? new Date()).toUTCString(),
      currency_code: 'USD',
      default_currency_code: 'USD',
      payment_status: opts.payment_status ?? 'captured',
      total_tax: '0.0000',
      shipping_cost_ex_tax: '5.0000',
      customer_message: 'leave at the door',
      staff_notes: '',
      channel_id: 1,
      billing_address: billing,
      products: { url: `https://api.bigcommerce.com/stores/abc123/v2/orders/${id}/products`, resource: `/orders/${id}/products` },
      shipping_addresses: {
        url: `https://api.bigcommerce.com/stores/abc123/v2/orders/${id}/shipping_addresses`,
        resource: `/orders/${id}/shipping_addresses`,
      },
    },
    products: lines.map((l, i) => ({
      id: Number(`${id}${i + 1}`),
      order_id: id,
      product_id: 77,
      variant_id: l.variant_id ?? null,
      order_address_id: addressId,
      name: `Product ${l.sku}`,
      sku: l.sku,
      quantity: l.quantity,
      quantity_refunded: 0,
      price_ex_tax: (l.price ?? 10).toFixed(4),
      base_price: (l.price ?? 10).toFixed(4),
      applied_discounts: [],
    })),
    addresses: [{ id: addressId, order_id: id, ...billing, shipping_method: 'Flat Rate' }],
  };
}

export const BC_SECRET = 'bc-webhook-secret';

/** A store/order/* delivery as BigCommerce sends it: the event and the order id only, with the header fos registered. */
export function bcDelivery(t: TestApp, shopId: string, scope: string, orderId: number, opts: { secret?: string | null } = {}) {
  const body = {
    scope,
    store_id: '1001',
    data: { type: 'order', id: orderId },
    hash: createHash('sha1').update(`${scope}${orderId}${Math.random()}`).digest('hex'),
    created_at: Math.floor(Date.now() / 1000),
    producer: 'stores/abc123',
  };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.secret !== null) headers['x-fos-webhook-secret'] = opts.secret ?? BC_SECRET;
  return t.call('POST', `/v1/channels/${shopId}/webhooks`, { token: null, body: JSON.stringify(body), headers });
}

export async function connectBigCommerce(
  t: TestApp,
  merchantTeamId: string,
  double: BigCommerceDouble,
  settings: Record<string, unknown> = {},
) {
  const res = await t.call('POST', '/v1/ops/shops', {
    body: {
      name: `BigCommerce ${Math.random().toString(36).slice(2, 8)}`,
      shop_type: 'BIGCOMMERCE',
      merchant_team_id: merchantTeamId,
      settings,
      connection: { store_hash: double.hash, access_token: double.token, webhook_secret: BC_SECRET, api_base_url: double.url },
    },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as { id: string; slug: string };
}
