// Loopback double of the Shopify GraphQL Admin API and its OAuth token endpoint, speaking the
// documented request and response shapes and recording what fos sent. It holds orders, variants,
// fulfillment orders (with their assigned location and request status), fulfillments, a
// fulfillment service, and the tokens it issued (client-credentials grant and authorization code),
// and injects faults: an HTTP status (429 with Retry-After), a truncated JSON answer, or an answer
// lost after the operation ran. Every request is first parsed and validated against the Admin API
// schema of its version (test/fixtures/shopify-admin-subset.graphql, shopify-schema.ts): an
// unknown field, argument or input field answers GraphQL errors as Shopify does; a valid one is
// then matched by its root fields.
//
//   const shopify = await shopifyDouble({ token: 'shpat_x', clientId: 'cid', clientSecret: 'csec' });

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { graphqlAnswer, opOf, type State } from './shopify-double-ops.js';
import { shopifyRequestErrors } from './shopify-schema.js';

export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: any;
}

export type Fault = number | 'truncated' | 'lost';

export interface ShopifyDouble extends State {
  url: string;
  calls: Recorded[];
  /** Access tokens issued by the grants (valid until revokeTokens). */
  tokens: Set<string>;
  /** Token requests answered, by grant. */
  grants: { grant_type: string; client_id: string }[];
  /** expires_in of the next client-credentials tokens (default 86399). */
  expiresIn: number;
  /** Authorization codes the callback may exchange (one use each). */
  codes: Set<string>;
  /** The issued tokens stop working: the next call with one answers 401. */
  revokeTokens(): void;
  /** Requests refused by the schema (answered with GraphQL errors): a test expecting none checks it is empty. */
  invalid: { query: string; errors: { message: string }[] }[];
  /** false: even newly issued tokens are refused (an app that lost its access). */
  acceptIssued: boolean;
  /** The next n calls of an operation fail so: an HTTP status, a cut JSON body, or no answer after it ran. */
  failNext(operation: string, n: number, fault?: Fault): void;
  close(): Promise<void>;
}

export const SCOPES =
  'read_orders,read_products,read_inventory,write_inventory,read_locations,read_merchant_managed_fulfillment_orders,' +
  'write_merchant_managed_fulfillment_orders,read_assigned_fulfillment_orders,write_assigned_fulfillment_orders,write_fulfillments';

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

export async function shopifyDouble(opts: { token?: string; clientId?: string; clientSecret?: string }): Promise<ShopifyDouble> {
  const failures = new Map<string, { n: number; fault: Fault }>();
  const d = {
    calls: [] as Recorded[],
    orders: [] as any[],
    variants: [] as any[],
    fulfillmentOrders: new Map<string, any[]>(),
    fulfillments: [] as any[],
    fulfillmentEvents: [] as any[],
    inventorySets: [] as any[],
    services: [] as any[],
    requests: [] as any[],
    tokens: new Set<string>(),
    grants: [] as { grant_type: string; client_id: string }[],
    expiresIn: 86399,
    codes: new Set<string>(),
    owners: [] as any[],
    acceptIssued: true,
    invalid: [] as { query: string; errors: { message: string }[] }[],
  };
  let issued = 0;
  const tokenEndpoint = (raw: string, res: ServerResponse) => {
    const p = Object.fromEntries(new URLSearchParams(raw));
    const app = p.client_id === opts.clientId && p.client_secret === opts.clientSecret && !!opts.clientId;
    if (!app) return send(res, 400, { error: 'invalid_client', error_description: 'Client authentication failed' });
    if (p.grant_type === 'client_credentials') {
      const token = `shpca_${++issued}`;
      d.tokens.add(token);
      d.grants.push({ grant_type: p.grant_type, client_id: p.client_id! });
      return send(res, 200, { access_token: token, scope: SCOPES, expires_in: d.expiresIn });
    }
    if (p.code && d.codes.delete(p.code)) {
      const token = `shpua_${++issued}`;
      d.tokens.add(token);
      d.grants.push({ grant_type: 'authorization_code', client_id: p.client_id! });
      return send(res, 200, { access_token: token, scope: SCOPES });
    }
    return send(res, 400, { error: 'invalid_request', error_description: 'The authorization code was not found or was already used' });
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const u = new URL(req.url!, 'http://x');
      const json = /json/.test(String(req.headers['content-type'])) && raw ? JSON.parse(raw) : raw || null;
      d.calls.push({ method: req.method!, path: u.pathname, query: Object.fromEntries(u.searchParams), headers: req.headers, body: json });
      if (req.method === 'POST' && u.pathname === '/admin/oauth/access_token') return tokenEndpoint(raw, res);
      if (req.method !== 'POST' || !/^\/admin\/api\/[\w-]+\/graphql\.json$/.test(u.pathname))
        return send(res, 404, { errors: 'Not Found' });
      const version = /^\/admin\/api\/([\w-]+)\//.exec(u.pathname)![1]!;
      const token = String(req.headers['x-shopify-access-token'] ?? '');
      if (!(token === opts.token || (d.acceptIssued && d.tokens.has(token))))
        return send(res, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
      // Every request is validated against the Admin schema of its version (the subset fos uses).
      const invalid = shopifyRequestErrors(version, json?.query, json?.variables);
      if (invalid) {
        d.invalid.push({ query: json?.query, errors: invalid });
        return send(res, 200, { errors: invalid });
      }
      const op = opOf(json.query);
      const f = failures.get(op);
      const fault = f && f.n > 0 ? (f.n--, f.fault) : null;
      if (fault === null || typeof fault !== 'number') {
        const body = graphqlAnswer(d as unknown as State, op, json.query, json.variables ?? {}, version);
        if (fault === 'lost') return void req.socket.destroy(); // it ran; the answer never arrives
        if (fault === 'truncated') {
          const text = JSON.stringify(body);
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(text.slice(0, Math.floor(text.length / 2)));
        }
        return send(res, 200, body);
      }
      {
        const f = { fault };
        const headers: Record<string, string> = f.fault === 429 ? { 'retry-after': '0' } : {};
        return send(
          res,
          f.fault,
          {
            errors:
              f.fault === 429
                ? 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.'
                : 'Internal Server Error',
          },
          headers,
        );
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return Object.assign(d, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    revokeTokens: () => d.tokens.clear(),
    failNext: (op: string, n: number, fault: Fault = 500) => void failures.set(op, { n, fault }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  }) as unknown as ShopifyDouble;
}
