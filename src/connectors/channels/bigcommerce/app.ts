import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import type { Db } from '../../../db/types.js';
import type { Principal } from '../../../domain/keys/index.js';
import { DomainError, invalid } from '../../../domain/errors.js';
import { appInstall } from '../../../domain/channels/index.js';
import { DestinationRefused } from '../../../net/network.js';
import { send } from '../../../net/outbound.js';
import { ChannelCallError, assertAllowedUrl, describeNetworkError, type ChannelEnv } from '../http.js';
import type { Credentials } from '../types.js';
import { BIGCOMMERCE_API } from './client.js';
import type { BigCommerceCredentials } from './types.js';

// The 3PL's BigCommerce single-click app (docs/sales-channels.md §3b, the 3PL's app; BigCommerce: "Implementing
// OAuth", "Handling callbacks"). The app's client id and secret are the server's
// (FOS_BIGCOMMERCE_CLIENT_ID, FOS_BIGCOMMERCE_CLIENT_SECRET); the secret is sent to BigCommerce's
// token endpoint only and never logged or answered. BigCommerce calls three URLs of fos:
// auth (the merchant's browser, in the control panel's iframe: code, scope, context) where fos
// exchanges the code at login.bigcommerce.com/oauth2/token; load (browser), uninstall and
// remove_user (server) with a signed_payload_jwt, HS256 with the client secret. Which team a store is for was settled
// before, by a person naming the store (src/domain/channels/app-install.ts).

export interface BigCommerceAppConfig {
  client_id: string;
  client_secret: string;
  /** BigCommerce's login service, where codes become tokens (default https://login.bigcommerce.com). */
  login_url: string;
  /** The stores API root; a store's base is <api_url>/<store hash> (default https://api.bigcommerce.com/stores). */
  api_url: string;
}

/** The app from the environment; null when no client id and secret are set. */
export function bigcommerceAppFromEnv(env: NodeJS.ProcessEnv): BigCommerceAppConfig | null {
  if (!env.FOS_BIGCOMMERCE_CLIENT_ID || !env.FOS_BIGCOMMERCE_CLIENT_SECRET) return null;
  return {
    client_id: env.FOS_BIGCOMMERCE_CLIENT_ID,
    client_secret: env.FOS_BIGCOMMERCE_CLIENT_SECRET,
    login_url: (env.FOS_BIGCOMMERCE_LOGIN_URL || 'https://login.bigcommerce.com').replace(/\/+$/, ''),
    api_url: (env.FOS_BIGCOMMERCE_API_URL || BIGCOMMERCE_API).replace(/\/+$/, ''),
  };
}

const needApp = (app: BigCommerceAppConfig | null) => {
  if (!app)
    throw new DomainError(
      'unprocessable',
      'No BigCommerce app is configured on this server (FOS_BIGCOMMERCE_CLIENT_ID and FOS_BIGCOMMERCE_CLIENT_SECRET).',
    );
  return app;
};
const STORE_HASH = /^[a-z0-9]+$/i;
export const callbackUrls = (origin: string) => ({
  auth_callback_url: `${origin}/v1/channels/bigcommerce/auth`,
  load_callback_url: `${origin}/v1/channels/bigcommerce/load`,
  uninstall_callback_url: `${origin}/v1/channels/bigcommerce/uninstall`,
  remove_user_callback_url: `${origin}/v1/channels/bigcommerce/remove_user`,
});

/** A person names the merchant's store: its shop awaits the app's install. */
export async function awaitStore(
  db: Db,
  p: Principal,
  input: { name: string; store_hash: string; merchant_team_id?: string },
  app: BigCommerceAppConfig | null,
  origin: string,
) {
  const a = needApp(app);
  const hash = input.store_hash.trim().toLowerCase();
  if (!STORE_HASH.test(hash))
    throw invalid('body.store_hash', 'must be the store hash (letters and digits, from the API path or the control panel address)');
  const credentials: BigCommerceCredentials = { access_token: '', webhook_secret: randomBytes(24).toString('hex') };
  const r = await appInstall.awaitInstall(db, p, {
    name: input.name,
    shop_type: 'BIGCOMMERCE',
    shop_domain: hash,
    api_base_url: `${a.api_url}/${hash}`,
    merchant_team_id: input.merchant_team_id,
    credentials,
  });
  const shop = await appInstall.installedShop(db, 'BIGCOMMERCE', hash);
  return { shop_id: r.shop_id, store_hash: hash, app_install: shop.settings!.app_install!, ...callbackUrls(origin) };
}

const refused = (why: string) => new DomainError('unauthorized', `The BigCommerce app callback was refused: ${why}.`);

/** POST <login>/oauth2/token: the code for the store's permanent token (BigCommerce's answer, read field by field). */
async function exchangeCode(a: BigCommerceAppConfig, q: Record<string, string | undefined>, origin: string, env: ChannelEnv) {
  const url = `${a.login_url}/oauth2/token`;
  assertAllowedUrl(url, env);
  const body = {
    client_id: a.client_id,
    client_secret: a.client_secret,
    code: q.code,
    context: q.context,
    scope: q.scope,
    grant_type: 'authorization_code',
    redirect_uri: callbackUrls(origin).auth_callback_url,
  };
  let res;
  try {
    res = await send({
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      platform: 'bigcommerce',
      operation: 'push',
      allowPrivate: env.allowPrivate,
      retrySafe: false, // a code is good once
    });
  } catch (err) {
    throw new ChannelCallError(describeNetworkError(err, new URL(url).host), err instanceof DestinationRefused);
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- platform JSON, checked below
  let j: any = null;
  try {
    j = JSON.parse(res.body.toString('utf8'));
  } catch {
    // not JSON: said below with the status
  }
  if (res.status >= 300 || typeof j?.access_token !== 'string' || typeof j?.context !== 'string') {
    const why = (typeof j?.error === 'string' && j.error) || (typeof j?.message === 'string' && j.message) || `HTTP ${res.status}`;
    throw new ChannelCallError(`BigCommerce did not give a token for the code: ${why}`, res.status < 500, res.status);
  }
  return {
    access_token: j.access_token as string,
    scope: typeof j.scope === 'string' ? j.scope : null,
    context: j.context as string,
    user_email: typeof j.user?.email === 'string' ? (j.user.email as string) : null,
  };
}

const hashOf = (context: string | undefined) => {
  const m = /^stores\/([a-z0-9]+)$/i.exec(context ?? '');
  return m ? m[1]!.toLowerCase() : null;
};

/** GET auth: the code becomes the store's token; the store a team awaits is connected (webhooks registered). */
export async function authCallback(
  db: Db,
  q: Record<string, string | undefined>,
  app: BigCommerceAppConfig | null,
  origin: string,
  env: ChannelEnv,
) {
  const a = needApp(app);
  if (!q.code) throw invalid('query.code', 'is required');
  const asked = hashOf(q.context);
  if (!asked) throw invalid('query.context', 'must be stores/{store_hash}');
  // A store no team named: refused before any token for it is asked for (fos holds none it does not serve).
  await appInstall.acceptsInstall(db, 'BIGCOMMERCE', asked);
  let token: Awaited<ReturnType<typeof exchangeCode>>;
  try {
    token = await exchangeCode(a, q, origin, { ...env, origin });
  } catch (err) {
    if (err instanceof ChannelCallError) throw new DomainError('validation-failed', `${err.message}.`);
    throw err;
  }
  // The store is the one BigCommerce's answer names (asked with the app's secret), not the query's.
  const hash = hashOf(token.context);
  if (hash !== asked) throw refused(`the token is for ${token.context}, not ${q.context}`);
  const r = await appInstall.completeInstall(
    db,
    {
      shop_type: 'BIGCOMMERCE',
      shop_domain: hash,
      api_base_url: `${a.api_url}/${hash}`,
      credentials: { access_token: token.access_token },
      scope: token.scope,
      user_email: token.user_email,
    },
    { ...env, origin },
  );
  return { ...r, store_hash: hash, shop: await appInstall.installedShop(db, 'BIGCOMMERCE', hash) };
}

/** The signed_payload_jwt of load, uninstall and remove_user: HS256 with the client secret, for this app, unexpired; the store it names. */
export async function verifySignedPayload(a: BigCommerceAppConfig, jwt: string | undefined) {
  if (!jwt) throw refused('signed_payload_jwt is missing');
  try {
    const { payload } = await jwtVerify(jwt, new TextEncoder().encode(a.client_secret), {
      algorithms: ['HS256'],
      audience: a.client_id,
      requiredClaims: ['exp', 'sub'],
      clockTolerance: 60,
    });
    const hash = hashOf(payload.sub);
    if (!hash) throw refused(`signed_payload_jwt's sub ${payload.sub} names no store`);
    const user = payload.user as { email?: unknown } | undefined;
    return { store_hash: hash, user_email: typeof user?.email === 'string' ? user.email : null };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) throw refused(`signed_payload_jwt does not verify (${err.code}: ${err.message})`);
    throw err;
  }
}

/** GET load: the merchant opens the app; the store's shop as fos sees it. */
export async function loadCallback(db: Db, q: Record<string, string | undefined>, app: BigCommerceAppConfig | null) {
  const p = await verifySignedPayload(needApp(app), q.signed_payload_jwt);
  return appInstall.installedShop(db, 'BIGCOMMERCE', p.store_hash);
}

/** GET uninstall (BigCommerce's server): the token is dropped, the shop disconnected; orders stay. */
export async function uninstallCallback(db: Db, q: Record<string, string | undefined>, app: BigCommerceAppConfig | null) {
  const p = await verifySignedPayload(needApp(app), q.signed_payload_jwt);
  // The webhook secret stays: a hook BigCommerce still holds is refused by the inactive shop, and a reinstall reuses it.
  const strip = (c: Credentials) => ({ ...(c as BigCommerceCredentials), access_token: '' }) as Credentials;
  const r = await appInstall.uninstalled(db, 'BIGCOMMERCE', p.store_hash, strip);
  return { store_hash: p.store_hash, shop_id: r.shop_id, disconnected: true };
}

/**
 * GET remove_user (BigCommerce's server, an app with multiple users): the store owner revoked one
 * user's access to the app. fos keeps nothing per BigCommerce user: the store's token is the
 * store's (it outlives the user who installed the app), the load page is made from each signed
 * payload, and no session is kept. So nothing changes; the callback is verified like the others
 * and answered with what it was about (the route logs it).
 */
export async function removeUserCallback(db: Db, q: Record<string, string | undefined>, app: BigCommerceAppConfig | null) {
  const p = await verifySignedPayload(needApp(app), q.signed_payload_jwt);
  const shop = await appInstall.installedShop(db, 'BIGCOMMERCE', p.store_hash);
  return { store_hash: p.store_hash, shop_id: shop.id, user_email: p.user_email, changed: false };
}
