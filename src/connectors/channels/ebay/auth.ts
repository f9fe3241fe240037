import { send } from '../../../net/outbound.js';
import { ChannelCallError, describeNetworkError, type ChannelEnv } from '../http.js';
import type { OpenConnection } from '../types.js';
import { EBAY_SCOPES, type EbayCredentials } from './types.js';

// eBay User access tokens (docs/sales-channels.md §eBay; developer.ebay.com "Using a refresh token
// to update a User access token"): POST <api base>/identity/v1/oauth2/token with Basic
// client_id:client_secret and the form grant_type=refresh_token, refresh_token, scope. The token
// lives about 2 hours (expires_in); fos keeps it sealed with the connection, asks for a new one
// when less than REFRESH_MARGIN_MS is left, and once more when eBay answers 401.

export const REFRESH_MARGIN_MS = 5 * 60_000;

interface TokenAnswer {
  access_token?: unknown;
  expires_in?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/** The refresh-token grant: a new User access token and when it expires. */
export async function refreshUserToken(conn: OpenConnection, env: ChannelEnv, now = Date.now()) {
  const c = conn.credentials as EbayCredentials;
  const url = `${conn.api_base_url}/identity/v1/oauth2/token`;
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: c.refresh_token, scope: EBAY_SCOPES.join(' ') });
  let res;
  try {
    res = await send({
      url,
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}`,
      },
      body: form.toString(),
      platform: 'ebay',
      operation: 'push',
      allowPrivate: env.allowPrivate,
      // Minting a token twice is harmless: the refresh token stays valid.
      retrySafe: true,
    });
  } catch (err) {
    throw new ChannelCallError(describeNetworkError(err, new URL(url).host));
  }
  let body: TokenAnswer = {};
  try {
    body = JSON.parse(res.body.toString('utf8')) as TokenAnswer;
  } catch {
    if (res.status < 300 || res.status >= 500) throw new ChannelCallError(`eBay's token endpoint answered HTTP ${res.status} without JSON`);
  }
  if (res.status >= 300 || typeof body.access_token !== 'string') {
    const why = [body.error, body.error_description].filter((x) => typeof x === 'string').join(': ') || `HTTP ${res.status}`;
    const permanent = res.status >= 400 && res.status < 500 && res.status !== 429;
    throw new ChannelCallError(
      `eBay refused the token refresh (${why}): check the client id, client secret and refresh token`,
      permanent,
      res.status,
    );
  }
  const seconds = typeof body.expires_in === 'number' ? body.expires_in : 7200;
  return { access_token: body.access_token, token_expires_at: new Date(now + seconds * 1000).toISOString() };
}

// One refresh at a time per shop in this process; replicas may each refresh (both tokens work).
const refreshing = new Map<string, Promise<string>>();

/** The token to send: the cached one while it has time left, else a new one (persisted sealed). */
export async function ebayToken(conn: OpenConnection, env: ChannelEnv, opts: { force?: boolean } = {}): Promise<string> {
  const c = conn.credentials as EbayCredentials;
  const fresh = c.access_token && c.token_expires_at && Date.parse(c.token_expires_at) - Date.now() > REFRESH_MARGIN_MS;
  if (fresh && !opts.force) return c.access_token!;
  const key = `${conn.shop_id}:${c.access_token ?? ''}`;
  let p = refreshing.get(key);
  if (!p) {
    p = (async () => {
      const t = await refreshUserToken(conn, env);
      const next: EbayCredentials = { ...(conn.credentials as EbayCredentials), ...t };
      conn.credentials = next;
      await conn.persistCredentials?.(next);
      return t.access_token;
    })().finally(() => refreshing.delete(key));
    refreshing.set(key, p);
  }
  return p;
}
