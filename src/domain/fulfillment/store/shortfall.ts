import type { TxClient } from '../../../db/types.js';

// The shortfall split's writes (shortfall.ts): its claim on the fulfillment order and the clearing
// of the short units it split off.

/**
 * The claim's compare-and-set: the fulfillment order is one of `statuses` and not locked by
 * someone else (`owner`'s own lock is fine); sets updated_at. The count claimed (0 or 1).
 */
export function touchSplittable(tx: TxClient, teamId: string, id: string, statuses: string[], owner: string | null, now: Date) {
  return tx.fulfillmentOrder.updateMany({
    where: {
      id,
      fulfiller_team_id: teamId,
      status: { in: statuses },
      OR: [{ lock_owner: null }, { lock_expires_at: null }, { lock_expires_at: { lte: now } }, ...(owner ? [{ lock_owner: owner }] : [])],
    },
    data: { updated_at: now },
  });
}

/** No line of the fulfillment order is short any more. */
export function clearShortQuantities(tx: TxClient, foId: string) {
  return tx.fulfillmentOrderLineItem.updateMany({
    where: { fulfillment_order_id: foId, short_quantity: { gt: 0 } },
    data: { short_quantity: 0 },
  });
}
