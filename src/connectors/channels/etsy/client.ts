import { send } from '../../../net/outbound.js';
import { ChannelCallError, assertAllowedUrl, describeNetworkError, type ChannelEnv } from '../http.js';
import type { OpenConnection } from '../types.js';
import { apiKey, etsyToken } from './auth.js';
import type { EtsyCredentials } from './types.js';

// Etsy's Open API v3 over the shared outbound layer (src/net/outbound.ts), not the `etsy-ts` npm
// client: its token refresh posts to the fixed https://api.etsy.com/v3/public/oauth/token with
// the global axios instance (no base URL, no transport of fos's), so api_base_url could not point
// it at a proxy or a test double, and its calls' timeout would be axios's, not the layer's
// deadline (docs/sales-channels.md §3e). Every call carries x-api-key (keystring:shared_secret)
// and the seller's access token (auth.ts); a 401 gets one new token and one more try. Reads are
// marked retry-safe, so the layer resends them on a failed connection, a 5xx or a 429 within its
// deadline. A 429 that is still there (or any 429 on a write: Etsy refused it before doing
// anything) is sent again after Retry-After, or after a doubling backoff when Etsy names no
// wait, at most MAX_429 times.

const MAX_429 = 3;
const MAX_WAIT_MS = 60_000;

let sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** Tests replace the wait (no test depends on time); returns the previous one. */
export function setRateLimitSleep(fn: (ms: number) => Promise<void>) {
  const prev = sleep;
  sleep = fn;
  return prev;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = any;

/** Etsy's words: its errors are {error: "…"} (the token endpoint's {error, error_description}). */
function messageOf(body: Buffer): string | null {
  try {
    const j = JSON.parse(body.toString('utf8'));
    const words = [j?.error, j?.error_description].filter((w) => typeof w === 'string' && w).join(': ');
    return words || null;
  } catch {
    return body.length ? body.toString('utf8').slice(0, 200) : null;
  }
}

/** The wait a 429 asks for: Retry-After seconds, else 1 s, 2 s, 4 s. */
const waitOf = (headers: Record<string, string>, n: number) => {
  const after = Number(headers['retry-after']);
  return Math.min(Number.isFinite(after) && after > 0 ? after * 1000 : 1000 * 2 ** n, MAX_WAIT_MS);
};

export interface EtsyCallOptions {
  query?: Record<string, string | number | boolean>;
  /** A JSON body (updateListingInventory). */
  json?: unknown;
  /** A form body (createReceiptShipment takes application/x-www-form-urlencoded). */
  form?: Record<string, string>;
}

/** One Open API call, path relative to /v3/application/. */
export async function etsyCall<T = Json>(
  conn: OpenConnection,
  env: ChannelEnv,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  opts: EtsyCallOptions = {},
): Promise<{ data: T; status: number; headers: Record<string, string> }> {
  const url = new URL(`${conn.api_base_url}/v3/application/${path.replace(/^\//, '')}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  assertAllowedUrl(url.toString(), env);
  const body = opts.json !== undefined ? JSON.stringify(opts.json) : opts.form ? new URLSearchParams(opts.form).toString() : null;
  let refreshed = false;
  for (let n = 0; ; n++) {
    const headers: Record<string, string> = {
      'x-api-key': apiKey(conn.credentials as EtsyCredentials),
      authorization: `Bearer ${await etsyToken(conn, env)}`,
      accept: 'application/json',
    };
    if (opts.json !== undefined) headers['content-type'] = 'application/json';
    else if (opts.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    let res;
    try {
      res = await send({
        url: url.toString(),
        method,
        headers,
        body,
        platform: 'etsy',
        operation: 'push',
        allowPrivate: env.allowPrivate,
        retrySafe: method === 'GET',
      });
    } catch (err) {
      throw new ChannelCallError(describeNetworkError(err, url.host));
    }
    if (res.status === 401 && !refreshed) {
      // An expired or revoked access token: one new token, one more try.
      refreshed = true;
      await etsyToken(conn, env, { force: true });
      continue;
    }
    if (res.status === 429 && n < MAX_429) {
      await sleep(waitOf(res.headers, n));
      continue;
    }
    if (res.status < 300) {
      const data = res.body.length ? JSON.parse(res.body.toString('utf8')) : null;
      return { data: data as T, status: res.status, headers: res.headers };
    }
    const msg = messageOf(res.body) ?? `HTTP ${res.status}`;
    if (res.status === 401 || res.status === 403)
      throw new ChannelCallError(`Etsy refused the call (HTTP ${res.status}): ${msg}`, true, res.status);
    if (res.status === 429) throw new ChannelCallError(`Etsy: rate limited after ${MAX_429} waits (HTTP 429): ${msg}`, false, 429);
    throw new ChannelCallError(`Etsy: ${msg} (HTTP ${res.status})`, res.status < 500, res.status);
  }
}
