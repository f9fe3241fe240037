import { sqltag as sql } from '@prisma/client/runtime/client';
import type { Db, TxClient } from '../../db/types.js';
import { DomainError, conflict, notFound } from '../errors.js';
import { orderLabel, type HoldReason } from '../../contract/orders-enums.js';
import { transaction } from '../../db/tx.js';
import {
  findFirstActiveHold,
  findOrderNumber,
  findTeamOrder,
  insertHold,
  markPendingOrderPaid,
  releasePaymentHolds,
} from './store/holds.js';

// Fulfillment holds. An order converted with payment_status PENDING gets an active
// AWAITING_PAYMENT hold; while any hold is active, the fulfillment workflow refuses to lock or
// fulfill its fulfillment orders (409 on-hold). Marking the order paid lifts that hold.

export interface NewHold {
  orderId: string;
  reason: HoldReason;
  notes?: string | null;
  /** The person who placed it (spec 2.6 created_by_user_id), when a person acts. */
  userId?: string | null;
}

/**
 * Places an active hold on an order inside the caller's transaction: the one way every area
 * (payment, people, address verification, sales-channel intake) puts an order on hold.
 */
export function placeHold(tx: TxClient, hold: NewHold) {
  return insertHold(tx, {
    order_id: hold.orderId,
    active: true,
    reason: hold.reason,
    reason_notes: hold.notes ?? null,
    created_by_user_id: hold.userId ?? null,
  });
}

/** Creates the AWAITING_PAYMENT hold of a newly converted, unpaid order. */
export function createPaymentHold(tx: TxClient, orderId: string) {
  return placeHold(tx, {
    orderId,
    reason: 'AWAITING_PAYMENT',
    notes: 'Payment is pending; mark the order paid to release it for fulfillment.',
  });
}

/**
 * A condition on a "fulfillment_orders" row for raw compare-and-sets (lock, fulfill): its order has
 * no active hold. The refusal is explained afterwards by assertNoActiveHold.
 */
export const NO_ACTIVE_HOLD = sql`NOT EXISTS (SELECT 1 FROM "order_fulfillment_holds" h WHERE h."order_id" = "fulfillment_orders"."order_id" AND h."active" = ${true})`;

/**
 * Throws 409 on-hold when the order has an active fulfillment hold. Call it inside the
 * transaction that locks or fulfills, so a hold placed concurrently is seen.
 */
export async function assertNoActiveHold(tx: TxClient, orderId: string): Promise<void> {
  const hold = await findFirstActiveHold(tx, orderId);
  if (!hold) return;
  const order = await findOrderNumber(tx, orderId);
  const notes = hold.reason_notes ? ` — ${hold.reason_notes}` : '';
  throw new DomainError(
    'on-hold',
    `Order ${orderLabel(order?.order_number ?? orderId)} is on hold: ${hold.reason}${notes} (hold ${hold.id})`,
    {
      hold_reason: hold.reason,
      hold_id: hold.id,
      order_id: orderId,
    },
  );
}

/**
 * Sets payment_status PAID (compare-and-set on PENDING, so a second call is a 409) and
 * deactivates the AWAITING_PAYMENT hold. Returns the order id.
 */
export async function markOrderPaid(db: Db, fulfillerTeamId: string, orderId: string): Promise<string> {
  return transaction(db, async (tx) => {
    if ((await markPendingOrderPaid(tx, fulfillerTeamId, orderId)) !== 1) {
      const order = await findTeamOrder(tx, fulfillerTeamId, orderId);
      if (!order) throw notFound('Order', orderId);
      throw conflict(
        `Order ${orderLabel(order.order_number)} has payment_status ${order.payment_status}; only PENDING orders can be marked paid.`,
      );
    }
    await releasePaymentHolds(tx, orderId);
    return orderId;
  });
}
