import type { Db, TxClient } from '../../db/types.js';
import { DomainError } from '../errors.js';
import { namedFulfillmentOrder } from '../names/index.js';

// How a fulfillment order's lock reads (its owner and expiry are columns of the fulfillment order
// the orders area writes): whether it is held now, and the refusal that names who holds it. The
// fulfillment area takes and releases locks (fulfillment/locks.ts); order edits refuse a held one.

/** The lock as shown to callers: null when nobody holds it or it has expired. */
export function activeLock(fo: { lock_owner: string | null; lock_expires_at: Date | null }, now = new Date()) {
  return fo.lock_owner && fo.lock_expires_at && fo.lock_expires_at > now
    ? { lock_owner: fo.lock_owner, expires_at: fo.lock_expires_at }
    : null;
}

/** The refusal when another owner holds the lock; names the order (a query, on the refusing path only). */
export async function lockHeld(client: Db['prisma'] | TxClient, id: string, lock: { lock_owner: string; expires_at: Date }) {
  const named = await namedFulfillmentOrder(client, id);
  return new DomainError('lock-held', `${named} is locked by "${lock.lock_owner}" until ${lock.expires_at.toISOString()}.`, {
    lock_owner: lock.lock_owner,
    expires_at: lock.expires_at.toISOString(),
  });
}
