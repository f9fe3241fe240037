import { send } from '../../net/outbound.js';
import { ChannelCallError, assertAllowedUrl, describeNetworkError, type ChannelEnv } from './http.js';
import { MAX_429, rateLimitSleep, retryAfterWait } from './rate-limit.js';

// One call to a platform's REST API with an OAuth bearer token (eBay, Etsy), over the shared
// outbound layer (src/net/outbound.ts). A 401 gets one new token and one more try. Reads are
// marked retry-safe, so the layer resends them on a failed connection, a 5xx or a 429 within its
// deadline; a 429 that is still there (or any 429 on a write: the platform refused it before doing
// anything) is sent again after Retry-After, or a doubling backoff, at most MAX_429 times. Other
// failures become ChannelCallError with the platform's own words; 4xx are permanent.

export interface TokenCall {
  /** For the outbound log line: 'ebay', 'etsy'. */
  platform: string;
  /** For messages: 'eBay', 'Etsy'. */
  label: string;
  url: URL;
  method: 'GET' | 'POST' | 'PUT';
  body: string | null;
  /** Headers besides the token (content-type, x-api-key, …). */
  headers?: Record<string, string>;
  /** The access token; `force` asks for a new one (after a 401). */
  token(force: boolean): Promise<string>;
  /** The platform's words from an error body. */
  messageOf(body: Buffer): string | null;
}

export async function tokenCall<T>(env: ChannelEnv, c: TokenCall): Promise<{ data: T; status: number; headers: Record<string, string> }> {
  assertAllowedUrl(c.url.toString(), env);
  let refreshed = false;
  for (let n = 0; ; n++) {
    const headers = { ...c.headers, authorization: `Bearer ${await c.token(false)}`, accept: 'application/json' };
    let res;
    try {
      res = await send({
        url: c.url.toString(),
        method: c.method,
        headers,
        body: c.body,
        platform: c.platform,
        operation: 'push',
        allowPrivate: env.allowPrivate,
        retrySafe: c.method === 'GET',
      });
    } catch (err) {
      throw new ChannelCallError(describeNetworkError(err, c.url.host));
    }
    if (res.status === 401 && !refreshed) {
      refreshed = true; // an expired or revoked token: one new token, one more try
      await c.token(true);
      continue;
    }
    if (res.status === 429 && n < MAX_429) {
      await rateLimitSleep(retryAfterWait(res.headers, n));
      continue;
    }
    if (res.status < 300) {
      const data = res.body.length ? JSON.parse(res.body.toString('utf8')) : null;
      return { data: data as T, status: res.status, headers: res.headers };
    }
    const msg = c.messageOf(res.body) ?? `HTTP ${res.status}`;
    if (res.status === 401 || res.status === 403)
      throw new ChannelCallError(`${c.label} refused the access token (HTTP ${res.status}): ${msg}`, true, res.status);
    if (res.status === 429) throw new ChannelCallError(`${c.label}: rate limited after ${MAX_429} waits (HTTP 429): ${msg}`, false, 429);
    throw new ChannelCallError(`${c.label}: ${msg} (HTTP ${res.status})`, res.status < 500, res.status);
  }
}
