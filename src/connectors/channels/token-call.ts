import { send, type OutboundResponse } from '../../net/outbound.js';
import { ChannelCallError, assertAllowedUrl, describeNetworkError, type ChannelEnv } from './http.js';
import { MAX_429, rateLimitSleep, retryAfterWait } from './rate-limit.js';

// One call to a platform's API with an OAuth token (eBay's REST and Trading APIs, Etsy), over the
// shared outbound layer (src/net/outbound.ts). A refused token gets one new token and one more
// try; a rate limit is waited out after Retry-After, or a doubling backoff, at most MAX_429 times.
// Calls marked retry-safe are also resent by the layer on a failed connection, a 5xx or a 429
// within its deadline. What counts as a refused token or a rate limit is the platform's (`judge`):
// REST says it with 401 and 429, the Trading API with error codes in an HTTP 200.

/** What one answer means: its value, or that the token was refused or the call limited, and the error if it stays so. */
export type Judged<T> =
  | { value: T }
  | {
      expired?: boolean;
      limited?: boolean;
      /** The error to throw when no retry is left. */
      error(): ChannelCallError;
    };

export interface AuthorizedCall<T> {
  /** For the outbound log line: 'ebay', 'etsy'. */
  platform: string;
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  body: string | null;
  /** Whether the outbound layer may send it again by itself (reads, absolute quantities). */
  retrySafe: boolean;
  /** The request's headers carrying this token. */
  headers(token: string): Record<string, string>;
  /** The access token; `force` asks for a new one (after a refusal). */
  token(force: boolean): Promise<string>;
  judge(res: OutboundResponse): Judged<T>;
}

export async function authorizedCall<T>(env: ChannelEnv, c: AuthorizedCall<T>): Promise<T> {
  assertAllowedUrl(c.url, env);
  let refreshed = false;
  for (let n = 0; ; n++) {
    const headers = c.headers(await c.token(false));
    let res;
    try {
      res = await send({
        url: c.url,
        method: c.method,
        headers,
        body: c.body,
        platform: c.platform,
        operation: 'push',
        allowPrivate: env.allowPrivate,
        retrySafe: c.retrySafe,
      });
    } catch (err) {
      throw new ChannelCallError(describeNetworkError(err, new URL(c.url).host));
    }
    const j = c.judge(res);
    if ('value' in j) return j.value;
    if (j.expired && !refreshed) {
      refreshed = true; // an expired or revoked token: one new token, one more try
      await c.token(true);
      continue;
    }
    if (j.limited && n < MAX_429) {
      await rateLimitSleep(retryAfterWait(res.headers, n));
      continue;
    }
    throw j.error();
  }
}

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

export interface TokenAnswer<T> {
  data: T;
  status: number;
  headers: Record<string, string>;
}

/**
 * A REST call with a bearer token: 401 is a refused token, 429 a rate limit (any 429 on a write
 * too: the platform refused it before doing anything); other failures become ChannelCallError with
 * the platform's own words, 4xx permanent.
 */
export function tokenCall<T>(env: ChannelEnv, c: TokenCall): Promise<TokenAnswer<T>> {
  return authorizedCall<TokenAnswer<T>>(env, {
    platform: c.platform,
    url: c.url.toString(),
    method: c.method,
    body: c.body,
    retrySafe: c.method === 'GET',
    headers: (token) => ({ ...c.headers, authorization: `Bearer ${token}`, accept: 'application/json' }),
    token: c.token,
    judge(res) {
      if (res.status < 300) {
        const data = res.body.length ? JSON.parse(res.body.toString('utf8')) : null;
        return { value: { data: data as T, status: res.status, headers: res.headers } };
      }
      const error = () => {
        const msg = c.messageOf(res.body) ?? `HTTP ${res.status}`;
        if (res.status === 401 || res.status === 403)
          return new ChannelCallError(`${c.label} refused the access token (HTTP ${res.status}): ${msg}`, true, res.status);
        if (res.status === 429)
          return new ChannelCallError(`${c.label}: rate limited after ${MAX_429} waits (HTTP 429): ${msg}`, false, 429);
        return new ChannelCallError(`${c.label}: ${msg} (HTTP ${res.status})`, res.status < 500, res.status);
      };
      return { expired: res.status === 401, limited: res.status === 429, error };
    },
  });
}
