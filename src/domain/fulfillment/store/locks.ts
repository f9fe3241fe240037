import type { Statements } from '../../../db/statements.js';
import { LOCKABLE_STATUSES, NO_ACTIVE_HOLD, statusIn } from './common.js';

// The lock's compare-and-set (locks.ts): lockable, lock free, expired or the owner's (who may
// extend it), and no active hold on the order. Locking is starting the work: ACCEPTED becomes
// IN_PROGRESS (spec 3.2). Returns the order's id, or null when nothing matched.
const LOCK = `
  UPDATE "fulfillment_orders" SET "lock_owner" = ?, "lock_expires_at" = ?, "status" = 'IN_PROGRESS',
    "request_status" = 'ACCEPTED', "updated_at" = ?
  WHERE "id" = ? AND "fulfiller_team_id" = ? AND ${statusIn(LOCKABLE_STATUSES)}
    AND ("lock_owner" IS NULL OR "lock_expires_at" IS NULL OR "lock_expires_at" <= ? OR "lock_owner" = ?)
    AND ${NO_ACTIVE_HOLD}
  RETURNING "order_id"`;

export interface LockClaim {
  id: string;
  teamId: string;
  owner: string;
  expiresAt: Date;
  now: Date;
}

export async function claimLock(st: Statements, c: LockClaim): Promise<{ order_id: string } | null> {
  const [row] = await st.all<{ order_id: string }>(LOCK, [
    c.owner,
    c.expiresAt,
    c.now,
    c.id,
    c.teamId,
    ...LOCKABLE_STATUSES,
    c.now,
    c.owner,
    true,
  ]);
  return row ?? null;
}
