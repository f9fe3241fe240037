import { createHash } from 'node:crypto';
// A loopback Etsy speaking the documented Open API v3 shapes fos uses (developers.etsy.com; Etsy's
// OpenAPI 3.0.0 document): the OAuth token endpoint's refresh-token grant (form body with
// client_id = keystring; a new refresh token with every access token), x-api-key =
// keystring:shared_secret on every /v3/application call (403 without the shared secret), getMe,
// getShop, getShopReceipts ({count, results}; limit 1-100, offset, min_last_modified in unix
// seconds, was_shipped, was_canceled, sort_on, sort_order), getShopReceipt, createReceiptShipment
// (form body tracking_code, carrier_name; a shipment entry on the receipt), getListingsByShop
// (includes=Inventory), getListingInventory and updateListingInventory (the whole inventory
// replaced; prices as floats, quantities 0-999; products get new product_ids, as Etsy gives them).
// Errors come as Etsy's {error}. It records what fos sent and injects faults (401, 429, 5xx).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from './app.js';
import { money } from './etsy-fixtures.js';

export interface EtsyRecorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface EtsyDouble {
  /** The api_base_url to connect with: http://127.0.0.1:<port>. */
  url: string;
  keystring: string;
  sharedSecret: string;
  /** The last refresh token Etsy gave out (the first one at start). */
  refreshToken: string;
  /** Every refresh token given out stops working (the seller revoked the app). */
  revokeRefreshTokens(): void;
  userId: number;
  shopId: number;
  /** receipt_id -> ShopReceipt. */
  receipts: Map<number, any>;
  /** ShopListings (without inventory). */
  listings: any[];
  /** listing_id -> ListingInventory. */
  inventories: Map<number, any>;
  calls: EtsyRecorded[];
  /** getListingsByShop refuses the Inventory association (400), as newer Etsy answers may. */
  refuseIncludes: boolean;
  /** Access tokens minted so far (the last one is valid). */
  tokens: string[];
  /**
   * The seller approves fos on /oauth/connect: the code Etsy would redirect with, bound to the URL's
   * code_challenge and redirect_uri (the token endpoint checks the verifier against it, S256).
   */
  consent(authorizeUrl: string): { code: string; state: string; redirectUri: string };
  /** Every access token minted so far stops working (as when it expires): the next call answers 401. */
  expireTokens(): void;
  /** The next `n` calls to "<METHOD> <path>" answer `status` (with the headers given). */
  failNext(key: string, n: number, status: number, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

const APP = '/v3/application';

export async function etsyDouble(): Promise<EtsyDouble> {
  const state = {
    keystring: 'fosetsykeystring1234',
    sharedSecret: 'etsy-shared-secret',
    refreshToken: '77001.refresh-0',
    userId: 77001,
    shopId: 55001,
    receipts: new Map<number, any>(),
    listings: [] as any[],
    inventories: new Map<number, any>(),
    calls: [] as EtsyRecorded[],
    refuseIncludes: false,
    tokens: [] as string[],
  };
  const valid = new Set<string>();
  // Earlier refresh tokens stay valid too: fos must not depend on Etsy retiring them (nor on it keeping them).
  const refreshable = new Set<string>([state.refreshToken]);
  const faults = new Map<string, { n: number; status: number; headers: Record<string, string> }>();
  let nextProduct = 900_000;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  // Authorization codes the seller's consent produced: code -> what /oauth/connect was given.
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string }>();

  function token(body: URLSearchParams, res: ServerResponse) {
    const grant = body.get('grant_type');
    if (grant !== 'refresh_token' && grant !== 'authorization_code') return send(res, 400, { error: 'unsupported_grant_type' });
    if (body.get('client_id') !== state.keystring) return send(res, 401, { error: 'invalid_client', error_description: 'Invalid API key' });
    if (grant === 'authorization_code') {
      const issued = codes.get(body.get('code') ?? '');
      codes.delete(body.get('code') ?? '');
      if (!issued) return send(res, 400, { error: 'invalid_grant', error_description: 'Invalid authorization code' });
      if (issued.redirectUri !== body.get('redirect_uri'))
        return send(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri does not match' });
      const verifier = body.get('code_verifier') ?? '';
      const s256 = createHash('sha256').update(verifier, 'ascii').digest('base64url');
      if (verifier.length < 43 || verifier.length > 128 || s256 !== issued.challenge)
        return send(res, 400, { error: 'invalid_grant', error_description: 'code_verifier is invalid' });
    } else if (!refreshable.has(body.get('refresh_token') ?? ''))
      return send(res, 400, { error: 'invalid_grant', error_description: 'Invalid refresh token' });
    const t = `${state.userId}.access-${state.tokens.length + 1}`;
    state.tokens.push(t);
    valid.add(t);
    state.refreshToken = `${state.userId}.refresh-${state.tokens.length}`;
    refreshable.add(state.refreshToken);
    return send(res, 200, { access_token: t, token_type: 'Bearer', expires_in: 3600, refresh_token: state.refreshToken });
  }

  function receipts(q: URLSearchParams, res: ServerResponse) {
    const limit = Number(q.get('limit') ?? 25);
    const offset = Number(q.get('offset') ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return send(res, 400, { error: 'Expected int <= 100 for limit' });
    let list = [...state.receipts.values()];
    const since = q.get('min_last_modified');
    if (since !== null) {
      if (!/^\d+$/.test(since) || Number(since) < 946684800) return send(res, 400, { error: 'Invalid min_last_modified' });
      list = list.filter((r) => r.updated_timestamp >= Number(since));
    }
    for (const [param, field] of [
      ['was_shipped', 'is_shipped'],
      ['was_paid', 'is_paid'],
    ] as const)
      if (q.has(param)) list = list.filter((r) => String(r[field]) === q.get(param));
    if (q.has('was_canceled')) list = list.filter((r) => (r.status === 'canceled') === (q.get('was_canceled') === 'true'));
    const key = q.get('sort_on') === 'updated' ? 'updated_timestamp' : 'created_timestamp';
    const dir = ['desc', 'descending', 'down'].includes(q.get('sort_order') ?? 'desc') ? -1 : 1;
    list.sort((a, b) => dir * (a[key] - b[key] || a.receipt_id - b.receipt_id));
    return send(res, 200, { count: list.length, results: list.slice(offset, offset + limit) });
  }

  function tracking(receipt: any, body: any, res: ServerResponse) {
    if (!!body?.tracking_code !== !!body?.carrier_name)
      return send(res, 400, { error: 'tracking_code and carrier_name must be sent together' });
    const now = Math.floor(Date.now() / 1000);
    if (body?.tracking_code)
      receipt.shipments.push({
        receipt_shipping_id: 3000 + receipt.shipments.length + 1,
        shipment_notification_timestamp: now,
        carrier_name: body.carrier_name,
        tracking_code: body.tracking_code,
      });
    receipt.is_shipped = true;
    receipt.status = 'completed';
    receipt.updated_timestamp = now;
    return send(res, 200, receipt);
  }

  /** updateListingInventory: the body checked as Etsy's schema says, then the whole inventory replaced. */
  function putInventory(listingId: number, body: any, res: ServerResponse) {
    if (!state.inventories.has(listingId)) return send(res, 404, { error: `Listing ${listingId} does not exist` });
    if (!Array.isArray(body?.products) || !body.products.length) return send(res, 400, { error: 'products is required' });
    for (const p of body.products) {
      if ('product_id' in p || 'is_deleted' in p) return send(res, 400, { error: 'unexpected field in products' });
      if (!Array.isArray(p.offerings) || !p.offerings.length) return send(res, 400, { error: 'offerings is required' });
      for (const o of p.offerings)
        if (
          typeof o.price !== 'number' ||
          !Number.isInteger(o.quantity) ||
          o.quantity < 0 ||
          o.quantity > 999 ||
          typeof o.is_enabled !== 'boolean'
        )
          return send(res, 400, { error: 'offerings need price (float), quantity (0-999) and is_enabled' });
      for (const v of p.property_values ?? [])
        if (!v.property_id || !Array.isArray(v.value_ids) || !Array.isArray(v.values))
          return send(res, 400, { error: 'property_values need property_id, value_ids and values' });
    }
    const inv = {
      products: body.products.map((p: any) => ({
        product_id: ++nextProduct,
        sku: p.sku,
        is_deleted: false,
        property_values: p.property_values ?? [],
        offerings: p.offerings.map((o: any, i: number) => ({
          offering_id: nextProduct * 10 + i,
          quantity: o.quantity,
          is_enabled: o.is_enabled,
          is_deleted: false,
          price: money(o.price),
          // Processing profiles: an offering sent without its readiness state loses it.
          ...(o.readiness_state_id != null ? { readiness_state_id: o.readiness_state_id } : {}),
        })),
      })),
      price_on_property: body.price_on_property ?? [],
      quantity_on_property: body.quantity_on_property ?? [],
      sku_on_property: body.sku_on_property ?? [],
      readiness_state_on_property: body.readiness_state_on_property ?? [],
    };
    state.inventories.set(listingId, inv);
    return send(res, 200, inv);
  }

  function application(req: IncomingMessage, u: URL, body: any, res: ServerResponse) {
    const path = u.pathname.slice(APP.length);
    const key = `${req.method} ${path}`;
    const shop = `/shops/${state.shopId}`;
    let m: RegExpMatchArray | null;
    if (key === 'GET /users/me') return send(res, 200, { user_id: state.userId, shop_id: state.shopId });
    if (key === `GET ${shop}`)
      return send(res, 200, { shop_id: state.shopId, user_id: state.userId, shop_name: 'FosCrafts', currency_code: 'USD' });
    if (key === `GET ${shop}/receipts`) return receipts(u.searchParams, res);
    if ((m = path.match(/^\/shops\/(\d+)\/receipts\/(\d+)(\/tracking)?$/)) && Number(m[1]) === state.shopId) {
      const receipt = state.receipts.get(Number(m[2]));
      if (!receipt) return send(res, 404, { error: `Receipt ${m[2]} does not exist` });
      if (req.method === 'GET' && !m[3]) return send(res, 200, receipt);
      if (req.method === 'POST' && m[3]) return tracking(receipt, body, res);
    }
    if (key === `GET ${shop}/listings`) {
      const limit = Number(u.searchParams.get('limit') ?? 25);
      const offset = Number(u.searchParams.get('offset') ?? 0);
      const withInventory = u.searchParams.get('includes') === 'Inventory';
      if (withInventory && state.refuseIncludes) return send(res, 400, { error: 'Inventory is not a valid association for this endpoint' });
      const list = state.listings.filter((l) => l.state === (u.searchParams.get('state') ?? 'active'));
      const page = list
        .slice(offset, offset + limit)
        .map((l) => (withInventory ? { ...l, inventory: state.inventories.get(l.listing_id) } : l));
      return send(res, 200, { count: list.length, results: page });
    }
    if ((m = path.match(/^\/listings\/(\d+)\/inventory$/))) {
      const id = Number(m[1]);
      if (req.method === 'GET')
        return state.inventories.has(id)
          ? send(res, 200, state.inventories.get(id))
          : send(res, 404, { error: `Listing ${id} does not exist` });
      if (req.method === 'PUT') return putInventory(id, body, res);
    }
    if ((m = path.match(/^\/shops\/(\d+)\//)) && Number(m[1]) !== state.shopId)
      return send(res, 403, { error: 'You do not have permission to access this shop' });
    return send(res, 404, { error: `no route ${key}` });
  }

  function handle(req: IncomingMessage, raw: string, res: ServerResponse) {
    const u = new URL(req.url!, 'http://x');
    const form = req.headers['content-type'] === 'application/x-www-form-urlencoded';
    let body: any;
    try {
      body = raw ? (form ? Object.fromEntries(new URLSearchParams(raw)) : JSON.parse(raw)) : null;
    } catch {
      return send(res, 400, { error: 'Invalid request body' });
    }
    state.calls.push({ method: req.method!, path: u.pathname, query: Object.fromEntries(u.searchParams), headers: req.headers, body });
    const key = `${req.method} ${u.pathname}`;
    const fault = faults.get(key);
    if (fault && fault.n > 0) {
      fault.n--;
      if (fault.status === 429) return send(res, 429, { error: 'You have exceeded your quota of: 10 requests per second.' }, fault.headers);
      return send(res, fault.status, { error: `double fault on ${key}` }, fault.headers);
    }
    if (key === 'POST /v3/public/oauth/token') return token(new URLSearchParams(raw), res);
    if (!u.pathname.startsWith(`${APP}/`)) return send(res, 404, { error: `no route ${key}` });
    const apiKey = String(req.headers['x-api-key'] ?? '');
    if (apiKey === state.keystring) return send(res, 403, { error: 'Shared secret is required in x-api-key header' });
    if (apiKey !== `${state.keystring}:${state.sharedSecret}`) return send(res, 403, { error: 'Invalid API key' });
    const bearer = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!valid.has(bearer)) return send(res, 401, { error: 'invalid_token' });
    return application(req, u, body, res);
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
    consent(authorizeUrl: string) {
      const q = new URL(authorizeUrl).searchParams;
      if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || q.get('client_id') !== state.keystring)
        throw new Error(`Etsy would refuse this connect URL: ${authorizeUrl}`);
      const code = `code-${codes.size + 1}-${Math.random().toString(36).slice(2)}`;
      codes.set(code, {
        challenge: q.get('code_challenge') ?? '',
        redirectUri: q.get('redirect_uri') ?? '',
        clientId: q.get('client_id')!,
      });
      return { code, state: q.get('state') ?? '', redirectUri: q.get('redirect_uri') ?? '' };
    },
    revokeRefreshTokens: () => refreshable.clear(),
    failNext(key: string, n: number, status: number, headers: Record<string, string> = {}) {
      faults.set(key, { n, status, headers });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  });
  return double as EtsyDouble;
}

export async function connectEtsy(t: TestApp, merchantTeamId: string, double: EtsyDouble, connection: Record<string, unknown> = {}) {
  const res = await t.call('POST', '/v1/ops/shops', {
    body: {
      name: `Etsy ${Math.random().toString(36).slice(2, 8)}`,
      shop_type: 'ETSY',
      merchant_team_id: merchantTeamId,
      connection: {
        client_id: double.keystring,
        client_secret: double.sharedSecret,
        refresh_token: double.refreshToken,
        api_base_url: double.url,
        ...connection,
      },
    },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json() as { id: string; slug: string };
}
