import type { Db, OrderFulfillmentHold, TxClient } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { transaction } from '../../db/tx.js';
import { orderLabel, type HoldReason } from '../../contract/orders-enums.js';
import { assertNoActiveHold, placeHold } from './holds.js';
import { allocatePending } from './pending.js';
import {
  countActiveHolds,
  findOrderHolds,
  findOrderNumberOrThrow,
  findPackageOrder,
  findTeamOrderHold,
  findTeamOrderId,
  findTeamOrderState,
  releaseHold,
  touchOpenOrder,
} from './store/holds.js';

// Holds placed and released by people (POST /v1/ops/orders/{id}/holds, …/holds/{hold_id}/release).
// A hold is placed through placeHold (holds.ts), the one way every area puts an order on hold.
// While any hold is active, locking, packing, labelling and fulfilling the order's fulfillment
// orders answer 409 on-hold naming the hold. Releasing the last one runs allocation, so stock
// that arrived meanwhile reaches the waiting orders by priority.

export const holdView = (h: OrderFulfillmentHold) => ({
  id: h.id,
  order_id: h.order_id,
  active: h.active,
  reason: h.reason,
  reason_notes: h.reason_notes,
  created_by_user_id: h.created_by_user_id,
  created_at: h.created_at,
  updated_at: h.updated_at,
});

/** Claims the order's row (first statement, a write) while it is open; 404/409 otherwise. */
async function claimOpenOrder(tx: TxClient, teamId: string, orderId: string) {
  const count = await touchOpenOrder(tx, teamId, orderId, new Date());
  const order = await findTeamOrderState(tx, teamId, orderId);
  if (!order) throw notFound('Order', orderId);
  if (!count)
    throw conflict(`Order ${orderLabel(order.order_number)} is ${order.status}; holds apply to open orders only.`, {
      status: order.status,
    });
  return order;
}

export async function placeOrderHold(
  db: Db,
  teamId: string,
  orderId: string,
  input: { reason: HoldReason; reason_notes?: string | null; userId?: string | null },
) {
  const hold = await transaction(db, async (tx) => {
    const order = await claimOpenOrder(tx, teamId, orderId);
    const h = await placeHold(tx, { orderId, reason: input.reason, notes: input.reason_notes ?? null, userId: input.userId ?? null });
    await enqueueEvent(tx, teamId, 'order.hold_placed', {
      order_id: orderId,
      order_number: order.order_number,
      hold_id: h.id,
      reason: h.reason,
      reason_notes: h.reason_notes,
      created_by_user_id: h.created_by_user_id,
    });
    return h;
  });
  return holdView(hold);
}

export async function releaseOrderHold(db: Db, teamId: string, orderId: string, holdId: string, userId?: string | null) {
  const { hold, last } = await transaction(db, async (tx) => {
    // Compare-and-set active -> inactive: of two releases, one wins and the other is a 409.
    const count = await releaseHold(tx, teamId, orderId, holdId);
    const h = await findTeamOrderHold(tx, teamId, orderId, holdId);
    if (!h) throw notFound('Hold', holdId);
    if (!count && h.active) {
      throw conflict(
        `Hold ${holdId} is AWAITING_PAYMENT: it is lifted by marking the order paid (POST /v1/ops/orders/${orderId}/mark-paid).`,
      );
    }
    if (!count) throw conflict(`Hold ${holdId} was already released.`, { hold_id: holdId });
    const order = await findOrderNumberOrThrow(tx, orderId);
    const remaining = await countActiveHolds(tx, orderId);
    await enqueueEvent(tx, teamId, 'order.hold_released', {
      order_id: orderId,
      order_number: order.order_number,
      hold_id: h.id,
      reason: h.reason,
      released_by_user_id: userId ?? null,
      active_holds: remaining,
    });
    return { hold: h, last: remaining === 0 };
  });
  // The release has committed; allocation failing here only delays it to the next run.
  if (last) await allocatePending(db, teamId).catch(() => undefined);
  return holdView(hold);
}

export async function listOrderHolds(db: Db, teamId: string, orderId: string) {
  if (!(await findTeamOrderId(db.prisma, teamId, orderId))) throw notFound('Order', orderId);
  const holds = await findOrderHolds(db.prisma, orderId);
  return { data: holds.map(holdView) };
}

/** 409 on-hold when the package's order has an active hold (packing and labelling call it). */
export async function assertPackageNotHeld(tx: TxClient | Db['prisma'], teamId: string, packageId: string) {
  const pkg = await findPackageOrder(tx, teamId, packageId);
  if (pkg?.fulfillment_order) await assertNoActiveHold(tx as TxClient, pkg.fulfillment_order.order_id);
}
