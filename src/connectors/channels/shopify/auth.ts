import { createHmac, timingSafeEqual } from 'node:crypto';
import { ChannelCallError, describeNetworkError, policyFetch, type ChannelEnv } from '../http.js';
import type { OpenConnection, ShopifyCredentials } from '../types.js';

// Shopify access tokens (docs/sales-channels.md §2). Three ways a shop is connected:
// - a Dev Dashboard app of the merchant's own organisation: client id and secret, exchanged by the
//   client-credentials grant for a token that expires after 24 hours (expires_in);
// - an app the 3PL distributes: the authorization-code grant (shopify-oauth.ts) gives an offline
//   token that does not expire;
// - a legacy custom app's Admin API token (shpat_…), used as it is.
// A client-credentials token is kept sealed with the connection, asked for again when less than
// REFRESH_MARGIN_MS of it is left, and once more when Shopify answers 401 (a revoked or rotated
// token); a second 401 is reported.

export const REFRESH_MARGIN_MS = 10 * 60_000;

/** POST <api base>/admin/oauth/access_token with a form body; Shopify's JSON answer. */
export async function tokenRequest(apiBase: string, env: ChannelEnv, form: Record<string, string>) {
  const url = `${apiBase.replace(/\/+$/, '')}/admin/oauth/access_token`;
  let res: Response;
  try {
    res = await policyFetch(env)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
    });
  } catch (err) {
    if (err instanceof ChannelCallError) throw err;
    throw new ChannelCallError(describeNetworkError(err, new URL(url).host));
  }
  const text = await res.text().catch(() => '');
  let body: { access_token?: unknown; scope?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // A cut or non-JSON answer: transient unless Shopify refused outright.
    if (res.ok || res.status >= 500) throw new ChannelCallError(`Shopify token endpoint answered HTTP ${res.status} without JSON`);
  }
  if (!res.ok || typeof body.access_token !== 'string') {
    const why = [body.error, body.error_description].filter((x) => typeof x === 'string').join(': ') || `HTTP ${res.status}`;
    const permanent = res.status >= 400 && res.status < 500 && res.status !== 429;
    throw new ChannelCallError(
      `Shopify refused the token request (${why}): check the client id and secret and that the app is installed`,
      permanent,
      res.status,
    );
  }
  return {
    access_token: body.access_token,
    scope: typeof body.scope === 'string' ? body.scope : null,
    expires_in: typeof body.expires_in === 'number' ? body.expires_in : null,
  };
}

/** The client-credentials grant: a fresh token for a Dev Dashboard app installed on the shop. */
export async function clientCredentialsToken(apiBase: string, env: ChannelEnv, clientId: string, clientSecret: string, now = Date.now()) {
  const t = await tokenRequest(apiBase, env, { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
  return {
    access_token: t.access_token,
    scope: t.scope,
    token_expires_at: t.expires_in === null ? null : new Date(now + t.expires_in * 1000).toISOString(),
  };
}

const usesGrant = (c: ShopifyCredentials) => !!(c.client_id && c.client_secret);

// One refresh at a time per shop in this process; replicas may each refresh (both tokens work).
const refreshing = new Map<string, Promise<string>>();

/** The token to send: the cached one while it has time left, else a new one (persisted). */
export async function shopifyToken(conn: OpenConnection, env: ChannelEnv, opts: { force?: boolean } = {}): Promise<string> {
  const c = conn.credentials as ShopifyCredentials;
  if (!usesGrant(c)) {
    if (!c.access_token) throw new ChannelCallError('the Shopify connection has no access token and no client credentials', true);
    return c.access_token;
  }
  const fresh = c.access_token && c.token_expires_at && Date.parse(c.token_expires_at) - Date.now() > REFRESH_MARGIN_MS;
  if (fresh && !opts.force) return c.access_token!;
  const key = `${conn.shop_id}:${c.access_token ?? ''}`;
  let p = refreshing.get(key);
  if (!p) {
    p = (async () => {
      const t = await clientCredentialsToken(conn.api_base_url, env, c.client_id!, c.client_secret!);
      const next: ShopifyCredentials = { ...c, ...t };
      conn.credentials = next;
      await conn.persistCredentials?.(next);
      return t.access_token;
    })().finally(() => refreshing.delete(key));
    refreshing.set(key, p);
  }
  return p;
}

/** Whether a 401 may be cured by asking for a new token. */
export const canRefresh = (conn: OpenConnection) => usesGrant(conn.credentials as ShopifyCredentials);

/**
 * Shopify's signature of a redirect to the app (install, OAuth callback): the hex HMAC-SHA256,
 * with the app's client secret, of the other query parameters sorted by name as `k=v` joined by `&`.
 */
export function shopifyQueryHmac(secret: string, query: Record<string, string>): string {
  const message = Object.keys(query)
    .filter((k) => k !== 'hmac' && k !== 'signature')
    .sort()
    .map((k) => `${k}=${query[k]}`)
    .join('&');
  return createHmac('sha256', secret).update(message).digest('hex');
}

export function verifyShopifyQuery(secret: string, query: Record<string, string>): boolean {
  const got = Buffer.from(String(query.hmac ?? ''), 'hex');
  const want = Buffer.from(shopifyQueryHmac(secret, query), 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}
