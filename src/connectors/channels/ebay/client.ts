import { send } from '../../../net/outbound.js';
import { ChannelCallError, assertAllowedUrl, describeNetworkError, type ChannelEnv } from '../http.js';
import type { OpenConnection } from '../types.js';
import { ebayToken } from './auth.js';

// eBay's REST Sell APIs over the shared outbound layer (src/net/outbound.ts), not the `ebay-api`
// npm client: that client hard-codes the token endpoint (api.ebay.com / api.sandbox.ebay.com), so
// api_base_url could not point it at a proxy or a test double, and its timeout is axios's, not
// the layer's deadline. Every call carries the User access token (auth.ts); a 401 gets one new
// token and one more try. Reads are marked retry-safe, so the layer resends them on a failed
// connection, a 5xx or a 429 within its deadline. A 429 that is still there (or any 429 on a
// write: eBay refused it before doing anything) is sent again after Retry-After, or after a
// doubling backoff when eBay names no wait, at most MAX_429 times.

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

/** eBay's words from its error list ({errors: [{errorId, message, longMessage}]}). */
function messageOf(body: Buffer): string | null {
  try {
    const j = JSON.parse(body.toString('utf8'));
    const e = Array.isArray(j?.errors) ? j.errors[0] : null;
    const words = e ? (e.longMessage ?? e.message) : (j?.error_description ?? j?.message);
    return typeof words === 'string' && words ? (e?.errorId ? `${words} (errorId ${e.errorId})` : words) : null;
  } catch {
    return body.length ? body.toString('utf8').slice(0, 200) : null;
  }
}

/** The wait a 429 asks for: Retry-After seconds, else 1 s, 2 s, 4 s. */
const waitOf = (headers: Record<string, string>, n: number) => {
  const after = Number(headers['retry-after']);
  return Math.min(Number.isFinite(after) && after > 0 ? after * 1000 : 1000 * 2 ** n, MAX_WAIT_MS);
};

export async function ebayCall<T = Json>(
  conn: OpenConnection,
  env: ChannelEnv,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  opts: { query?: Record<string, string | number>; body?: unknown } = {},
): Promise<{ data: T; status: number; headers: Record<string, string> }> {
  const url = new URL(`${conn.api_base_url}/${path.replace(/^\//, '')}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  assertAllowedUrl(url.toString(), env);
  let refreshed = false;
  for (let n = 0; ; n++) {
    const headers: Record<string, string> = { authorization: `Bearer ${await ebayToken(conn, env)}`, accept: 'application/json' };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    let res;
    try {
      res = await send({
        url: url.toString(),
        method,
        headers,
        body: opts.body === undefined ? null : JSON.stringify(opts.body),
        platform: 'ebay',
        operation: 'push',
        allowPrivate: env.allowPrivate,
        retrySafe: method === 'GET',
      });
    } catch (err) {
      throw new ChannelCallError(describeNetworkError(err, url.host));
    }
    if (res.status === 401 && !refreshed) {
      // An expired or revoked token (eBay errorId 1001): one new token, one more try.
      refreshed = true;
      await ebayToken(conn, env, { force: true });
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
      throw new ChannelCallError(`eBay refused the access token (HTTP ${res.status}): ${msg}`, true, res.status);
    if (res.status === 429) throw new ChannelCallError(`eBay: rate limited after ${MAX_429} waits (HTTP 429): ${msg}`, false, 429);
    throw new ChannelCallError(`eBay: ${msg} (HTTP ${res.status})`, res.status < 500, res.status);
  }
}
