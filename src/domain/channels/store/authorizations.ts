import type { Db, Prisma, TxClient } from '../../../db/types.js';

// The sellers' consents through fos (shop_authorizations, issue 39): written when started, found
// by id or by the hash of their state, and each step a compare-and-set on status and claimed_at
// (issue 38 item 4). Each function is one statement on the client or transaction given.

type Client = Db['prisma'] | TxClient;

export function insertAuthorization(client: Client, data: Prisma.ShopAuthorizationUncheckedCreateInput) {
  return client.shopAuthorization.create({ data });
}

/** Authorizations that expired before `before`. */
export function deleteAuthorizationsExpiredBefore(client: Client, before: Date) {
  return client.shopAuthorization.deleteMany({ where: { expires_at: { lt: before } } });
}

export function findAuthorizationInScope(client: Client, scope: { merchant_team_id: string } | { fulfiller_team_id: string }, id: string) {
  return client.shopAuthorization.findFirst({ where: { id, ...scope } });
}

export function findAuthorizationOrThrow(client: Client, id: string) {
  return client.shopAuthorization.findUniqueOrThrow({ where: { id } });
}

export function findAuthorizationByState(client: Client, stateHash: string) {
  return client.shopAuthorization.findUnique({ where: { state_hash: stateHash } });
}

/**
 * Ends the authorization FAILED with the message (its secrets forgotten), while PENDING and
 * claimed at `claimedAt` (null: not claimed); the count ended.
 */
export function failAuthorization(client: Client, id: string, claimedAt: Date | null, message: string) {
  return client.shopAuthorization.updateMany({
    where: { id, status: 'PENDING', claimed_at: claimedAt },
    data: { status: 'FAILED', message, secrets: '' },
  });
}

/** Claims the authorization at `now` while PENDING, unclaimed and unexpired; the count claimed. */
export function claimAuthorization(client: Client, id: string, now: Date) {
  return client.shopAuthorization.updateMany({
    where: { id, status: 'PENDING', claimed_at: null, expires_at: { gt: now } },
    data: { claimed_at: now },
  });
}

/** The claimed authorization CONNECTED to its shop (its secrets forgotten); the count connected. */
export function markAuthorizationConnected(tx: TxClient, id: string, claimedAt: Date, shopId: string) {
  return tx.shopAuthorization.updateMany({
    where: { id, status: 'PENDING', claimed_at: claimedAt },
    data: { status: 'CONNECTED', shop_id: shopId, message: null, secrets: '' },
  });
}
