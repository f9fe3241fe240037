import { createAdminApiClient } from '@shopify/admin-api-client';
import { ChannelCallError, describeNetworkError, policyFetch, type ChannelEnv } from '../http.js';
import { canRefresh, shopifyToken } from './auth.js';
import type { OpenConnection } from '../types.js';

// One GraphQL Admin API call over the official @shopify/admin-api-client. The client always
// builds https://<shop domain>/admin/api/<version>/graphql.json; its customFetchApi hook sends
// that request to the shop's api_base_url instead (a proxy or a test double) through the
// outbound network policy, and keeps the transport error so a failure is described precisely.
//
// Failures are sorted so the outbox's backoff only sees what may pass later:
// - 401 with a client-credentials connection: a new token once, then the call again; a second
//   401 is permanent (the app was uninstalled or lost its scopes).
// - throttled (HTTP 429, or a THROTTLED GraphQL error): Shopify did not run the operation, so it
//   is sent again here after Retry-After (capped), also a mutation, up to THROTTLE_TRIES.
// - 5xx, a cut or non-JSON answer, a transport error: transient. A query is sent once more here;
//   a mutation is not (it may have run): the outbox retries it later, after asking what exists.
// - other 4xx and GraphQL errors: permanent, with Shopify's message.

/** The latest stable Admin API version: Shopify releases one on the first day of each quarter. */
export const SHOPIFY_API_VERSION = ((d: Date) =>
  `${d.getUTCFullYear()}-${String(Math.floor(d.getUTCMonth() / 3) * 3 + 1).padStart(2, '0')}`)(new Date());

const THROTTLE_TRIES = 3;
const MAX_WAIT_MS = 2000;
const isMutation = (q: string) => /^\s*mutation\b/.test(q);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Outcome<T> {
  data?: T;
  error?: ChannelCallError;
  throttled?: boolean;
  retryAfterMs?: number;
}

async function once<T>(conn: OpenConnection, env: ChannelEnv, token: string, query: string, variables?: object): Promise<Outcome<T>> {
  const base = new URL(conn.api_base_url);
  const fetchFn = policyFetch(env);
  let transportError: unknown;
  const client = createAdminApiClient({
    storeDomain: conn.shop_domain,
    apiVersion: conn.api_version ?? SHOPIFY_API_VERSION,
    accessToken: token,
    userAgentPrefix: 'fos',
    customFetchApi: async (url: string, init?: RequestInit) => {
      const target = new URL(url);
      const to = new URL(base.pathname.replace(/\/$/, '') + target.pathname + target.search, base.origin);
      try {
        return await fetchFn(to, init);
      } catch (err) {
        transportError = err;
        throw err;
      }
    },
  });
  const res = await client.request(query, { variables: variables as Record<string, unknown> });
  if (!res.errors) return { data: res.data as T };
  const status = res.errors.networkStatusCode ?? null;
  if (transportError) {
    const permanent = transportError instanceof ChannelCallError && transportError.permanent;
    return { error: new ChannelCallError(describeNetworkError(transportError, base.host), permanent) };
  }
  if (status === 401 || status === 403)
    return {
      error: new ChannelCallError(
        `Shopify refused the access token (HTTP ${status}): check the app's credentials, that it is installed and its scopes`,
        true,
        status,
      ),
    };
  if (status === 404) return { error: new ChannelCallError(`unknown Shopify shop ${conn.shop_domain} (HTTP 404)`, true, status) };
  const gqlErrors = (res.errors.graphQLErrors ?? []) as { message?: string; extensions?: { code?: string } }[];
  const gql = gqlErrors.map((e) => e.message).join('; ');
  const throttled = status === 429 || gqlErrors.some((e) => e.extensions?.code === 'THROTTLED' || /throttl/i.test(e.message ?? ''));
  const retryAfter = Number(res.errors.response?.headers?.get?.('retry-after'));
  const message = `Shopify: ${gql || res.errors.message || `HTTP ${status}`}`;
  // A 2xx without usable JSON (cut off, not JSON) is the transport's fault, not the request's.
  const badBody = !gqlErrors.length && status !== null && status >= 200 && status < 300;
  const transient = throttled || badBody || status === null || status >= 500;
  return {
    error: new ChannelCallError(
      badBody ? `Shopify answered HTTP ${status} with an unreadable body (${res.errors.message})` : message,
      !transient,
      status,
    ),
    throttled,
    retryAfterMs: Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, read field by field with checks
export async function shopifyGraphql<T = any>(
  conn: OpenConnection,
  env: ChannelEnv,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  let token = await shopifyToken(conn, env);
  let refreshed = false;
  let readRetried = false;
  for (let attempt = 1; ; attempt++) {
    const r = await once<T>(conn, env, token, query, variables);
    if (!r.error) return r.data as T;
    const e = r.error;
    if (e.status === 401 && !refreshed && canRefresh(conn)) {
      refreshed = true;
      token = await shopifyToken(conn, env, { force: true });
      continue;
    }
    if (r.throttled && attempt < THROTTLE_TRIES) {
      await sleep(Math.min(r.retryAfterMs ?? 250 * 2 ** attempt, MAX_WAIT_MS));
      continue;
    }
    if (!e.permanent && !r.throttled && !isMutation(query) && !readRetried) {
      readRetried = true;
      await sleep(100);
      continue;
    }
    throw e;
  }
}
