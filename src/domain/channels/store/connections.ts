import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The shops' platform connections (shop_connections): read by the webhooks, syncs, stock and
// tracking pushes, written by connects, checks, app installs and the leases of syncs and stock
// passes (issue 38 item 4). Each function is one statement on the client or transaction given.

type Client = Db['prisma'] | TxClient;

export function findConnection(client: Client, shopId: string) {
  return client.shopConnection.findUnique({ where: { shop_id: shopId } });
}

export function findConnectionOrThrow(client: Client, shopId: string) {
  return client.shopConnection.findUniqueOrThrow({ where: { shop_id: shopId } });
}

/** The connection's settings only (null without a connection). */
export function findConnectionSettings(client: Client, shopId: string) {
  return client.shopConnection.findUnique({ where: { shop_id: shopId }, select: { settings: true } });
}

/** The connections of one store of a platform (its domain or store hash). */
export function connectionsOfStore(client: Client, shopType: Prisma.ShopConnectionWhereInput['shop_type'], domain: string) {
  return client.shopConnection.findMany({ where: { shop_type: shopType, shop_domain: domain } });
}

export function connectionsOfShops(client: Client, shopIds: string[]) {
  return client.shopConnection.findMany({ where: { shop_id: { in: shopIds } } });
}

export function activeConnections(client: Client) {
  return client.shopConnection.findMany({ where: { active: true } });
}

/**
 * Up to 20 active connections last synced before `syncedBefore` (or never) whose last error, if
 * any, is older than `failedBefore`; the least recently synced first.
 */
export function connectionsDue(client: Client, syncedBefore: Date, failedBefore: Date) {
  return client.shopConnection.findMany({
    where: {
      active: true,
      OR: [{ last_sync_at: null }, { last_sync_at: { lt: syncedBefore } }],
      AND: [{ OR: [{ last_error_at: null }, { last_error_at: { lt: failedBefore } }] }],
    },
    orderBy: [{ last_sync_at: 'asc' }],
    take: 20,
  });
}

export function insertConnection(tx: TxClient, data: Prisma.ShopConnectionUncheckedCreateInput) {
  return tx.shopConnection.create({ data });
}

export function updateConnection(client: Client, shopId: string, data: Prisma.ShopConnectionUncheckedUpdateInput) {
  return client.shopConnection.update({ where: { shop_id: shopId }, data });
}

export function updateConnectionById(client: Client, id: string, data: Prisma.ShopConnectionUncheckedUpdateInput) {
  return client.shopConnection.update({ where: { id }, data });
}

/** Renewed credentials, compare-and-set on the sealed value read; the count written (0: changed meanwhile). */
export function replaceCredentials(client: Client, shopId: string, sealed: string, next: string) {
  return client.shopConnection.updateMany({
    where: { shop_id: shopId, credentials: sealed },
    data: { credentials: next },
  });
}

/** A delivery received: counted, and when. */
export function noteWebhookReceived(tx: TxClient, shopId: string, now: Date) {
  return tx.shopConnection.update({ where: { shop_id: shopId }, data: { webhooks_received: { increment: 1 }, last_webhook_at: now } });
}

/** The connection's health says what failed (updateMany: nothing when the connection is gone). */
export function noteConnectionError(client: Client, shopId: string, message: string, at: Date) {
  return client.shopConnection.updateMany({
    where: { shop_id: shopId },
    data: { last_error: message, last_error_at: at },
  });
}

/**
 * The lease of a sync or a stock pass (sync_lease_until set to `until`), taken while the
 * connection is active, `also` holds and no unexpired lease is held; the count taken (0 or 1).
 */
export function claimLease(client: Client, id: string, now: Date, until: Date, also: Prisma.ShopConnectionWhereInput = {}) {
  return client.shopConnection.updateMany({
    where: { id, active: true, ...also, OR: [{ sync_lease_until: null }, { sync_lease_until: { lt: now } }] },
    data: { sync_lease_until: until },
  });
}

export function releaseLease(client: Client, id: string) {
  return client.shopConnection.updateMany({ where: { id }, data: { sync_lease_until: null } });
}

/** The connection, its deliveries and its stock pushes forgotten. */
export async function deleteConnectionRows(tx: TxClient, shopId: string) {
  await tx.shopConnection.deleteMany({ where: { shop_id: shopId } });
  await tx.channelDelivery.deleteMany({ where: { shop_id: shopId } });
  await tx.channelStockPush.deleteMany({ where: { shop_id: shopId } });
}
