// A loopback eBay speaking the documented REST shapes fos uses (developer.ebay.com; the OpenAPI
// specs in hendt/ebay-api src/types/restful/specs): the OAuth token endpoint's refresh-token grant
// (Basic client_id:client_secret, form body), Sell Fulfillment getOrders (filter, limit, offset;
// OrderSearchPagedCollection), getShippingFulfillments and createShippingFulfillment (201 with
// Location, tracking number letters and digits only), Sell Inventory getInventoryItems (offset =
// page number), bulkGetInventoryItem and bulkUpdatePriceQuantity (at most 25 requests; 207 when
// some are refused); and the Trading API at /ws/api.dll (XML, trading-double.ts):
// GetMyeBaySelling's ActiveList and ReviseInventoryStatus.
// Errors come as eBay's {errors: [{errorId, domain, category, message, longMessage}]}. It records
// what fos sent so tests can assert it, and injects faults (401, 429, 5xx) on a route.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from './app.js';
import { trading, type TradingListing } from './trading-double.js';
export type { TradingListing } from './trading-double.js';

export interface EbayRecorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface EbayDouble {
  /** The api_base_url to connect with: http://127.0.0.1:<port>. */
  url: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  orders: Map<string, any>;
  fulfillments: Map<string, any[]>;
  items: any[];
  /** SKU -> the quantity fos set last. */
  quantities: Map<string, number>;
  /** SKU -> its offers (getOffers): { offerId, sku, marketplaceId, status: PUBLISHED | UNPUBLISHED, availableQuantity }. */
  offers: Map<string, any[]>;
  /** Trading listings (Seller Hub / Trading API), by ItemID; ReviseInventoryStatus sets their Quantity. */
  listings: Map<string, TradingListing>;
  calls: EbayRecorded[];
  /** Tokens minted so far (the last one is valid). */
  tokens: string[];
  /** Every access token minted so far stops working (as when it expires): the next call answers 401. */
  expireTokens(): void;
  /** The next `n` calls to "<METHOD> <path>" answer `status` (with the headers given). */
  failNext(key: string, n: number, status: number, headers?: Record<string, string>): void;
  /** The next `n` Trading calls named `call` answer Ack Failure with this ErrorCode (518: the call limit). */
  tradingFailNext(call: string, n: number, code: string): void;
  /** Trading calls of these names are taken and never answered (a lost answer). */
  tradingHangs: Set<string>;
  close(): Promise<void>;
}

const FULFILLMENT = '/sell/fulfillment/v1/order';
const err = (errorId: number, message: string, longMessage = message, domain = 'API_FULFILLMENT') => ({
  errors: [{ errorId, domain, category: 'REQUEST', message, longMessage }],
});

export async function ebayDouble(): Promise<EbayDouble> {
  const state = {
    clientId: 'fos-app-PRD-1234',
    clientSecret: 'PRD-cert-secret',
    refreshToken: 'v^1.1#i^1#refresh',
    orders: new Map<string, any>(),
    fulfillments: new Map<string, any[]>(),
    items: [] as any[],
    quantities: new Map<string, number>(),
    offers: new Map<string, any[]>(),
    listings: new Map<string, TradingListing>(),
    calls: [] as EbayRecorded[],
    tokens: [] as string[],
  };
  const valid = new Set<string>();
  const faults = new Map<string, { n: number; status: number; headers: Record<string, string> }>();
  const tradingFaults = new Map<string, { n: number; code: string }>();
  const tradingHangs = new Set<string>();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (body === null) return res.writeHead(status, headers).end();
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

  function token(req: IncomingMessage, body: URLSearchParams, res: ServerResponse) {
    const basic = `Basic ${Buffer.from(`${state.clientId}:${state.clientSecret}`).toString('base64')}`;
    if (req.headers.authorization !== basic)
      return send(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
    if (req.headers['content-type'] !== 'application/x-www-form-urlencoded')
      return send(res, 400, { error: 'invalid_request', error_description: 'request is missing a required parameter or malformed.' });
    if (body.get('grant_type') !== 'refresh_token')
      return send(res, 400, {
        error: 'unsupported_grant_type',
        error_description: 'grant type in request is not supported by the authorization server',
      });
    if (body.get('refresh_token') !== state.refreshToken)
      return send(res, 400, {
        error: 'invalid_grant',
        error_description: 'the provided authorization refresh token is invalid or was issued to another client',
      });
    const t = `v^1.1#i^1#access-${state.tokens.length + 1}`;
    state.tokens.push(t);
    valid.add(t);
    return send(res, 200, { access_token: t, expires_in: 7200, token_type: 'User Access Token' });
  }

  function orders(q: URLSearchParams, res: ServerResponse) {
    const filter = q.get('filter') ?? '';
    const limit = Number(q.get('limit') ?? 50);
    const offset = Number(q.get('offset') ?? 0);
    if (limit > 200) return send(res, 400, err(30700, "The 'limit' value must be between 1 and 200."));
    let list = [...state.orders.values()];
    const since = filter.match(/^lastmodifieddate:\[([^.\]]+\.\d{3}Z)\.\.\]$/);
    if (since) list = list.filter((o) => new Date(o.lastModifiedDate) >= new Date(since[1]!));
    else if (filter === 'orderfulfillmentstatus:{NOT_STARTED|IN_PROGRESS}')
      list = list.filter((o) => ['NOT_STARTED', 'IN_PROGRESS'].includes(o.orderFulfillmentStatus));
    else if (filter) return send(res, 400, err(30800, `Invalid filter: ${filter}`));
    list.sort((a, b) => Date.parse(a.creationDate) - Date.parse(b.creationDate));
    const page = list.slice(offset, offset + limit);
    const href = (o: number) => `https://api.ebay.com${FULFILLMENT}?filter=${encodeURIComponent(filter)}&limit=${limit}&offset=${o}`;
    return send(res, 200, {
      href: href(offset),
      total: list.length,
      limit,
      offset,
      orders: page,
      ...(offset + limit < list.length ? { next: href(offset + limit) } : {}),
      ...(offset > 0 ? { prev: href(Math.max(0, offset - limit)) } : {}),
    });
  }

  function fulfill(id: string, body: any, res: ServerResponse) {
    const o = state.orders.get(id);
    if (!o) return send(res, 404, err(32100, 'Invalid order ID', `Invalid order ID: ${id}`));
    const lines = body?.lineItems;
    if (!Array.isArray(lines) || !lines.length) return send(res, 400, err(32400, 'Invalid line items', 'lineItems is required.'));
    for (const l of lines) {
      const li = o.lineItems.find((x: any) => x.lineItemId === l.lineItemId);
      if (!li || !(l.quantity > 0) || l.quantity > li.quantity)
        return send(res, 400, err(32400, 'Invalid line item', `Invalid line item ${l.lineItemId}.`));
    }
    if (!!body.trackingNumber !== !!body.shippingCarrierCode)
      return send(res, 400, err(32500, 'Invalid shipment tracking', 'trackingNumber and shippingCarrierCode go together.'));
    if (body.trackingNumber && !/^[A-Za-z0-9]+$/.test(body.trackingNumber))
      return send(res, 400, err(32500, 'Invalid shipment tracking number', 'Only alphanumeric characters are supported.'));
    const fid = body.trackingNumber ?? '999';
    const f = {
      fulfillmentId: fid,
      shipmentTrackingNumber: body.trackingNumber,
      shippingCarrierCode: body.shippingCarrierCode,
      shippedDate: body.shippedDate,
      lineItems: lines,
    };
    state.fulfillments.set(id, [...(state.fulfillments.get(id) ?? []), f]);
    return send(res, 201, null, { location: `https://api.ebay.com${FULFILLMENT}/${id}/shipping_fulfillment/${fid}` });
  }

  function bulkQuantity(body: any, res: ServerResponse) {
    const requests = body?.requests;
    if (!Array.isArray(requests) || !requests.length || requests.length > 25)
      return send(res, 400, err(25709, 'Invalid value for requests', 'requests must hold 1 to 25 entries.', 'API_INVENTORY'));
    const responses = requests.map((r: any) => {
      if (!state.items.some((i) => i.sku === r.sku))
        return {
          sku: r.sku,
          statusCode: 404,
          errors: err(25702, 'SKU not found', `SKU ${r.sku} is not available in the system.`, 'API_INVENTORY').errors,
        };
      if (!Number.isInteger(r.shipToLocationAvailability?.quantity) || r.shipToLocationAvailability.quantity < 0)
        return { sku: r.sku, statusCode: 400, errors: err(25001, 'Invalid quantity', 'Invalid quantity.', 'API_INVENTORY').errors };
      // Offers (PriceQuantity.offers): published offers of this SKU only (the docs: not for unpublished ones).
      const offers = r.offers ?? [];
      const mine = state.offers.get(r.sku) ?? [];
      for (const o of offers) {
        const offer = mine.find((x) => x.offerId === o.offerId);
        if (!offer || offer.status !== 'PUBLISHED' || !Number.isInteger(o.availableQuantity))
          return {
            sku: r.sku,
            offerId: o.offerId,
            statusCode: 400,
            errors: err(25713, 'This Offer is not available.', `Offer ${o.offerId} is not a published offer of ${r.sku}.`, 'API_INVENTORY')
              .errors,
          };
      }
      state.quantities.set(r.sku, r.shipToLocationAvailability.quantity);
      for (const o of offers) mine.find((x) => x.offerId === o.offerId).availableQuantity = o.availableQuantity;
      return { sku: r.sku, statusCode: 200 };
    });
    return send(res, responses.every((r: any) => r.statusCode === 200) ? 200 : 207, { responses });
  }

  function handle(req: IncomingMessage, raw: string, res: ServerResponse) {
    const u = new URL(req.url!, 'http://x');
    const form = req.headers['content-type'] === 'application/x-www-form-urlencoded';
    let body: any;
    if (u.pathname === '/ws/api.dll') {
      state.calls.push({ method: req.method!, path: u.pathname, query: {}, headers: req.headers, body: raw });
      if (tradingHangs.has(String(req.headers['x-ebay-api-call-name']))) return; // no answer, ever
      return trading(req, raw, res, { listings: state.listings, valid, faults: tradingFaults });
    }
    try {
      body = raw ? (form ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw)) : null;
    } catch {
      return send(res, 400, err(2004, 'Invalid request', 'The request has errors.'));
    }
    state.calls.push({ method: req.method!, path: u.pathname, query: Object.fromEntries(u.searchParams), headers: req.headers, body });
    const key = `${req.method} ${u.pathname}`;
    const fault = faults.get(key);
    if (fault && fault.n > 0) {
      fault.n--;
      if (fault.status === 429)
        return send(
          res,
          429,
          err(2001, 'Too many requests', 'The request limit has been reached for the resource.', 'API_INVENTORY'),
          fault.headers,
        );
      return send(res, fault.status, err(10001, 'System error', `double fault on ${key}`), fault.headers);
    }
    if (key === 'POST /identity/v1/oauth2/token') return token(req, new URLSearchParams(raw), res);
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!valid.has(bearer))
      return send(
        res,
        401,
        err(1001, 'Invalid access token', 'Invalid access token. Check the value of the Authorization HTTP request header.', 'OAuth'),
      );
    let m: RegExpMatchArray | null;
    if (key === `GET ${FULFILLMENT}`) return orders(u.searchParams, res);
    if ((m = u.pathname.match(/^\/sell\/fulfillment\/v1\/order\/([^/]+)\/shipping_fulfillment$/))) {
      const id = decodeURIComponent(m[1]!);
      if (req.method === 'GET') {
        const list = state.fulfillments.get(id) ?? [];
        return send(res, 200, { fulfillments: list, total: list.length, warnings: [] });
      }
      if (req.method === 'POST') return fulfill(id, body, res);
    }
    if (key === 'GET /sell/inventory/v1/inventory_item') {
      const limit = Number(u.searchParams.get('limit') ?? 25);
      const page = Number(u.searchParams.get('offset') ?? 0);
      const list = state.items.slice(page * limit, (page + 1) * limit);
      const pages = Math.ceil(state.items.length / limit);
      return send(res, 200, {
        href: `https://api.ebay.com/sell/inventory/v1/inventory_item?limit=${limit}&offset=${page}`,
        total: state.items.length,
        size: pages,
        limit,
        inventoryItems: list,
        ...(page + 1 < pages ? { next: `https://api.ebay.com/sell/inventory/v1/inventory_item?limit=${limit}&offset=${page + 1}` } : {}),
      });
    }
    if (key === 'GET /sell/inventory/v1/offer') {
      // getOffers: a SKU without offers is errorId 25713, HTTP 404.
      const list = state.offers.get(u.searchParams.get('sku') ?? '') ?? [];
      if (!u.searchParams.get('sku')) return send(res, 400, err(25707, 'Invalid sku', 'sku is required.', 'API_INVENTORY'));
      if (!list.length) return send(res, 404, err(25713, 'This Offer is not available.', 'This Offer is not available.', 'API_INVENTORY'));
      return send(res, 200, { href: '', limit: 100, size: 1, total: list.length, offers: list });
    }
    if (key === 'POST /sell/inventory/v1/bulk_update_price_quantity') return bulkQuantity(body, res);
    if (key === 'POST /sell/inventory/v1/bulk_get_inventory_item') {
      const requests = body?.requests;
      if (!Array.isArray(requests) || !requests.length || requests.length > 25)
        return send(res, 400, err(25709, 'Invalid value for requests', 'requests must hold 1 to 25 entries.', 'API_INVENTORY'));
      const responses = requests.map((r: any) => {
        const item = state.items.find((i) => i.sku === r.sku);
        if (item) return { sku: r.sku, statusCode: 200, inventoryItem: item };
        return {
          sku: r.sku,
          statusCode: 404,
          errors: err(25702, 'SKU not found', `SKU ${r.sku} is not available in the system.`, 'API_INVENTORY').errors,
        };
      });
      return send(res, responses.every((r: any) => r.statusCode === 200) ? 200 : 207, { responses });
    }
    return send(res, 404, err(2002, 'Resource not found', `no route ${key}`));
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => handle(req, raw, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const double = Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    expireTokens: () => valid.clear(),
    failNext(key: string, n: number, status: number, headers: Record<string, string> = {}) {
      faults.set(key, { n, status, headers });
    },
    tradingFailNext(call: string, n: number, code: string) {
      tradingFaults.set(call, { n, code });
    },
    tradingHangs,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections(); // the calls left hanging
      }),
  });
  return double as EbayDouble;
}

/** A getOrders Order awaiting shipment: one line per SKU (line item ids <order>-<n>), shipped to Austin, TX. */
export function ebayOrder(
  id: string,
  lines: { sku: string; quantity: number; price?: number }[],
  opts: { modified?: Date; status?: string; cancelState?: string; payment?: string } = {},
) {
  const shipTo = {
    fullName: 'Ada Lovelace',
    contactAddress: { addressLine1: '1 Main St', city: 'Austin', stateOrProvince: 'TX', postalCode: '78751', countryCode: 'US' },
    primaryPhone: { phoneNumber: '5125550100' },
    email: 'ada.b1a2c3@members.ebay.com',
  };
  const usd = (v: number) => ({ value: v.toFixed(2), currency: 'USD' });
  const subtotal = lines.reduce((s, l) => s + (l.price ?? 10) * l.quantity, 0);
  return {
    orderId: id,
    legacyOrderId: `${id}-legacy`,
    creationDate: new Date(0).toISOString(),
    lastModifiedDate: (opts.modified ?? new Date()).toISOString(),
    orderFulfillmentStatus: opts.status ?? 'NOT_STARTED',
    orderPaymentStatus: opts.payment ?? 'PAID',
    sellerId: 'fos_seller',
    buyer: { username: 'ada_buyer', taxAddress: { countryCode: 'US', postalCode: '78751' }, buyerRegistrationAddress: { ...shipTo } },
    buyerCheckoutNotes: 'leave at the door',
    pricingSummary: { priceSubtotal: usd(subtotal), deliveryCost: usd(5), tax: usd(0), total: usd(subtotal + 5) },
    cancelStatus: { cancelState: opts.cancelState ?? 'NONE_REQUESTED', cancelRequests: [] },
    paymentSummary: { totalDueSeller: usd(subtotal + 5), refunds: [], payments: [] },
    fulfillmentStartInstructions: [
      {
        fulfillmentInstructionsType: 'SHIP_TO',
        ebaySupportedFulfillment: false,
        shippingStep: { shipTo, shippingCarrierCode: 'USPS', shippingServiceCode: 'USPSPriority' },
      },
    ],
    fulfillmentHrefs: [],
    lineItems: lines.map((l, i) => ({
      lineItemId: `${id}-${i + 1}`,
      legacyItemId: '110000000001',
      sku: l.sku,
      title: `Product ${l.sku}`,
      lineItemCost: usd((l.price ?? 10) * l.quantity),
      quantity: l.quantity,
      soldFormat: 'FIXED_PRICE',
      listingMarketplaceId: 'EBAY_US',
      purchaseMarketplaceId: 'EBAY_US',
      lineItemFulfillmentStatus: 'NOT_STARTED',
      total: usd((l.price ?? 10) * l.quantity),
      deliveryCost: { shippingCost: usd(5) },
      appliedPromotions: [],
      taxes: [],
      properties: { buyerProtection: true },
    })),
    salesRecordReference: '1001',
    totalFeeBasisAmount: usd(subtotal + 5),
  };
}

export async function connectEbay(t: TestApp, merchantTeamId: string, double: EbayDouble, settings: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/v1/ops/shops', {
    body: {
      name: `eBay ${Math.random().toString(36).slice(2, 8)}`,
      shop_type: 'EBAY',
      merchant_team_id: merchantTeamId,
      settings,
      connection: {
        client_id: double.clientId,
        client_secret: double.clientSecret,
        refresh_token: double.refreshToken,
        api_base_url: double.url,
      },
    },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as { id: string; slug: string };
}
