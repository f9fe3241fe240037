import type { ChannelEnv } from '../http.js';
import { tokenCall } from '../token-call.js';
import type { OpenConnection } from '../types.js';
import { ebayToken } from './auth.js';

// eBay's REST Sell APIs over the shared outbound layer (src/net/outbound.ts), not the `ebay-api`
// npm client: that client hard-codes the token endpoint (api.ebay.com / api.sandbox.ebay.com), so
// api_base_url could not point it at a proxy or a test double, and its timeout is axios's, not
// the layer's deadline. Every call carries the User access token (auth.ts) through tokenCall
// (../token-call.ts: one new token after a 401, Retry-After on a 429).

export { setRateLimitSleep } from '../rate-limit.js';

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

export async function ebayCall<T = Json>(
  conn: OpenConnection,
  env: ChannelEnv,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  opts: { query?: Record<string, string | number>; body?: unknown } = {},
): Promise<{ data: T; status: number; headers: Record<string, string> }> {
  const url = new URL(`${conn.api_base_url}/${path.replace(/^\//, '')}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  return tokenCall<T>(env, {
    platform: 'ebay',
    label: 'eBay',
    url,
    method,
    body: opts.body === undefined ? null : JSON.stringify(opts.body),
    headers: opts.body !== undefined ? { 'content-type': 'application/json' } : {},
    token: (force) => ebayToken(conn, env, force ? { force: true } : undefined),
    messageOf,
  });
}
