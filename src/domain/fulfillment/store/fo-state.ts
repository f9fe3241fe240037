import type { Db, Prisma, TxClient } from '../../../db/types.js';

// A fulfillment order's state as the writes that refuse read it to say why (locks, packing,
// moves, shortfall), and the lock's release (locks.ts).

type Client = Db['prisma'] | TxClient;

/** The team's fulfillment order, with the fields `select` names; null when the team has none by that id. */
export function findTeamFulfillmentOrder<S extends Prisma.FulfillmentOrderSelect>(client: Client, teamId: string, id: string, select: S) {
  return client.fulfillmentOrder.findFirst({ where: { id, fulfiller_team_id: teamId }, select });
}

/** Clears the lock where `owner` holds it (expired or not); the count released (0 or 1). */
export function releaseOwnLock(tx: TxClient, teamId: string, id: string, owner: string) {
  return tx.fulfillmentOrder.updateMany({
    where: { id, fulfiller_team_id: teamId, lock_owner: owner },
    data: { lock_owner: null, lock_expires_at: null },
  });
}
