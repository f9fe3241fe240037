import { createHash } from 'node:crypto';
import { newId } from '../../db/ids.js';
import type { Db, ShopAuthorization } from '../../db/types.js';
import type { Principal } from '../keys/index.js';
import { DomainError, conflict, invalid, notFound } from '../errors.js';
import { openJson, sealJson } from '../secrets/index.js';
import { DEFAULT_SETTINGS, connectorFor, sealCredentials } from './connection.js';
import { checkOrRefuse, connectionFields } from './connection-fields.js';
import { shopScope, teamsOf, writeShopRows } from './shops.js';
import {
  claimAuthorization,
  deleteAuthorizationsExpiredBefore,
  failAuthorization,
  findAuthorizationByState,
  findAuthorizationInScope,
  findAuthorizationOrThrow,
  insertAuthorization,
  markAuthorizationConnected,
} from './store/authorizations.js';
import { shopNamed } from './store/shops.js';
import { ChannelCallError, assertAllowedUrl, type ChannelEnv } from '../../connectors/channels/http.js';
import type { ConsentApp } from '../../connectors/channels/connector.js';
import type { ConnectedPlatform, Credentials, OpenConnection } from '../../connectors/channels/types.js';

// A seller's consent asked through fos (issue 39; docs/sales-channels.md §3e): a person with
// MANAGE_SHOPS starts an authorization with the app's keys; fos keeps the PKCE verifier and the
// keys sealed and the state only as its hash, and gives the page the seller opens. The platform
// redirects the seller's browser to the public callback with the code and the state: the state
// finds the authorization, one callback claims it (compare-and-set on claimed_at) before the
// code is exchanged, and the shop is written with the authorization marked CONNECTED in one
// transaction, so two callbacks with one state make one shop. A refusal on either side ends it
// FAILED with the reason; the person who started it polls its status (the CLI's --wait). The keys
// and the verifier are forgotten when it ends; the row a day after its expiry.

/** How long the seller has to consent. */
export const AUTHORIZATION_TTL_MS = 15 * 60_000;
/** How long an authorization's status stays to be read after its expiry, before it is deleted. */
export const AUTHORIZATION_KEPT_MS = 24 * 3600_000;

export interface AuthorizationInput {
  name: string;
  merchant_team_id?: string;
  client_id: string;
  client_secret: string;
  etsy_shop_id?: string;
  api_base_url?: string;
  connect_base_url?: string;
}

interface Sealed {
  verifier: string;
  client_id: string;
  client_secret: string;
  etsy_shop_id?: string;
  connect_base_url?: string;
}

const sealContext = (id: string) => `shop-authorization:${id}`;
const hashState = (state: string) => createHash('sha256').update(state, 'utf8').digest('hex');
export const callbackPath = (shopType: ConnectedPlatform) => `/v1/channels/${shopType.toLowerCase()}/callback`;

/** What the API shows of an authorization: never the state, the verifier or the keys. */
export function authorizationView(a: ShopAuthorization, now = new Date()) {
  const expired = a.status === 'PENDING' && a.expires_at.getTime() <= now.getTime();
  return {
    id: a.id,
    shop_type: a.shop_type,
    name: a.name,
    merchant_team_id: a.merchant_team_id,
    status: expired ? 'EXPIRED' : a.status,
    message: expired ? 'The seller did not consent in time: start the connection again.' : a.message,
    shop_id: a.shop_id,
    redirect_uri: a.redirect_uri,
    expires_at: a.expires_at,
    created_at: a.created_at,
  };
}

/** A person starts a connection: the pending authorization and the page the seller opens. */
export async function startAuthorization(
  db: Db,
  p: Principal,
  shopType: ConnectedPlatform,
  input: AuthorizationInput,
  origin: string,
  env: ChannelEnv,
  now = new Date(),
) {
  const consent = connectorFor(shopType).consent;
  if (!consent) throw invalid('shop_type', `${shopType} shops are connected with tokens made on the platform's side`);
  const teams = await teamsOf(db, p, input.merchant_team_id);
  const name = input.name.trim();
  // Checked again when the shop is written; said now so the seller is not sent to consent for nothing.
  if (await shopNamed(db.prisma, teams.merchant, name)) throw conflict(`The merchant team already has a shop named "${name}".`);
  // The connector's own checks of the keys and the base URL, with a stand-in for the token to come.
  const f = connectionFields(shopType, { ...input, refresh_token: 'pending' }, env);
  if (input.connect_base_url) {
    try {
      assertAllowedUrl(input.connect_base_url, env);
    } catch (err) {
      throw invalid('body.connect_base_url', (err as Error).message);
    }
  }
  const redirectUri = `${origin}${callbackPath(shopType)}`;
  const app: ConsentApp = {
    clientId: input.client_id.trim(),
    clientSecret: input.client_secret,
    redirectUri,
    apiBaseUrl: f.apiBase,
    connectBaseUrl: input.connect_base_url,
  };
  const begun = consent.begin(app);
  // Ended ones go when new ones are made: no sweep of its own for a table this small.
  await deleteAuthorizationsExpiredBefore(db.prisma, new Date(now.getTime() - AUTHORIZATION_KEPT_MS));
  const id = newId();
  const sealed: Sealed = {
    verifier: begun.verifier,
    client_id: app.clientId,
    client_secret: app.clientSecret,
    etsy_shop_id: input.etsy_shop_id,
    connect_base_url: input.connect_base_url,
  };
  const row = await insertAuthorization(db.prisma, {
    id,
    shop_type: shopType,
    state_hash: hashState(begun.state),
    merchant_team_id: teams.merchant,
    fulfiller_team_id: teams.fulfiller,
    name,
    secrets: sealJson(sealed, sealContext(id)),
    redirect_uri: redirectUri,
    api_base_url: f.apiBase,
    expires_at: new Date(now.getTime() + AUTHORIZATION_TTL_MS),
  });
  return { ...authorizationView(row, now), authorize_url: begun.authorizeUrl };
}

export async function getAuthorization(db: Db, p: Principal, id: string, now = new Date()) {
  const row = await findAuthorizationInScope(db.prisma, shopScope(p), id);
  if (!row) throw notFound('Shop authorization', id);
  return authorizationView(row, now);
}

/** What the platform's redirect carries (Etsy: code and state, or error and error_description). */
export interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

/** A state no authorization has: the caller counts it as a failed attempt of the address. */
export class UnknownStateError extends DomainError {
  constructor() {
    super('unauthorized', 'This authorization link is not one fos gave out: start the connection again (fos shops connect … --oauth).');
  }
}

/** Why an authorization found by its state takes no callback now; null when it does. */
function closed(a: ShopAuthorization, now: Date) {
  if (a.status === 'CONNECTED') return conflict(`This authorization was used already: shop ${a.shop_id} is connected.`);
  if (a.status === 'FAILED') return conflict(`This authorization ended: ${a.message ?? 'it failed'}. Start the connection again.`);
  if (a.claimed_at) return conflict('This authorization is being completed by another request of the same link.');
  if (a.expires_at.getTime() <= now.getTime())
    return new DomainError('unprocessable', 'This authorization expired before the seller consented: start the connection again.');
  return null;
}

/** Another request of the same link changed the authorization first: why this one is refused. */
async function raced(db: Db, id: string, now: Date) {
  const fresh = await findAuthorizationOrThrow(db.prisma, id);
  return closed(fresh, now) ?? conflict('This authorization is being completed by another request of the same link.');
}

/** Ends the authorization this request claimed (at `claimedAt`) as FAILED. */
async function fail(db: Db, a: ShopAuthorization, claimedAt: Date, message: string) {
  await failAuthorization(db.prisma, a.id, claimedAt, message);
}

/** The callback: the state's authorization claimed once, the code exchanged, the shop written. */
export async function completeAuthorization(db: Db, shopType: ConnectedPlatform, q: CallbackQuery, env: ChannelEnv, now = new Date()) {
  if (!q.state) throw invalid('query.state', 'is missing: open the link fos gave for this connection');
  const a = await findAuthorizationByState(db.prisma, hashState(q.state));
  if (!a || a.shop_type !== shopType) throw new UnknownStateError();
  const why = closed(a, now);
  if (why) throw why;
  const label = connectorFor(shopType).label;
  if (q.error) {
    const message = `${label} refused: ${q.error_description || q.error}`;
    const r = await failAuthorization(db.prisma, a.id, null, message);
    if (!r.count) throw await raced(db, a.id, now);
    return { connected: false as const, message, name: a.name };
  }
  if (!q.code) throw invalid('query.code', `is missing: ${label} sends the seller back with a code or an error`);
  // The claim: the one request that exchanges the code (the platform takes a code once).
  const claimed = await claimAuthorization(db.prisma, a.id, now);
  if (!claimed.count) throw await raced(db, a.id, now);
  try {
    const shopId = await connectShop(db, a, q.code, env, now);
    return { connected: true as const, shop_id: shopId, name: a.name };
  } catch (err) {
    if (err instanceof DomainError) await fail(db, a, now, err.message);
    throw err;
  }
}

/** The code exchanged, the connection checked, the shop written and the authorization CONNECTED in one transaction. */
async function connectShop(db: Db, a: ShopAuthorization, code: string, env: ChannelEnv, now: Date) {
  const s = openJson<Sealed>(a.secrets, sealContext(a.id));
  const shopType = a.shop_type as ConnectedPlatform;
  const connector = connectorFor(shopType);
  const app: ConsentApp = {
    clientId: s.client_id,
    clientSecret: s.client_secret,
    redirectUri: a.redirect_uri,
    apiBaseUrl: a.api_base_url,
    connectBaseUrl: s.connect_base_url,
  };
  let granted: Partial<Credentials>;
  try {
    granted = await connector.consent!.exchange(app, code, s.verifier, env);
  } catch (err) {
    if (err instanceof ChannelCallError)
      throw new DomainError('validation-failed', `The ${connector.label} code exchange failed: ${err.message}.`);
    throw err;
  }
  const id = newId();
  const f = connectionFields(
    shopType,
    {
      client_id: s.client_id,
      client_secret: s.client_secret,
      etsy_shop_id: s.etsy_shop_id,
      refresh_token: 'pending',
      api_base_url: a.api_base_url,
    },
    env,
  );
  const conn: OpenConnection = {
    shop_id: id,
    shop_type: shopType,
    shop_domain: f.domain,
    api_base_url: f.apiBase,
    api_version: f.apiVersion,
    // The token just granted: the check uses it, no refresh spent.
    credentials: { ...f.credentials, ...granted } as Credentials,
    settings: { ...DEFAULT_SETTINGS },
  };
  await checkOrRefuse(conn, env);
  await writeShopRows(
    db,
    { id, teams: { merchant: a.merchant_team_id, fulfiller: a.fulfiller_team_id }, name: a.name, shop_type: shopType },
    {
      shop_id: id,
      shop_type: shopType,
      active: true,
      credentials: sealCredentials(id, conn.credentials),
      shop_domain: f.domain,
      api_base_url: f.apiBase,
      api_version: f.apiVersion,
      settings: conn.settings as never,
      last_check_at: now,
      last_check_ok: true,
    },
    // First in the transaction (a compare-and-set): only the claim's holder connects, once.
    async (tx) => {
      const r = await markAuthorizationConnected(tx, a.id, now, id);
      if (!r.count) throw conflict('This authorization was completed by another request of the same link.');
    },
  );
  return id;
}
