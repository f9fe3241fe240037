import { DestinationRefused } from '../../../net/network.js';
import { OutboundTimeout, send } from '../../../net/outbound.js';
import { ChannelCallError, assertAllowedUrl, describeNetworkError, type ChannelEnv } from '../http.js';
import type { OpenConnection } from '../types.js';
import { MAX_429, rateLimitSleep } from '../rate-limit.js';
import type { BigCommerceCredentials } from './types.js';

// BigCommerce REST (V2 and V3) over the shared outbound layer (src/net/outbound.ts): BigCommerce
// keeps no Node REST client. Every call carries the store API account's X-Auth-Token. A 429 is
// refused before BigCommerce did anything, so it is sent again — a write too — after the wait
// BigCommerce names in X-Rate-Limit-Time-Reset-Ms (docs: API rate limits), at most MAX_429 times.
// Other failures become ChannelCallError with BigCommerce's own message; 4xx are permanent.

/** Longest wait fos accepts from X-Rate-Limit-Time-Reset-Ms (BigCommerce's windows are 30 s at most). */
const MAX_WAIT_MS = 30_000;

export { setRateLimitSleep } from '../rate-limit.js';

export const BIGCOMMERCE_API = 'https://api.bigcommerce.com/stores';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = any;

/** The platform's words from a V2 error list ([{status, message}]) or a V3 problem ({title, detail, errors}). */
function messageOf(body: Buffer): string | null {
  try {
    const j = JSON.parse(body.toString('utf8'));
    const first = Array.isArray(j) ? j[0] : j;
    const detail = first?.errors && typeof first.errors === 'object' ? Object.values(first.errors).join('; ') : null;
    return [first?.message ?? first?.title, detail].filter(Boolean).join(': ') || null;
  } catch {
    return body.length ? body.toString('utf8').slice(0, 200) : null;
  }
}

export async function bcCall<T = Json>(
  conn: OpenConnection,
  env: ChannelEnv,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: { query?: Record<string, string | number>; body?: unknown } = {},
): Promise<{ data: T; headers: Record<string, string> }> {
  const url = new URL(`${conn.api_base_url}/${path.replace(/^\//, '')}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  assertAllowedUrl(url.toString(), env);
  const c = conn.credentials as BigCommerceCredentials;
  // A shop of the 3PL's app that awaits its install, or whose app was uninstalled, has no token.
  if (!c.access_token)
    throw new ChannelCallError('BigCommerce: no access token (the app is not installed on the store, or was uninstalled)', true, 401);
  const headers: Record<string, string> = { 'x-auth-token': c.access_token, accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  for (let n = 0; ; n++) {
    let res;
    try {
      res = await send({
        url: url.toString(),
        method,
        headers,
        body: opts.body === undefined ? null : JSON.stringify(opts.body),
        platform: 'bigcommerce',
        operation: 'push',
        allowPrivate: env.allowPrivate,
        retrySafe: false,
      });
    } catch (err) {
      // A read whose connection failed (a reused socket the server had closed) is sent once more;
      // a timeout never (the layer's deadline is spent), a refused destination never.
      const failed = !(err instanceof OutboundTimeout) && !(err instanceof DestinationRefused);
      if (method === 'GET' && failed && n < 1) continue;
      throw new ChannelCallError(describeNetworkError(err, url.host));
    }
    if (res.status === 429 && n < MAX_429) {
      const reset = Number(res.headers['x-rate-limit-time-reset-ms']);
      await rateLimitSleep(Math.min(Number.isFinite(reset) && reset > 0 ? reset : 1000, MAX_WAIT_MS));
      continue;
    }
    if (method === 'GET' && [502, 503, 504].includes(res.status) && n < 2) {
      await rateLimitSleep(1000);
      continue;
    }
    if (res.status < 300) {
      // V2 lists answer an empty page with 204 No Content.
      const data = res.status === 204 || !res.body.length ? null : JSON.parse(res.body.toString('utf8'));
      return { data: data as T, headers: res.headers };
    }
    const msg = messageOf(res.body) ?? `HTTP ${res.status}`;
    if (res.status === 401 || res.status === 403)
      throw new ChannelCallError(`BigCommerce refused the API account (HTTP ${res.status}): ${msg}`, true, res.status);
    if (res.status === 429) throw new ChannelCallError(`BigCommerce: rate limited after ${MAX_429} waits (HTTP 429): ${msg}`, false, 429);
    throw new ChannelCallError(`BigCommerce: ${msg} (HTTP ${res.status})`, res.status < 500, res.status);
  }
}
