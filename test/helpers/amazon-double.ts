// A loopback Amazon speaking the documented shapes fos uses (selling-partner-api-models: ordersV0.json,
// tokens_2021-03-01.json, sellers.json, listingsItems_2021-08-01.json; Login with Amazon's token
// endpoint). It checks the LWA form and the x-amz-access-token header, refuses an expired token
// as SP-API does (403 Unauthorized, "The access token you provided has expired."), pages with
// NextToken, serves the address only to a Restricted Data Token, validates confirmShipment and
// patchListingsItem bodies, answers every call with x-amzn-RateLimit-Limit, and records what fos sent.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from './app.js';

export interface AmzRecorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface AmzOrder {
  order: Record<string, any>;
  items: Record<string, any>[];
  address: Record<string, any>;
}

export interface AmazonDouble {
  /** api_base_url and token_url to connect with. */
  url: string;
  tokenUrl: string;
  marketplaceId: string;
  sellerId: string;
  refreshToken: string;
  /** The seller's app has the restricted (PII) role: RDTs are issued. */
  pii: boolean;
  orders: Map<string, AmzOrder>;
  listings: any[];
  confirmations: { orderId: string; body: any }[];
  patches: { sku: string; query: Record<string, string>; body: any }[];
  tokensIssued: number;
  calls: AmzRecorded[];
  /** Every access token issued so far stops working (as at the end of its hour). */
  expireTokens(): void;
  /** The next `n` calls to "<METHOD> <path>" answer `status` with these headers. */
  failNext(key: string, n: number, status: number, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

const ORDERS_PAGE = 2; // small pages, so a sync pages with NextToken
const ITEMS_PAGE = 1;
const RATES: Record<string, string> = { 'GET /orders/v0/orders': '0.0167' };
const ADDRESS_RE = /^\/orders\/v0\/orders\/([^/]+)\/address$/;

const err = (code: string, message: string, details?: string) => ({ errors: [{ code, message, ...(details ? { details } : {}) }] });

export async function amazonDouble(opts: { refreshToken?: string; pii?: boolean } = {}): Promise<AmazonDouble> {
  const state = {
    marketplaceId: 'ATVPDKIKX0DER',
    sellerId: 'A2SELLER0TOKEN',
    refreshToken: opts.refreshToken ?? 'Atzr|good-refresh',
    pii: opts.pii ?? true,
    orders: new Map<string, AmzOrder>(),
    listings: [] as any[],
    confirmations: [] as { orderId: string; body: any }[],
    patches: [] as { sku: string; query: Record<string, string>; body: any }[],
    tokensIssued: 0,
    calls: [] as AmzRecorded[],
  };
  const valid = new Set<string>();
  const rdts = new Set<string>();
  const faults = new Map<string, { n: number; status: number; headers: Record<string, string> }>();

  const send = (res: ServerResponse, key: string, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const h = { 'x-amzn-RateLimit-Limit': RATES[key] ?? '0.5', 'x-amzn-RequestId': `req-${state.calls.length}`, ...headers };
    if (body === null) return res.writeHead(status, h).end();
    res.writeHead(status, { 'content-type': 'application/json', ...h }).end(JSON.stringify(body));
  };

  function token(req: IncomingMessage, raw: string, res: ServerResponse) {
    const f = new URLSearchParams(raw);
    state.calls.push({ method: 'POST', path: '/auth/o2/token', query: {}, headers: req.headers, body: Object.fromEntries(f) });
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return send(res, '', 400, { error: 'invalid_request', error_description: 'form body expected' });
    if (f.get('grant_type') !== 'refresh_token' || f.get('client_id') !== 'amzn1.application-oa2-client.fos')
      return send(res, '', 400, { error: 'invalid_client', error_description: 'Client authentication failed' });
    if (f.get('client_secret') !== 'lwa-secret')
      return send(res, '', 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
    if (f.get('refresh_token') !== state.refreshToken)
      return send(res, '', 400, {
        error: 'invalid_grant',
        error_description: 'The request has an invalid grant parameter : refresh_token',
      });
    const t = `Atza|access-${++state.tokensIssued}`;
    valid.add(t);
    send(res, '', 200, { access_token: t, refresh_token: state.refreshToken, token_type: 'bearer', expires_in: 3600 });
  }

  function orders(res: ServerResponse, key: string, q: URLSearchParams) {
    if (!q.get('MarketplaceIds')) return send(res, key, 400, err('InvalidInput', 'MarketplaceIds is required.'));
    if (!q.get('CreatedAfter') && !q.get('LastUpdatedAfter'))
      return send(res, key, 400, err('InvalidInput', 'Either CreatedAfter or LastUpdatedAfter must be specified.'));
    if (q.get('CreatedAfter') && q.get('LastUpdatedAfter'))
      return send(res, key, 400, err('InvalidInput', 'LastUpdatedAfter cannot be set when CreatedAfter is set.'));
    const statuses = q.get('OrderStatuses')?.split(',');
    const after = q.get('LastUpdatedAfter') ?? q.get('CreatedAfter')!;
    const field = q.get('LastUpdatedAfter') ? 'LastUpdateDate' : 'PurchaseDate';
    const list = [...state.orders.values()]
      .map((o) => o.order)
      .filter((o) => q.get('MarketplaceIds')!.split(',').includes(o.MarketplaceId))
      .filter((o) => !statuses || statuses.includes(o.OrderStatus))
      .filter((o) => new Date(o[field]) >= new Date(after))
      .sort((a, b) => a.AmazonOrderId.localeCompare(b.AmazonOrderId));
    const start = q.get('NextToken') ? Number(Buffer.from(q.get('NextToken')!, 'base64').toString()) : 0;
    const page = list.slice(start, start + ORDERS_PAGE);
    const next = start + ORDERS_PAGE < list.length ? Buffer.from(String(start + ORDERS_PAGE)).toString('base64') : undefined;
    send(res, key, 200, { payload: { Orders: page, ...(next ? { NextToken: next } : {}), CreatedBefore: new Date().toISOString() } });
  }

  function confirm(res: ServerResponse, key: string, o: AmzOrder, body: any) {
    const p = body?.packageDetail;
    if (body?.marketplaceId !== state.marketplaceId) return send(res, key, 400, err('InvalidInput', 'marketplaceId is invalid.'));
    for (const f of ['packageReferenceId', 'carrierCode', 'trackingNumber', 'shipDate', 'orderItems'])
      if (p?.[f] === undefined) return send(res, key, 400, err('InvalidInput', `packageDetail.${f} is required.`));
    if (!/^[1-9]\d*$/.test(p.packageReferenceId))
      return send(res, key, 400, err('InvalidInput', 'packageReferenceId must be a positive number.'));
    if (p.carrierCode === 'Other' && !p.carrierName) return send(res, key, 400, err('InvalidInput', 'carrierName is required for Other.'));
    for (const it of p.orderItems) {
      const item = o.items.find((i) => i.OrderItemId === it.orderItemId);
      if (!item || !(it.quantity > 0) || it.quantity > item.QuantityOrdered - item.QuantityShipped)
        return send(res, key, 400, err('InvalidInput', `orderItemId ${it.orderItemId} cannot be shipped.`));
    }
    for (const it of p.orderItems) o.items.find((i) => i.OrderItemId === it.orderItemId)!.QuantityShipped += it.quantity;
    o.order.OrderStatus = o.items.every((i) => i.QuantityShipped >= i.QuantityOrdered) ? 'Shipped' : 'PartiallyShipped';
    state.confirmations.push({ orderId: o.order.AmazonOrderId, body });
    send(res, key, 204, null);
  }

  function sp(req: IncomingMessage, u: URL, body: any, res: ServerResponse) {
    const key = `${req.method} ${u.pathname}`;
    const q = u.searchParams;
    const access = String(req.headers['x-amz-access-token'] ?? '');
    let m: RegExpMatchArray | null;
    if ((m = u.pathname.match(ADDRESS_RE))) {
      if (!rdts.has(access)) return send(res, key, 403, err('Unauthorized', 'Access to requested resource is denied.'));
      const o = state.orders.get(decodeURIComponent(m[1]!));
      if (!o) return send(res, key, 404, err('NotFound', 'The order was not found.'));
      return send(res, key, 200, { payload: { AmazonOrderId: o.order.AmazonOrderId, ShippingAddress: o.address } });
    }
    if (!valid.has(access))
      return send(
        res,
        key,
        403,
        err('Unauthorized', 'Access to requested resource is denied.', 'The access token you provided has expired.'),
      );
    const fault = faults.get(key);
    if (fault && fault.n > 0) {
      fault.n--;
      return send(
        res,
        key,
        fault.status,
        err(fault.status === 429 ? 'QuotaExceeded' : 'InternalFailure', `double fault on ${key}`),
        fault.headers,
      );
    }
    if (key === 'GET /sellers/v1/marketplaceParticipations')
      return send(res, key, 200, {
        payload: [
          {
            marketplace: {
              id: state.marketplaceId,
              name: 'Amazon.com',
              countryCode: 'US',
              defaultCurrencyCode: 'USD',
              defaultLanguageCode: 'en_US',
              domainName: 'www.amazon.com',
            },
            participation: { isParticipating: true, hasSuspendedListings: false },
            storeName: 'Double Seller',
          },
        ],
      });
    if (key === 'POST /tokens/2021-03-01/restrictedDataToken') {
      const r = body?.restrictedResources?.[0];
      if (!r || r.method !== 'GET' || !ADDRESS_RE.test(r.path))
        return send(res, key, 400, err('InvalidInput', 'restrictedResources is invalid.'));
      if (!state.pii)
        return send(
          res,
          key,
          403,
          err('Unauthorized', 'Access to requested resource is denied.', 'The application is not authorized for restricted data.'),
        );
      const t = `Atz.sprdt|rdt-${rdts.size + 1}`;
      rdts.add(t);
      return send(res, key, 200, { restrictedDataToken: t, expiresIn: 3600 });
    }
    if (key === 'GET /orders/v0/orders') return orders(res, key, q);
    if ((m = u.pathname.match(/^\/orders\/v0\/orders\/([^/]+)\/(orderItems|shipmentConfirmation)$/))) {
      const o = state.orders.get(decodeURIComponent(m[1]!));
      if (!o) return send(res, key, 404, err('NotFound', 'The order was not found.'));
      if (req.method === 'POST' && m[2] === 'shipmentConfirmation') return confirm(res, key, o, body);
      const start = q.get('NextToken') ? Number(q.get('NextToken')!.slice(5)) : 0;
      const next = start + ITEMS_PAGE < o.items.length ? `items${start + ITEMS_PAGE}` : undefined;
      const OrderItems = o.items.slice(start, start + ITEMS_PAGE);
      return send(res, key, 200, { payload: { AmazonOrderId: o.order.AmazonOrderId, OrderItems, ...(next ? { NextToken: next } : {}) } });
    }
    if ((m = u.pathname.match(/^\/listings\/2021-08-01\/items\/([^/]+)(?:\/([^/]+))?$/))) {
      if (m[1] !== state.sellerId) return send(res, key, 403, err('Unauthorized', 'Access to requested resource is denied.'));
      if (q.get('marketplaceIds') !== state.marketplaceId) return send(res, key, 400, err('InvalidInput', 'marketplaceIds is invalid.'));
      if (req.method === 'GET' && !m[2]) {
        const size = Number(q.get('pageSize') ?? 10);
        const start = q.get('pageToken') ? Number(q.get('pageToken')) : 0;
        const items = state.listings.slice(start, start + size);
        const nextToken = start + size < state.listings.length ? String(start + size) : undefined;
        return send(res, key, 200, { numberOfResults: state.listings.length, items, ...(nextToken ? { pagination: { nextToken } } : {}) });
      }
      if (req.method === 'PATCH' && m[2]) {
        const sku = decodeURIComponent(m[2]);
        if (typeof body?.productType !== 'string' || !Array.isArray(body?.patches) || !body.patches.length)
          return send(res, key, 400, err('InvalidInput', 'productType and patches are required.'));
        state.patches.push({ sku, query: Object.fromEntries(q), body });
        return send(res, key, 200, { sku, status: 'ACCEPTED', submissionId: `sub-${state.patches.length}`, issues: [] });
      }
    }
    send(res, key, 404, err('NotFound', `no route ${key}`));
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const u = new URL(req.url!, 'http://x');
      if (u.pathname === '/auth/o2/token' && req.method === 'POST') return token(req, raw, res);
      let body: any;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        return send(res, '', 400, err('InvalidInput', 'The body is not JSON.'));
      }
      state.calls.push({ method: req.method!, path: u.pathname, query: Object.fromEntries(u.searchParams), headers: req.headers, body });
      sp(req, u, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    tokenUrl: `http://127.0.0.1:${port}/auth/o2/token`,
    expireTokens: () => valid.clear(),
    failNext(key: string, n: number, status: number, headers: Record<string, string> = {}) {
      faults.set(key, { n, status, headers });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  }) as AmazonDouble;
}

/** A merchant-fulfilled (MFN) Unshipped order with its items and its buyer's address. */
export function amzOrder(
  id: string,
  lines: { sku: string; quantity: number; price?: number }[],
  opts: { channel?: 'MFN' | 'AFN'; status?: string; updated?: Date; purchased?: Date } = {},
): AmzOrder {
  const updated = (opts.updated ?? new Date()).toISOString();
  const total = lines.reduce((s, l) => s + (l.price ?? 10) * l.quantity, 0);
  return {
    order: {
      AmazonOrderId: id,
      PurchaseDate: (opts.purchased ?? new Date(Date.now() - 86_400_000)).toISOString(),
      LastUpdateDate: updated,
      OrderStatus: opts.status ?? 'Unshipped',
      FulfillmentChannel: opts.channel ?? 'MFN',
      SalesChannel: 'Amazon.com',
      ShipServiceLevel: 'Std US D2D Dom',
      OrderTotal: { CurrencyCode: 'USD', Amount: total.toFixed(2) },
      NumberOfItemsShipped: 0,
      NumberOfItemsUnshipped: lines.reduce((s, l) => s + l.quantity, 0),
      MarketplaceId: 'ATVPDKIKX0DER',
      LatestShipDate: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      IsPrime: false,
      IsBusinessOrder: false,
      // Without restricted data, getOrders names only these.
      ShippingAddress: { City: 'AUSTIN', StateOrRegion: 'TX', PostalCode: '78751-1234', CountryCode: 'US' },
      BuyerInfo: { BuyerEmail: 'abc123@marketplace.amazon.com' },
    },
    items: lines.map((l, i) => ({
      ASIN: `B0TEST${i}`,
      SellerSKU: l.sku,
      OrderItemId: `${id.replace(/-/g, '')}${i + 1}`,
      Title: `Product ${l.sku}`,
      QuantityOrdered: l.quantity,
      QuantityShipped: 0,
      ItemPrice: { CurrencyCode: 'USD', Amount: ((l.price ?? 10) * l.quantity).toFixed(2) },
      ItemTax: { CurrencyCode: 'USD', Amount: '0.00' },
      ShippingPrice: { CurrencyCode: 'USD', Amount: '4.99' },
      PromotionDiscount: { CurrencyCode: 'USD', Amount: '0.00' },
    })),
    address: {
      Name: 'Ada Lovelace',
      AddressLine1: '1 Main St',
      City: 'Austin',
      StateOrRegion: 'TX',
      PostalCode: '78751',
      CountryCode: 'US',
      Phone: '5125550100',
      AddressType: 'Residential',
    },
  };
}

export async function connectAmazon(t: TestApp, merchantTeamId: string, d: AmazonDouble, settings: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/v1/ops/shops', {
    body: {
      name: `Amazon ${Math.random().toString(36).slice(2, 8)}`,
      shop_type: 'AMAZON',
      merchant_team_id: merchantTeamId,
      settings,
      connection: amazonConnection(d),
    },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as { id: string; slug: string };
}

export const amazonConnection = (d: AmazonDouble) => ({
  refresh_token: d.refreshToken,
  client_id: 'amzn1.application-oa2-client.fos',
  client_secret: 'lwa-secret',
  region: 'NA',
  marketplace_id: d.marketplaceId,
  seller_id: d.sellerId,
  token_url: d.tokenUrl,
  api_base_url: d.url,
});
