import { DestinationRefused } from '../../net/network.js';
import { send } from '../../net/outbound.js';
import { ChannelCallError, describeNetworkError, type ChannelEnv } from './http.js';
import type { OpenConnection } from './types.js';

// The refresh-token grant shared by the connectors that mint short-lived access tokens (Amazon's
// Login with Amazon, eBay's User tokens): reading the token endpoint's answer, and the access token
// kept sealed with the connection, renewed when little of it is left or when the platform refuses it.

/**
 * A form POST to a token endpoint through the outbound layer: the answer, or a ChannelCallError
 * for a connection that failed (permanent when fos's network policy refused the address).
 * `retrySafe`: whether the layer may send it again (a refresh-token grant that rotates the refresh
 * token, or an authorization code, is good once).
 */
export async function postTokenForm(
  env: ChannelEnv,
  t: { url: string; platform: string; form: URLSearchParams; headers?: Record<string, string>; retrySafe: boolean },
) {
  try {
    return await send({
      url: t.url,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...t.headers },
      body: t.form.toString(),
      platform: t.platform,
      operation: 'push',
      allowPrivate: env.allowPrivate,
      retrySafe: t.retrySafe,
    });
  } catch (err) {
    throw new ChannelCallError(describeNetworkError(err, new URL(t.url).host), err instanceof DestinationRefused);
  }
}

/** Less than this left on a cached token: a new one is asked for. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

export interface MintedToken {
  access_token: string;
  token_expires_at: string;
}

interface TokenAnswer {
  access_token?: unknown;
  expires_in?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/**
 * A token endpoint's answer as a token, or a ChannelCallError: permanent for a 4xx refusal (the
 * refresh token or the app keys are wrong), transient for a 429, a 5xx or a cut or non-JSON answer.
 * `refused(why)` words the refusal for the person.
 */
export function tokenFromAnswer(
  res: { status: number; body: Buffer },
  now: number,
  defaultSeconds: number,
  refused: (why: string) => string,
): MintedToken {
  let body: TokenAnswer = {};
  try {
    body = JSON.parse(res.body.toString('utf8')) as TokenAnswer;
  } catch {
    // Not JSON: a proxy's page or a cut answer; transient unless the endpoint refused outright.
  }
  if (res.status >= 300 || typeof body.access_token !== 'string') {
    const why = [body.error, body.error_description].filter((x) => typeof x === 'string').join(': ') || `HTTP ${res.status}`;
    const permanent = res.status >= 400 && res.status < 500 && res.status !== 429;
    throw new ChannelCallError(refused(why), permanent, res.status);
  }
  const seconds = typeof body.expires_in === 'number' ? body.expires_in : defaultSeconds;
  return { access_token: body.access_token, token_expires_at: new Date(now + seconds * 1000).toISOString() };
}

// One refresh at a time per shop and token in this process; replicas may each refresh (both tokens work).
const refreshing = new Map<string, Promise<string>>();

/** The access token to send: the cached one while it has time left, else `mint()`'s (persisted sealed). */
export async function cachedAccessToken(
  conn: OpenConnection,
  mint: () => Promise<MintedToken>,
  opts: { force?: boolean } = {},
): Promise<string> {
  const c = conn.credentials as { access_token?: string | null; token_expires_at?: string | null };
  const fresh = c.access_token && c.token_expires_at && Date.parse(c.token_expires_at) - Date.now() > REFRESH_MARGIN_MS;
  if (fresh && !opts.force) return c.access_token!;
  const key = `${conn.shop_id}:${c.access_token ?? ''}`;
  let p = refreshing.get(key);
  if (!p) {
    p = (async () => {
      const t = await mint();
      const next = { ...conn.credentials, ...t } as OpenConnection['credentials'];
      conn.credentials = next;
      await conn.persistCredentials?.(next);
      return t.access_token;
    })().finally(() => refreshing.delete(key));
    refreshing.set(key, p);
  }
  return p;
}
