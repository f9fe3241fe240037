import { statementsOf } from '../../db/statements.js';
import type { Db, TxClient } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { activeLock, LOCKABLE } from './fulfillment-orders.js';
import { assertNoActiveHold, lockHeld } from '../orders/index.js';
import { claimLock } from './store/locks.js';
import { findTeamFulfillmentOrder, releaseOwnLock } from './store/fo-state.js';

export { lockHeld };
import { transaction } from '../../db/tx.js';

// Fulfillment-order locks. Acquiring is ONE compare-and-set UPDATE: it succeeds only when the
// order is lockable, has no active hold, and the lock is free, expired, or already this owner's
// (who may extend it).
// Whoever loses a race sees count 0 and gets a 409 naming the holder.

export interface LockInput {
  lock_owner: string;
  timeout_minutes: number;
}

/** Reads why a compare-and-set on a fulfillment order matched nothing, and throws it. */
async function explainLockRefusal(tx: TxClient, teamId: string, id: string, owner: string, now: Date): Promise<never> {
  const fo = await findTeamFulfillmentOrder(tx, teamId, id, { status: true, lock_owner: true, lock_expires_at: true, order_id: true });
  if (!fo) throw notFound('Fulfillment order', id);
  if (!LOCKABLE.includes(fo.status)) {
    throw conflict(
      `Fulfillment order ${id} is ${fo.status}; only ACCEPTED or IN_PROGRESS fulfillment orders can be locked` +
        (fo.status === 'PENDING' ? ' (accept it first).' : '.'),
      { fulfillment_order_status: fo.status },
    );
  }
  const lock = activeLock(fo, now);
  if (lock && lock.lock_owner !== owner) throw await lockHeld(tx, id, lock);
  await assertNoActiveHold(tx, fo.order_id);
  throw conflict(`Fulfillment order ${id} changed while it was being locked; try again.`);
}

/**
 * A lock's length in ms: timeout_minutes is a number (spec 4.6), a fraction rounded up to whole
 * seconds (0.5 -> 30 s, 0.001 -> 1 s). The product is rounded to 1e-6 s first so that binary
 * fractions (0.1 * 60 = 6.000000000000001) do not gain a second.
 */
export const lockMs = (minutes: number) => Math.ceil(Number((minutes * 60).toFixed(6))) * 1000;

export async function lockFulfillmentOrder(db: Db, teamId: string, id: string, input: LockInput) {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + lockMs(input.timeout_minutes));
  const owner = input.lock_owner;
  return transaction(db, async (tx) => {
    // One compare-and-set (store/locks.ts); who loses a race is told why by reads after it.
    const fo = await claimLock(statementsOf(tx), { id, teamId, owner, expiresAt, now });
    if (!fo) return explainLockRefusal(tx, teamId, id, owner, now);
    await enqueueEvent(tx, teamId, 'fulfillment_order.locked', {
      fulfillment_order_id: id,
      order_id: fo.order_id,
      lock_owner: owner,
      expires_at: expiresAt.toISOString(),
    });
    return { success: true, lock_owner: owner, expires_at: expiresAt };
  });
}

/** Only the holder releases; releasing an expired lock of one's own is allowed (and harmless). */
export async function releaseFulfillmentOrderLock(db: Db, teamId: string, id: string, owner: string) {
  const now = new Date();
  return transaction(db, async (tx) => {
    const { count } = await releaseOwnLock(tx, teamId, id, owner);
    if (!count) {
      const fo = await findTeamFulfillmentOrder(tx, teamId, id, { lock_owner: true, lock_expires_at: true });
      if (!fo) throw notFound('Fulfillment order', id);
      const lock = activeLock(fo, now);
      if (lock) throw await lockHeld(tx, id, lock);
      throw conflict(`Fulfillment order ${id} is not locked by "${owner}"; there is nothing to release.`);
    }
    return { success: true, lock_owner: null, expires_at: null };
  });
}
