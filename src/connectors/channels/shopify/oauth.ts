import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../../db/types.js';
import type { Principal } from '../../../domain/keys/index.js';
import { DomainError, invalid } from '../../../domain/errors.js';
import { SecretKeyError, openJson, sealJson } from '../../../domain/secrets/index.js';
import { DEFAULT_SETTINGS, connectorFor, sealCredentials } from '../../../domain/channels/index.js';
import { ChannelCallError, type ChannelEnv } from '../http.js';
import { tokenRequest, verifyShopifyQuery } from './auth.js';
import { SHOPIFY_API_VERSION } from './client.js';
import { insertShop, teamsOf } from '../../../domain/channels/index.js';

// Shopify's authorization-code grant, for an app a 3PL distributes to many merchants
// (docs/sales-channels.md §2b). The 3PL's app (client id, secret, scopes) is configured on the
// server (FOS_SHOPIFY_CLIENT_ID, FOS_SHOPIFY_CLIENT_SECRET, …). A person with MANAGE_SHOPS asks
// for an install link for a merchant's shop; the merchant opens it; fos redirects to the shop's
// /admin/oauth/authorize with a state that carries, sealed, which merchant team the shop is for
// and a nonce also set as a cookie on the browser; Shopify redirects back to the callback, where
// the hmac (app secret over the sorted query), the state, its expiry and the nonce cookie are
// checked before the code is exchanged for an offline token and the shop is created or updated.

export interface ShopifyAppConfig {
  client_id: string;
  client_secret: string;
  /** Comma-separated scopes the app asks for. */
  scopes: string;
  /** The authorize page, {shop} replaced by the shop domain (default https://{shop}/admin/oauth/authorize). */
  authorize_url: string;
  /** Where the token exchange and the Admin API go, {shop} replaced (default https://{shop}). */
  api_base_url: string;
}

export const DEFAULT_APP_SCOPES = [
  'read_orders',
  'read_products',
  'read_inventory',
  'write_inventory',
  'read_locations',
  'read_merchant_managed_fulfillment_orders',
  'write_merchant_managed_fulfillment_orders',
  'read_assigned_fulfillment_orders',
  'write_assigned_fulfillment_orders',
  'write_fulfillments',
].join(',');

/** The app from the environment; null when no client id and secret are set. */
export function shopifyAppFromEnv(env: NodeJS.ProcessEnv): ShopifyAppConfig | null {
  if (!env.FOS_SHOPIFY_CLIENT_ID || !env.FOS_SHOPIFY_CLIENT_SECRET) return null;
  return {
    client_id: env.FOS_SHOPIFY_CLIENT_ID,
    client_secret: env.FOS_SHOPIFY_CLIENT_SECRET,
    scopes: env.FOS_SHOPIFY_SCOPES || DEFAULT_APP_SCOPES,
    authorize_url: env.FOS_SHOPIFY_AUTHORIZE_URL || 'https://{shop}/admin/oauth/authorize',
    api_base_url: env.FOS_SHOPIFY_API_BASE_URL || 'https://{shop}',
  };
}

const STATE_CONTEXT = 'shopify-oauth';
const LINK_TTL_MS = 7 * 24 * 3600_000;
export const NONCE_COOKIE = 'fos_shopify_nonce';
const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

interface State {
  nonce: string;
  shop: string;
  name: string;
  merchant: string;
  fulfiller: string;
  exp: number;
}

const needApp = (app: ShopifyAppConfig | null) => {
  if (!app)
    throw new DomainError(
      'unprocessable',
      'No Shopify app is configured on this server (FOS_SHOPIFY_CLIENT_ID and FOS_SHOPIFY_CLIENT_SECRET).',
    );
  return app;
};
const fill = (template: string, shop: string) => template.replace('{shop}', shop).replace(/\/+$/, '');

/** An install link for a merchant's shop: the merchant opens it to install the 3PL's app. */
export async function installLink(
  db: Db,
  p: Principal,
  input: { name: string; shop_domain: string; merchant_team_id?: string },
  app: ShopifyAppConfig | null,
  origin: string,
) {
  needApp(app);
  const shop = input.shop_domain
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '');
  if (!SHOP_DOMAIN.test(shop)) throw invalid('body.shop_domain', "must be the shop's myshopify.com domain, e.g. acme.myshopify.com");
  const teams = await teamsOf(db, p, input.merchant_team_id);
  const exp = Date.now() + LINK_TTL_MS;
  const state: State = {
    nonce: randomBytes(16).toString('hex'),
    shop,
    name: input.name.trim(),
    merchant: teams.merchant,
    fulfiller: teams.fulfiller,
    exp,
  };
  const sealed = sealJson(state, STATE_CONTEXT);
  return {
    install_url: `${origin}/v1/channels/shopify/install?state=${encodeURIComponent(sealed)}`,
    redirect_uri: `${origin}/v1/channels/shopify/callback`,
    expires_at: new Date(exp).toISOString(),
  };
}

function openState(sealed: string | undefined): State {
  try {
    const s = openJson<State>(String(sealed ?? ''), STATE_CONTEXT);
    if (s.exp > Date.now()) return s;
  } catch (err) {
    if (!(err instanceof SecretKeyError)) throw err;
  }
  throw invalid('query.state', 'the install link is not valid or has expired: ask for a new one');
}

/** Where the install link sends the browser, and the nonce to set as a cookie. */
export function authorizeRedirect(sealedState: string | undefined, app: ShopifyAppConfig | null, origin: string) {
  const a = needApp(app);
  const state = openState(sealedState);
  const q = new URLSearchParams({
    client_id: a.client_id,
    scope: a.scopes,
    redirect_uri: `${origin}/v1/channels/shopify/callback`,
    state: sealedState!,
  });
  return { location: `${fill(a.authorize_url, state.shop)}?${q}`, nonce: state.nonce };
}

const refused = (why: string) => new DomainError('unauthorized', `The Shopify install callback was refused: ${why}.`);

/** The callback: checks, exchanges the code for an offline token, creates or updates the shop. */
export async function completeInstall(
  db: Db,
  query: Record<string, string>,
  nonceCookie: string | undefined,
  app: ShopifyAppConfig | null,
  env: ChannelEnv,
) {
  const a = needApp(app);
  if (!verifyShopifyQuery(a.client_secret, query)) throw refused('the hmac does not verify with the app secret');
  const state = openState(query.state);
  const cookie = Buffer.from(nonceCookie ?? '');
  if (cookie.length !== state.nonce.length || !timingSafeEqual(cookie, Buffer.from(state.nonce)))
    throw refused('the browser did not start this install (nonce cookie missing or different)');
  if (query.shop !== state.shop) throw refused(`the shop ${query.shop} is not the one the link was made for`);
  if (!query.code) throw invalid('query.code', 'is required');
  const apiBase = fill(a.api_base_url, state.shop);
  let token: Awaited<ReturnType<typeof tokenRequest>>;
  try {
    token = await tokenRequest(apiBase, env, { client_id: a.client_id, client_secret: a.client_secret, code: query.code });
  } catch (err) {
    if (err instanceof ChannelCallError)
      throw new DomainError('validation-failed', `Shopify did not give a token for the code: ${err.message}.`);
    throw err;
  }
  const credentials = { access_token: token.access_token, webhook_secret: a.client_secret, scope: token.scope };
  return storeInstalledShop(db, state, apiBase, credentials, env);
}

async function storeInstalledShop(db: Db, state: State, apiBase: string, credentials: object, env: ChannelEnv) {
  // Installed again (a new token, new scopes): the merchant's shop on that domain is updated.
  const mine = await db.prisma.shop.findMany({ where: { merchant_team_id: state.merchant, shop_type: 'SHOPIFY' }, select: { id: true } });
  const existing = await db.prisma.shopConnection.findFirst({
    where: { shop_type: 'SHOPIFY', shop_domain: state.shop, shop_id: { in: mine.map((s) => s.id) } },
  });
  if (existing) {
    const conn = {
      shop_id: existing.shop_id,
      shop_type: 'SHOPIFY' as const,
      shop_domain: state.shop,
      api_base_url: apiBase,
      api_version: existing.api_version,
      credentials: credentials as never,
      settings: { ...DEFAULT_SETTINGS, ...(existing.settings as object) },
    };
    await connectorFor('SHOPIFY')
      .check(conn, env)
      .catch((err) => {
        if (err instanceof ChannelCallError)
          throw new DomainError('validation-failed', `The new Shopify token does not work: ${err.message}.`);
        throw err;
      });
    await db.prisma.shopConnection.update({
      where: { shop_id: existing.shop_id },
      data: {
        credentials: sealCredentials(existing.shop_id, conn.credentials),
        api_base_url: apiBase,
        active: true,
        last_check_at: new Date(),
        last_check_ok: true,
      },
    });
    return { shop_id: existing.shop_id, shop_domain: state.shop, created: false };
  }
  const id = await insertShop(
    db,
    { merchant: state.merchant, fulfiller: state.fulfiller },
    {
      name: state.name,
      shop_type: 'SHOPIFY',
      connection: { shop_domain: state.shop, api_base_url: apiBase, api_version: SHOPIFY_API_VERSION, ...(credentials as object) },
    },
    env,
  );
  return { shop_id: id, shop_domain: state.shop, created: true };
}
