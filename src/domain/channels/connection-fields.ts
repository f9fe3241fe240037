import { DomainError, invalid } from '../errors.js';
import { connectorFor } from './connection.js';
import { ChannelCallError, assertAllowedUrl, type ChannelEnv } from './http.js';
import { SHOPIFY_API_VERSION, shopifyBaseUrl } from './shopify.js';
import type { Credentials, OpenConnection, ShopifyCredentials } from './types.js';

// The connection fields of a shop (docs/sales-channels.md): validated per platform, with
// defaults, and checked with one real platform call before anything is stored.

export interface ConnectionInput {
  shop_domain?: string;
  store_url?: string;
  access_token?: string;
  client_id?: string;
  client_secret?: string;
  consumer_key?: string;
  consumer_secret?: string;
  webhook_secret?: string;
  api_version?: string;
  api_base_url?: string;
  /** Carried over from stored credentials on an update (the cached token's expiry). */
  token_expires_at?: string | null;
}

/** Validated connection fields for a platform, with defaults (api_base_url = the real address). */
export function connectionFields(shopType: string, c: ConnectionInput, env: ChannelEnv) {
  const need = (k: keyof ConnectionInput) => {
    if (!c[k]) throw invalid(`body.connection.${k}`, `is required for a ${shopType} shop`);
    return c[k]!.trim();
  };
  let domain: string;
  let credentials: Credentials;
  if (shopType === 'SHOPIFY') {
    domain = need('shop_domain')
      .replace(/^https?:\/\//, '')
      .replace(/\/.*$/, '')
      .toLowerCase();
    credentials = shopifyCredentials(c);
  } else {
    domain = need('store_url').replace(/\/+$/, '');
    if (!/^https?:\/\//.test(domain)) throw invalid('body.connection.store_url', 'must be the store address, https://…');
    credentials = { consumer_key: need('consumer_key'), consumer_secret: need('consumer_secret'), webhook_secret: need('webhook_secret') };
  }
  const apiBase = (c.api_base_url?.trim() || (shopType === 'SHOPIFY' ? shopifyBaseUrl(domain) : domain)).replace(/\/+$/, '');
  try {
    assertAllowedUrl(apiBase, env);
  } catch (err) {
    throw invalid('body.connection.api_base_url', (err as Error).message);
  }
  return { domain, credentials, apiBase, apiVersion: shopType === 'SHOPIFY' ? (c.api_version ?? SHOPIFY_API_VERSION) : null };
}

/**
 * Shopify: a legacy token (shpat_…) or a Dev Dashboard app's client id and secret (the token is
 * then asked for by the check call and cached); webhooks of such an app are signed with its secret.
 */
function shopifyCredentials(c: ConnectionInput): ShopifyCredentials {
  const t = (v?: string | null) => v?.trim() || null;
  const [id, secret, token] = [t(c.client_id), t(c.client_secret), t(c.access_token)];
  if (id || secret) {
    if (!id) throw invalid('body.connection.client_id', 'is required with client_secret');
    if (!secret) throw invalid('body.connection.client_secret', 'is required with client_id');
    // A changed app invalidates the cached token: it is asked for again.
    const keep =
      c.client_id === id && c.client_secret === secret ? { access_token: token, token_expires_at: c.token_expires_at ?? null } : {};
    return { client_id: id, client_secret: secret, webhook_secret: t(c.webhook_secret) ?? secret, ...keep };
  }
  if (!token)
    throw invalid(
      'body.connection',
      'a Shopify connection needs client_id and client_secret (Dev Dashboard app) or an access_token (shpat_…)',
    );
  if (!t(c.webhook_secret)) throw invalid('body.connection.webhook_secret', 'is required for a SHOPIFY shop');
  return { access_token: token, webhook_secret: t(c.webhook_secret)! };
}

/** One real call to the platform; a refusal becomes a 400 that says what is wrong. */
export async function checkOrRefuse(conn: OpenConnection, env: ChannelEnv) {
  try {
    return await connectorFor(conn.shop_type).check(conn, env);
  } catch (err) {
    if (err instanceof ChannelCallError)
      throw new DomainError('validation-failed', `The ${conn.shop_type} connection check failed: ${err.message}.`, {
        errors: [{ path: 'body.connection', message: err.message }],
      });
    throw err;
  }
}
