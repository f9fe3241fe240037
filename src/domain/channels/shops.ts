import { transaction } from '../../db/tx.js';
import { newId } from '../../db/ids.js';
import type { Db, Prisma, Shop, ShopConnection, TxClient } from '../../db/types.js';
import { isUniqueViolation } from '../../db/client.js';
import type { Principal } from '../keys/index.js';
import { teamNames } from '../names/index.js';
import { DomainError, conflict, invalid, notFound } from '../errors.js';
import type { ChannelConnector } from '../../connectors/channels/connector.js';
import { resolveMerchant, slugify } from '../orders/index.js';
import { DEFAULT_SETTINGS, connectorFor, openConnection, sealCredentials, unregisterShop, type UnregisterLog } from './connection.js';
import { connectedPlatforms, connectorOrNull } from '../../connectors/channels/registry.js';
import { checkOrRefuse, connectionFields, type ConnectionInput } from './connection-fields.js';
import { ChannelCallError, type ChannelEnv } from '../../connectors/channels/http.js';
import type { ConnectionSettings, OpenConnection } from '../../connectors/channels/types.js';
import { noteAuditBefore } from '../audit/index.js';
import { connectionsOfShops, deleteConnectionRows, findConnection, insertConnection, updateConnection } from './store/connections.js';
import {
  activeDelegationsOf,
  anyOrderOfShop,
  deleteShopRows,
  failedDeliveryCounts,
  failedPushCounts,
  findShopInScope,
  insertShopRow,
  renameShop,
  shopsPage,
} from './store/shops.js';

export type { ConnectionInput };

// Shops and their platform connections (docs/sales-channels.md). A fulfiller key manages the
// shops of its delegated merchants (/v1/ops/shops), a merchant key its own (/v1/merchant/shops).
// Connecting checks the credentials with one real platform call first; nothing is stored when
// the platform refuses them. Credentials are sealed (secret-box) and never leave the server.

export interface ShopInput {
  name: string;
  shop_type: string;
  merchant_team_id?: string;
  connection?: ConnectionInput;
  settings?: Partial<ConnectionSettings>;
}

export interface ShopPatch {
  name?: string;
  active?: boolean;
  connection?: Partial<ConnectionInput>;
  settings?: Partial<ConnectionSettings>;
}

/** Shop types without a platform: orders come by API, CSV or a person. */
const UNCONNECTED = new Set(['MANUAL']);

async function registerOrRefuse(connector: ChannelConnector, conn: OpenConnection, env: ChannelEnv) {
  try {
    return await connector.register!(conn, env);
  } catch (err) {
    if (err instanceof ChannelCallError)
      throw new DomainError('validation-failed', `The ${conn.shop_type} connection could not be set up: ${err.message}.`, {
        errors: [{ path: 'body.connection', message: err.message }],
      });
    throw err;
  }
}

/** Shops a principal may see: its merchant team's, or those of merchants delegated to its fulfiller team. */
export const shopScope = (p: Principal) => (p.teamKind === 'MERCHANT' ? { merchant_team_id: p.teamId } : { fulfiller_team_id: p.teamId });

export async function teamsOf(db: Db, p: Principal, merchantTeamId?: string) {
  if (p.teamKind === 'FULFILLER') return { merchant: (await resolveMerchant(db, p.teamId, merchantTeamId)).id, fulfiller: p.teamId };
  if (merchantTeamId && merchantTeamId !== p.teamId)
    throw invalid('body.merchant_team_id', 'a merchant key connects shops of its own team');
  const d = await activeDelegationsOf(db.prisma, p.teamId);
  if (d.length !== 1) throw invalid('body', 'the merchant team needs exactly one fulfiller team (delegation) to receive channel orders');
  return { merchant: p.teamId, fulfiller: d[0]!.fulfiller_team_id };
}

export async function createShop(db: Db, p: Principal, input: ShopInput, env: ChannelEnv) {
  const id = await insertShop(db, await teamsOf(db, p, input.merchant_team_id), input, env);
  return getShop(db, p, id);
}

/** Checks the connection and stores the shop with it, for the given teams; the new shop's id. */
export async function insertShop(db: Db, teams: { merchant: string; fulfiller: string }, input: ShopInput, env: ChannelEnv) {
  const id = newId();
  const name = input.name.trim();
  let connection: Omit<ShopConnection, 'id' | 'created_at' | 'updated_at'> | null = null;
  const connector = connectorOrNull(input.shop_type);
  if (connector) {
    if (!input.connection) throw invalid('body.connection', `is required for a ${input.shop_type} shop`);
    const f = connectionFields(input.shop_type, input.connection, env);
    const settings = { ...DEFAULT_SETTINGS, ...input.settings };
    const conn: OpenConnection = {
      shop_id: id,
      shop_type: connector.platform,
      shop_domain: f.domain,
      api_base_url: f.apiBase,
      api_version: f.apiVersion,
      credentials: f.credentials,
      settings,
    };
    const info = await checkOrRefuse(conn, env);
    settings.shipment_tracking = !!info.shipment_tracking; // detected, never set by hand
    // What the platform needs set up by fos (BigCommerce's order webhooks); a refusal is a 400 like the check's.
    if (connector.register) Object.assign(settings, await registerOrRefuse(connector, conn, env));
    connection = {
      shop_id: id,
      shop_type: connector.platform,
      active: true,
      // As checked: with a client-credentials app, the token the check call was given.
      credentials: sealCredentials(id, conn.credentials),
      shop_domain: f.domain,
      api_base_url: f.apiBase,
      api_version: f.apiVersion,
      settings: settings as never,
      last_check_at: new Date(),
      last_check_ok: true,
      last_sync_at: null,
      sync_cursor: null,
      sync_lease_until: null,
      last_error: null,
      last_error_at: null,
      webhooks_received: 0,
      last_webhook_at: null,
    };
  } else if (!UNCONNECTED.has(input.shop_type)) {
    throw invalid(
      'body.shop_type',
      `no connector for ${input.shop_type} yet (${[...connectedPlatforms(), ...UNCONNECTED].join(', ')} shops can be created)`,
    );
  } else if (input.connection) throw invalid('body.connection', `a ${input.shop_type} shop has no connection`);
  await writeShopRows(db, { id, teams, name, shop_type: input.shop_type }, connection as never);
  return id;
}

async function findShop(db: Db, p: Principal, id: string) {
  const shop = await findShopInScope(db.prisma, shopScope(p), id);
  if (!shop) throw notFound('Shop', id);
  return shop;
}

export async function getShop(db: Db, p: Principal, id: string) {
  const shop = await findShop(db, p, id);
  return (await shopViews(db, [shop]))[0]!;
}

export async function listShops(db: Db, p: Principal, q: { shop_type?: string; limit: number; page: number }) {
  const where = { ...shopScope(p), ...(q.shop_type ? { shop_type: q.shop_type as never } : {}) };
  const rows = await shopsPage(db.prisma, where, q.page * q.limit, q.limit + 1);
  const data = await shopViews(db, rows.slice(0, q.limit));
  return {
    data,
    meta: {
      page: q.page,
      page_size: q.limit,
      start_index: q.page * q.limit,
      end_index: q.page * q.limit + data.length,
      has_next_page: rows.length > q.limit,
      has_previous_page: q.page > 0,
    },
  };
}

export async function updateShop(db: Db, p: Principal, id: string, patch: ShopPatch, env: ChannelEnv) {
  const shop = await findShop(db, p, id);
  noteAuditBefore(shop, { key: shop.name }); // the audit record's "from"; the connection's secrets are never in it
  const row = await findConnection(db.prisma, id);
  if ((patch.connection || patch.settings || patch.active !== undefined) && !row)
    throw invalid('body', `shop ${id} has no platform connection`);
  const data: Record<string, unknown> = {};
  if (row && (patch.connection || patch.settings)) {
    const open = openConnection(row);
    const current = {
      ...(open.credentials as object),
      shop_domain: open.shop_domain,
      store_url: open.shop_domain,
      api_base_url: open.api_base_url,
      api_version: open.api_version ?? undefined,
    };
    const f = connectionFields(row.shop_type, { ...current, ...patch.connection } as ConnectionInput, env);
    const settings = { ...open.settings, ...patch.settings };
    if (patch.connection) {
      const conn: OpenConnection = {
        ...open,
        persistCredentials: undefined,
        shop_domain: f.domain,
        api_base_url: f.apiBase,
        api_version: f.apiVersion,
        credentials: f.credentials,
        settings,
      };
      const info = await checkOrRefuse(conn, env);
      settings.shipment_tracking = !!info.shipment_tracking;
      // New credentials (a new webhook secret): the platform's registration is brought up to date.
      const connector = connectorFor(row.shop_type);
      if (connector.register) Object.assign(settings, await registerOrRefuse(connector, conn, env));
      Object.assign(data, {
        credentials: sealCredentials(id, conn.credentials),
        shop_domain: f.domain,
        api_base_url: f.apiBase,
        api_version: f.apiVersion,
        last_check_at: new Date(),
        last_check_ok: true,
      });
    }
    data.settings = settings;
  }
  if (patch.active !== undefined) data.active = patch.active;
  await transaction(db, async (tx) => {
    if (patch.name && patch.name.trim() !== shop.name) await renameShop(tx, id, patch.name.trim(), slugify(patch.name));
    if (Object.keys(data).length) await updateConnection(tx, id, data);
  }).catch((err) => {
    if (isUniqueViolation(err)) throw conflict(`The merchant team already has a shop named "${patch.name}".`);
    throw err;
  });
  return getShop(db, p, id);
}

/** Forgets the connection (credentials, deliveries, stock pushes); a shop its orders name stays as a label. */
export async function deleteShop(db: Db, p: Principal, id: string, env: ChannelEnv = {}, log?: UnregisterLog) {
  await findShop(db, p, id);
  const used = await anyOrderOfShop(db.prisma, id);
  const row = await findConnection(db.prisma, id);
  await transaction(db, async (tx) => {
    await deleteConnectionRows(tx, id);
    if (!used) await deleteShopRows(tx, id);
  });
  if (row) await unregisterShop(row, env, log);
  return { deleted: !used, disconnected: true };
}

/** A check on demand: one real call; the outcome is recorded as the connection's health. */
export async function checkShop(db: Db, p: Principal, id: string, env: ChannelEnv) {
  await findShop(db, p, id);
  const row = await findConnection(db.prisma, id);
  if (!row) throw invalid('shop_id', `shop ${id} has no platform connection`);
  const now = new Date();
  try {
    const open = openConnection(row, db);
    const r = await connectorFor(row.shop_type).check(open, env);
    // A check also notices the Shipment Tracking extension installed or removed since the connect.
    const settings = { ...open.settings, shipment_tracking: !!r.shipment_tracking };
    await updateConnection(db.prisma, id, { last_check_at: now, last_check_ok: true, settings });
    return { ok: true, platform_shop_name: r.name, error: null };
  } catch (err) {
    if (!(err instanceof ChannelCallError)) throw err;
    await updateConnection(db.prisma, id, { last_check_at: now, last_check_ok: false, last_error: err.message, last_error_at: now });
    return { ok: false, platform_shop_name: null, error: err.message };
  }
}

export async function shopViews(db: Db, shops: Shop[]) {
  const ids = shops.map((s) => s.id);
  const [names, conns, failed, failedPushes] = await Promise.all([
    teamNames(
      db.prisma,
      shops.flatMap((s) => [s.merchant_team_id, s.fulfiller_team_id]),
    ),
    connectionsOfShops(db.prisma, ids),
    failedDeliveryCounts(db.prisma, ids),
    failedPushCounts(db.prisma, ids),
  ]);
  const failedPushesOf = new Map(failedPushes.map((f) => [f.shop_id, f._count._all]));
  const connOf = new Map(conns.map((c) => [c.shop_id, c]));
  const failedOf = new Map(failed.map((f) => [f.shop_id, f._count._all]));
  return shops.map((s) => {
    const c = connOf.get(s.id);
    return {
      id: s.id,
      name: s.name,
      slug: s.slug,
      shop_type: s.shop_type,
      merchant_team_id: s.merchant_team_id,
      merchant_team_name: names.get(s.merchant_team_id) ?? null,
      fulfiller_team_id: s.fulfiller_team_id,
      fulfiller_team_name: s.fulfiller_team_id ? (names.get(s.fulfiller_team_id) ?? null) : null,
      connected: !!c,
      active: c?.active ?? false,
      connection: c
        ? {
            shop_domain: c.shop_domain,
            api_base_url: c.api_base_url,
            api_version: c.api_version,
            webhook_path: `/v1/channels/${s.id}/webhooks`,
          }
        : null,
      settings: c ? { ...DEFAULT_SETTINGS, ...(c.settings as object) } : null,
      health: c
        ? {
            last_check_at: c.last_check_at,
            last_check_ok: c.last_check_ok,
            last_sync_at: c.last_sync_at,
            sync_cursor: c.sync_cursor,
            last_error: c.last_error,
            last_error_at: c.last_error_at,
            webhooks_received: c.webhooks_received,
            last_webhook_at: c.last_webhook_at,
            failed_deliveries: failedOf.get(s.id) ?? 0,
            failed_pushes: failedPushesOf.get(s.id) ?? 0,
          }
        : null,
      created_at: s.created_at,
      updated_at: s.updated_at,
    };
  });
}

/**
 * The shop row and its connection (when it has one) in one transaction; a name the merchant team
 * already uses is a 409. Shared by a connect (insertShop), a BigCommerce app's awaited store and a
 * seller's consent through fos (authorizations.ts).
 */
export async function writeShopRows(
  db: Db,
  shop: { id: string; teams: { merchant: string; fulfiller: string }; name: string; shop_type: string },
  connection: Prisma.ShopConnectionUncheckedCreateInput | null,
  /** The transaction's first statement (a compare-and-set the write depends on: an authorization's completion). */
  first?: (tx: TxClient) => Promise<void>,
) {
  try {
    await transaction(db, async (tx) => {
      if (first) await first(tx);
      await insertShopRow(tx, {
        id: shop.id,
        merchant_team_id: shop.teams.merchant,
        fulfiller_team_id: shop.teams.fulfiller,
        name: shop.name,
        slug: slugify(shop.name),
        shop_type: shop.shop_type as never,
      });
      if (connection) await insertConnection(tx, connection);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`The merchant team already has a shop named "${shop.name}".`);
    throw err;
  }
}
