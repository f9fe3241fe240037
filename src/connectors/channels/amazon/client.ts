import { DestinationRefused } from '../../../net/network.js';
import { OutboundTimeout, send } from '../../../net/outbound.js';
import { ChannelCallError, assertAllowedUrl, describeNetworkError, type ChannelEnv } from '../http.js';
import type { OpenConnection } from '../types.js';
import { MAX_429, rateLimitSleep } from '../rate-limit.js';
import { amazonToken } from './auth.js';

// SP-API calls over the shared outbound layer (src/net/outbound.ts); docs/sales-channels.md §3c
// says why not an npm client. Every call carries the LWA access token in x-amz-access-token (or a
// Restricted Data Token for a restricted path). A 429 was refused before Amazon did anything, so
// it is sent again — a write too — after the wait the operation's rate allows: 1 / the
// x-amzn-RateLimit-Limit header (requests per second), else 1 s, 2 s, 4 s; at most MAX_429 times.
// An access token SP-API refuses (401, or 403 "The access token you provided has expired / is
// revoked…") is renewed once. Other failures become ChannelCallError with Amazon's own words
// ({errors: [{code, message, details}]}); 4xx are permanent.

/** Longest wait fos accepts between two tries (getOrders' default rate, 0.0167/s, asks for 60 s). */
const MAX_WAIT_MS = 60_000;
const USER_AGENT = 'fos/1.0 (Language=JavaScript)';

export { setRateLimitSleep } from '../rate-limit.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
type Json = any;

/** Amazon's words from an ErrorList: "code: message (details)". */
function messageOf(body: Buffer): string | null {
  try {
    const e = JSON.parse(body.toString('utf8'))?.errors?.[0];
    if (!e) return null;
    return `${[e.code, e.message].filter(Boolean).join(': ')}${e.details ? ` (${e.details})` : ''}` || null;
  } catch {
    return body.length ? body.toString('utf8').slice(0, 200) : null;
  }
}

/** The wait before the next try of a throttled call. */
export function rateLimitWait(headers: Record<string, string>, n: number): number {
  const rate = Number(headers['x-amzn-ratelimit-limit']);
  const ms = Number.isFinite(rate) && rate > 0 ? Math.ceil(1000 / rate) : 1000 * 2 ** n;
  return Math.min(ms, MAX_WAIT_MS);
}

const tokenRefused = (status: number, msg: string | null) => status === 401 || (status === 403 && /access token/i.test(msg ?? ''));

export interface SpOptions {
  query?: Record<string, string | number | string[]>;
  body?: unknown;
  /** A Restricted Data Token to send instead of the access token (restricted paths). */
  rdt?: string;
}

export async function spCall<T = Json>(
  conn: OpenConnection,
  env: ChannelEnv,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  opts: SpOptions = {},
): Promise<{ data: T; status: number; headers: Record<string, string> }> {
  const url = new URL(`${conn.api_base_url}/${path.replace(/^\//, '')}`);
  // Arrays are comma-separated (the models' collectionFormat csv).
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, Array.isArray(v) ? v.join(',') : String(v));
  assertAllowedUrl(url.toString(), env);
  let renewed = false;
  let forceNext = false;
  let throttled = 0;
  for (let n = 0; ; n++) {
    const token = opts.rdt ?? (await amazonToken(conn, env, { force: forceNext }));
    forceNext = false;
    const headers: Record<string, string> = { 'x-amz-access-token': token, accept: 'application/json', 'user-agent': USER_AGENT };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    let res;
    try {
      res = await send({
        url: url.toString(),
        method,
        headers,
        body: opts.body === undefined ? null : JSON.stringify(opts.body),
        platform: 'amazon',
        operation: 'push',
        allowPrivate: env.allowPrivate,
        retrySafe: false,
      });
    } catch (err) {
      // A read whose connection failed is sent once more; a timeout never, a refused destination never.
      const failed = !(err instanceof OutboundTimeout) && !(err instanceof DestinationRefused);
      if (method === 'GET' && failed && n < 1) continue;
      throw new ChannelCallError(describeNetworkError(err, url.host));
    }
    if (res.status === 429 && throttled < MAX_429) {
      await rateLimitSleep(rateLimitWait(res.headers, throttled++));
      continue;
    }
    if (method === 'GET' && [500, 502, 503, 504].includes(res.status) && n < 2) {
      await rateLimitSleep(1000);
      continue;
    }
    if (res.status < 300) {
      const data = res.status === 204 || !res.body.length ? null : JSON.parse(res.body.toString('utf8'));
      return { data: data as T, status: res.status, headers: res.headers };
    }
    const msg = messageOf(res.body) ?? `HTTP ${res.status}`;
    if (!opts.rdt && !renewed && tokenRefused(res.status, msg)) {
      renewed = forceNext = true;
      continue;
    }
    if (res.status === 401 || res.status === 403)
      throw new ChannelCallError(`Amazon refused the call (HTTP ${res.status}): ${msg}`, true, res.status);
    if (res.status === 429) throw new ChannelCallError(`Amazon: throttled after ${MAX_429} waits (HTTP 429): ${msg}`, false, 429);
    throw new ChannelCallError(`Amazon: ${msg} (HTTP ${res.status})`, res.status < 500, res.status);
  }
}

/**
 * A Restricted Data Token for one restricted path (Tokens API 2021-03-01,
 * createRestrictedDataToken); a path with {orderId} left in covers every order.
 */
export async function restrictedDataToken(conn: OpenConnection, env: ChannelEnv, path: string): Promise<string> {
  const { data } = await spCall<Json>(conn, env, 'POST', 'tokens/2021-03-01/restrictedDataToken', {
    body: { restrictedResources: [{ method: 'GET', path }] },
  });
  if (typeof data?.restrictedDataToken !== 'string') throw new ChannelCallError('Amazon answered no restrictedDataToken', false);
  return data.restrictedDataToken;
}
