import type { ChannelEnv } from '../http.js';
import { tokenCall } from '../token-call.js';
import type { OpenConnection } from '../types.js';
import { apiKey, etsyToken } from './auth.js';
import type { EtsyCredentials } from './types.js';

// Etsy's Open API v3 over the shared outbound layer (src/net/outbound.ts), not the `etsy-ts` npm
// client: its token refresh posts to the fixed https://api.etsy.com/v3/public/oauth/token with
// the global axios instance (no base URL, no transport of fos's), so api_base_url could not point
// it at a proxy or a test double, and its calls' timeout would be axios's, not the layer's
// deadline (docs/sales-channels.md §3e). Every call carries x-api-key (keystring:shared_secret)
// and the seller's access token (auth.ts) through tokenCall (../token-call.ts: one new token
// after a 401, Retry-After on a 429).

export { setRateLimitSleep } from '../rate-limit.js';

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
  const body = opts.json !== undefined ? JSON.stringify(opts.json) : opts.form ? new URLSearchParams(opts.form).toString() : null;
  const type = opts.json !== undefined ? 'application/json' : opts.form ? 'application/x-www-form-urlencoded' : null;
  return tokenCall<T>(env, {
    platform: 'etsy',
    label: 'Etsy',
    url,
    method,
    body,
    headers: { 'x-api-key': apiKey(conn.credentials as EtsyCredentials), ...(type ? { 'content-type': type } : {}) },
    token: (force) => etsyToken(conn, env, force ? { force: true } : undefined),
    messageOf,
  });
}
