import { DestinationRefused } from '../../../net/network.js';
import { send } from '../../../net/outbound.js';
import { ChannelCallError, assertAllowedUrl, describeNetworkError, type ChannelEnv } from '../http.js';
import type { OpenConnection } from '../types.js';
import type { AmazonCredentials } from './types.js';

// Login with Amazon (SP-API docs, "Connecting to the SP-API", step 1): the seller's refresh token
// and the app's client id and secret are exchanged at the LWA token endpoint (form body
// grant_type=refresh_token, refresh_token, client_id, client_secret) for an access token of an
// hour ({access_token, token_type, expires_in, refresh_token}); LWA's refusals are
// {error, error_description}. The token is kept sealed with the connection and asked for again
// when less than REFRESH_MARGIN_MS of it is left, or once when SP-API refuses it (client.ts).

export const REFRESH_MARGIN_MS = 5 * 60_000;

export async function lwaToken(c: AmazonCredentials, env: ChannelEnv, now = Date.now()) {
  assertAllowedUrl(c.token_url, env);
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: c.refresh_token,
    client_id: c.client_id,
    client_secret: c.client_secret,
  });
  let res;
  try {
    res = await send({
      url: c.token_url,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', accept: 'application/json' },
      body: form.toString(),
      platform: 'amazon',
      operation: 'push',
      allowPrivate: env.allowPrivate,
      retrySafe: true, // a token request changes nothing: safe to send again
    });
  } catch (err) {
    const refused = err instanceof DestinationRefused;
    throw new ChannelCallError(describeNetworkError(err, new URL(c.token_url).host), refused);
  }
  let body: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    // Not JSON: a proxy's page or a cut answer; transient unless LWA refused outright.
  }
  if (res.status >= 300 || typeof body.access_token !== 'string') {
    const why = [body.error, body.error_description].filter((x) => typeof x === 'string').join(': ') || `HTTP ${res.status}`;
    const permanent = res.status >= 400 && res.status < 500 && res.status !== 429;
    throw new ChannelCallError(
      `Login with Amazon refused the token request (${why}): check the refresh token and the app's client id and secret`,
      permanent,
      res.status,
    );
  }
  const seconds = typeof body.expires_in === 'number' ? body.expires_in : 3600;
  return { access_token: body.access_token, token_expires_at: new Date(now + seconds * 1000).toISOString() };
}

// One refresh at a time per shop and token in this process; replicas may each refresh (both tokens work).
const refreshing = new Map<string, Promise<string>>();

/** The access token to send: the cached one while it has time left, else a new one (persisted sealed). */
export async function amazonToken(conn: OpenConnection, env: ChannelEnv, opts: { force?: boolean } = {}): Promise<string> {
  const c = conn.credentials as AmazonCredentials;
  const fresh = c.access_token && c.token_expires_at && Date.parse(c.token_expires_at) - Date.now() > REFRESH_MARGIN_MS;
  if (fresh && !opts.force) return c.access_token!;
  const key = `${conn.shop_id}:${c.access_token ?? ''}`;
  let p = refreshing.get(key);
  if (!p) {
    p = (async () => {
      const t = await lwaToken(c, env);
      const next: AmazonCredentials = { ...(conn.credentials as AmazonCredentials), ...t };
      conn.credentials = next;
      await conn.persistCredentials?.(next);
      return t.access_token;
    })().finally(() => refreshing.delete(key));
    refreshing.set(key, p);
  }
  return p;
}
