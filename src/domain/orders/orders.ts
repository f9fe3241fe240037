import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { PRIORITY_RANK, type Priority } from '../../contract/orders-enums.js';
import { markOrderPaid } from './holds.js';
import { allocatePending } from './pending.js';
import { findOrderPriority, setPriorityIfUnchanged } from './store/priority.js';
import { findChannelPushes, findTeamOrder } from './store/views.js';
import { transaction } from '../../db/tx.js';
import { automationView, loadNames, orderView } from './view.js';
import { noteAuditBefore } from '../audit/index.js';

// Reading orders, and the two order changes the ops API allows (priority, mark paid).

export async function getOrder(db: Db, fulfillerTeamId: string, orderId: string) {
  const order = await findTeamOrder(db.prisma, fulfillerTeamId, orderId);
  if (!order) throw notFound('Order', orderId);
  const [names, pushes] = await Promise.all([loadNames(db, [order]), order.shop_id ? findChannelPushes(db.prisma, order.id) : []]);
  // Extension (docs/sales-channels.md), present once the order has had a tracking push.
  const channel = pushes.map((p) => ({
    id: p.id,
    shop_id: p.shop_id,
    status: p.status,
    detail: p.detail,
    attempts: p.attempts,
    created_at: p.created_at,
    updated_at: p.updated_at,
  }));
  return {
    ...orderView(order, names, true),
    ...automationView(order),
    ...(channel.length ? { sales_channel_pushes: channel } : {}),
  };
}

export { listOrders, type OrderListQuery } from './list.js';

class PriorityChanged extends Error {}

/** Changes only priority (and its sortable rank); then re-runs allocation, which it affects. */
export async function changeOrderPriority(db: Db, fulfillerTeamId: string, orderId: string, priority: Priority) {
  const changed = await transaction(
    db,
    async (tx) => {
      const order = await findOrderPriority(tx, fulfillerTeamId, orderId);
      if (!order) throw notFound('Order', orderId);
      noteAuditBefore(order, { key: order.order_number }); // the audit record's "from" (docs/audit.md)
      if (order.priority === priority) return false;
      // Compare-and-set on the priority read: a concurrent change (another replica, READ COMMITTED)
      // makes this one re-read, so each event's previous_priority is true and a repeat is a no-op.
      const res = await setPriorityIfUnchanged(tx, order.id, order.priority, priority, PRIORITY_RANK[priority]);
      if (res.count !== 1) throw new PriorityChanged();
      await enqueueEvent(tx, fulfillerTeamId, 'order.priority_changed', {
        order_id: order.id,
        order_number: order.order_number,
        previous_priority: order.priority,
        priority,
      });
      return true;
    },
    { attempts: 20, retryOn: (err) => err instanceof PriorityChanged },
  );
  if (changed) await allocatePending(db, fulfillerTeamId).catch(() => undefined);
  return getOrder(db, fulfillerTeamId, orderId);
}

/** POST …/mark-paid (extension): PENDING -> PAID, lifts the AWAITING_PAYMENT hold. */
export async function markPaid(db: Db, fulfillerTeamId: string, orderId: string) {
  await markOrderPaid(db, fulfillerTeamId, orderId);
  return getOrder(db, fulfillerTeamId, orderId);
}
