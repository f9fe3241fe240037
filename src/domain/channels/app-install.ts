import { newId } from '../../db/ids.js';
import type { Db, ShopConnection } from '../../db/types.js';
import type { Principal } from '../keys/index.js';
import { DomainError, conflict, forbidden } from '../errors.js';
import { DEFAULT_SETTINGS, connectorFor, openConnection, sealCredentials } from './connection.js';
import { checkOrRefuse } from './connection-fields.js';
import { shopViews, teamsOf, writeShopRows } from './shops.js';
import { connectionsOfStore, updateConnection } from './store/connections.js';
import { findShopOrThrow, shopsByIds } from './store/shops.js';
import { ChannelCallError, type ChannelEnv } from '../../connectors/channels/http.js';
import type { AppInstall, ConnectedPlatform, ConnectionSettings, Credentials } from '../../connectors/channels/types.js';

// Shops connected by an app the 3PL distributes and the merchant installs from the platform's
// side (BigCommerce single-click apps, docs/sales-channels.md §3b, the 3PL's app). The platform's install
// callback carries no state of fos's and is shown in the platform's iframe (no cookie of fos's
// reaches it), so which team a store belongs to is settled beforehand: a person with MANAGE_SHOPS
// names the store for a merchant team (awaitInstall), and an install is taken only for a store a
// team awaits or had installed. The store's identity is the platform's token answer (asked with
// the app's secret), never the browser's word. Uninstalling disconnects; no order is touched.

/** How long a named store waits for its install. */
export const AWAIT_TTL_MS = 14 * 24 * 3600_000;

export interface AwaitInput {
  name: string;
  shop_type: ConnectedPlatform;
  /** The platform's id of the store (BigCommerce: the store hash). */
  shop_domain: string;
  api_base_url: string;
  merchant_team_id?: string;
  /** What the connection holds before the app's token (BigCommerce: the webhook secret). */
  credentials: Credentials;
}

const installOf = (row: ShopConnection) => (row.settings as Partial<ConnectionSettings>).app_install ?? null;

/** The app-made connections of a store, with their shops' merchant teams. */
async function appConnections(db: Db, shopType: ConnectedPlatform, domain: string) {
  const rows = (await connectionsOfStore(db.prisma, shopType, domain)).filter(installOf);
  const shops = await shopsByIds(
    db.prisma,
    rows.map((r) => r.shop_id),
  );
  const teamOf = new Map(shops.map((s) => [s.id, s.merchant_team_id]));
  return rows.map((row) => ({ row, merchant: teamOf.get(row.shop_id)!, install: installOf(row)! }));
}

/** A person names a store for a merchant team: its shop waits (inactive, no token) for the app's install. */
export async function awaitInstall(db: Db, p: Principal, input: AwaitInput, now = new Date()) {
  const teams = await teamsOf(db, p, input.merchant_team_id);
  const found = await appConnections(db, input.shop_type, input.shop_domain);
  if (found.some((f) => f.merchant !== teams.merchant))
    throw conflict(`Store ${input.shop_domain} is already connected, or awaited, for another merchant team; disconnect it there first.`);
  const awaiting_until = new Date(now.getTime() + AWAIT_TTL_MS).toISOString();
  const mine = found[0];
  if (mine) {
    // Named again: an install not made (or removed) waits anew; an installed app stays as it is.
    if (mine.install.status !== 'INSTALLED' || !mine.row.active) {
      const settings = { ...(mine.row.settings as object), app_install: { ...mine.install, status: 'AWAITING', awaiting_until } };
      await updateConnection(db.prisma, mine.row.shop_id, { settings });
    }
    return { shop_id: mine.row.shop_id, created: false };
  }
  const id = newId();
  const app_install: AppInstall = {
    status: 'AWAITING',
    awaiting_until,
    installed_at: null,
    uninstalled_at: null,
    scope: null,
    user_email: null,
  };
  const name = input.name.trim();
  await writeShopRows(
    db,
    { id, teams, name, shop_type: input.shop_type },
    {
      shop_id: id,
      shop_type: input.shop_type,
      active: false, // nothing to sync or push until the app is installed
      credentials: sealCredentials(id, input.credentials),
      shop_domain: input.shop_domain,
      api_base_url: input.api_base_url,
      settings: { ...DEFAULT_SETTINGS, app_install } as never,
    },
  );
  return { shop_id: id, created: true };
}

export interface Installed {
  shop_type: ConnectedPlatform;
  shop_domain: string;
  api_base_url: string;
  /** The app's token (and what else the platform answered), merged over what the connection held. */
  credentials: Partial<Credentials>;
  scope: string | null;
  user_email: string | null;
}

/** The one app-made connection an install or a callback is for; refused when no team awaits the store. */
async function connectionFor(db: Db, shopType: ConnectedPlatform, domain: string) {
  const found = await appConnections(db, shopType, domain);
  if (!found.length)
    throw forbidden(
      `No team on this fos server awaits store ${domain}: ask your fulfiller to name it (fos shops connect ... --app), then install the app again.`,
    );
  if (found.length > 1) throw conflict(`Store ${domain} is connected to ${found.length} shops by the app; remove the extra ones first.`);
  return found[0]!;
}

/** The connection an install of the store would complete; refused when no team awaits it or its wait ended. */
export async function acceptsInstall(db: Db, shopType: ConnectedPlatform, domain: string, now = new Date()) {
  const found = await connectionFor(db, shopType, domain);
  const { install } = found;
  if (install.status === 'AWAITING' && install.awaiting_until && Date.parse(install.awaiting_until) < now.getTime())
    throw forbidden(`The wait for store ${domain}'s install ended on ${install.awaiting_until}: ask your fulfiller to name it again.`);
  return found;
}

/** The platform says the app is installed (or authorized again): the awaited shop gets the token and connects. */
export async function completeInstall(db: Db, input: Installed, env: ChannelEnv, now = new Date()) {
  const { row, install } = await acceptsInstall(db, input.shop_type, input.shop_domain, now);
  const open = openConnection(row);
  const conn = {
    ...open,
    api_base_url: input.api_base_url,
    credentials: { ...open.credentials, ...input.credentials } as Credentials,
  };
  await checkOrRefuse(conn, env);
  const connector = connectorFor(input.shop_type);
  if (connector.register) {
    try {
      Object.assign(conn.settings, await connector.register(conn, env));
    } catch (err) {
      if (err instanceof ChannelCallError)
        throw new DomainError('validation-failed', `The ${input.shop_type} webhooks could not be registered: ${err.message}.`);
      throw err;
    }
  }
  const app_install: AppInstall = {
    ...install,
    status: 'INSTALLED',
    awaiting_until: null,
    installed_at: now.toISOString(),
    uninstalled_at: null,
    scope: input.scope,
    user_email: input.user_email,
  };
  await updateConnection(db.prisma, row.shop_id, {
    credentials: sealCredentials(row.shop_id, conn.credentials),
    api_base_url: input.api_base_url,
    settings: { ...conn.settings, app_install } as never,
    active: true,
    last_check_at: now,
    last_check_ok: true,
    last_error: null,
    last_error_at: null,
  });
  return { shop_id: row.shop_id, first: install.status !== 'INSTALLED' };
}

/**
 * The platform says the app was uninstalled: the token is dropped (`strip` keeps what is not the
 * platform's grant), the connection made inactive and says why. The shop and its orders stay.
 */
export async function uninstalled(
  db: Db,
  shopType: ConnectedPlatform,
  domain: string,
  strip: (c: Credentials) => Credentials,
  now = new Date(),
) {
  const { row, install } = await connectionFor(db, shopType, domain);
  const open = openConnection(row);
  const app_install: AppInstall = { ...install, status: 'UNINSTALLED', uninstalled_at: now.toISOString(), awaiting_until: null };
  const why = `The app was uninstalled from store ${domain} on ${now.toISOString()}: orders stay; reinstalling the app connects the shop again.`;
  await updateConnection(db.prisma, row.shop_id, {
    credentials: sealCredentials(row.shop_id, strip(open.credentials)),
    settings: { ...open.settings, app_install } as never,
    active: false,
    last_error: why,
    last_error_at: now,
  });
  return { shop_id: row.shop_id };
}

/** The shop an app callback is about, as the API shows it (no credentials). */
export async function installedShop(db: Db, shopType: ConnectedPlatform, domain: string) {
  const { row } = await connectionFor(db, shopType, domain);
  const shop = await findShopOrThrow(db.prisma, row.shop_id);
  return (await shopViews(db, [shop]))[0]!;
}
