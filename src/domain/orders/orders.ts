import type { Db, Prisma } from '../../db/types.js';
import { invalid, notFound } from '../errors.js';
import { enqueueEvent } from '../events/outbox.js';
import { enumList, pageArgs, toPage, type PageRequest } from '../pagination.js';
import { FULFILLMENT_STATUSES, ORDER_STATUSES, PAYMENT_STATUSES, PRIORITY_RANK, type Priority } from '../../contract/orders-enums.js';
import { markOrderPaid } from './holds.js';
import { allocatePending } from './pending.js';
import { orderSearch } from './search.js';
import { inTransaction } from './tx.js';
import { loadNames, ORDER_LIST_SELECT, orderListItem, orderView } from './view.js';

// Reading orders, and the two order changes the ops API allows (priority, mark paid).

export async function getOrder(db: Db, fulfillerTeamId: string, orderId: string) {
  const order = await db.prisma.order.findFirst({
    where: { id: orderId, fulfiller_team_id: fulfillerTeamId },
    include: { holds: true, line_items: true },
  });
  if (!order) throw notFound('Order', orderId);
  const [names, pushes] = await Promise.all([
    loadNames(db, [order]),
    order.shop_id ? db.prisma.channelPush.findMany({ where: { order_id: order.id }, orderBy: [{ created_at: 'asc' }, { id: 'asc' }] }) : [],
  ]);
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
  return { ...orderView(order, names, true), ...(channel.length ? { sales_channel_pushes: channel } : {}) };
}

export interface OrderListQuery extends PageRequest {
  search?: string;
  status?: string;
  payment_status?: string;
  fulfillment_status?: string;
  created_at_min?: string;
  created_at_max?: string;
  updated_at_min?: string;
  updated_at_max?: string;
  order_by?: 'created_at' | 'updated_at' | 'order_number';
  order?: 'asc' | 'desc';
}

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** ISO 8601 date or date-time (UTC unless an offset is given). A bare date as an upper bound means the end of that day. */
function bound(path: string, value: string | undefined, upper: boolean): Date | undefined {
  if (!value) return undefined;
  const v = value.trim();
  const m = ISO.exec(v);
  const date = m ? new Date(m[1] && !m[4] ? `${v}Z` : m[1] ? v : `${v}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime())) throw invalid(path, 'must be an ISO 8601 date or date-time');
  return !m![1] && upper ? new Date(date.getTime() + 86_400_000 - 1) : date;
}

function range(prefix: 'created_at' | 'updated_at', min?: string, max?: string) {
  const gte = bound(`query.${prefix}_min`, min, false);
  const lte = bound(`query.${prefix}_max`, max, true);
  return gte || lte ? { [prefix]: { ...(gte ? { gte } : {}), ...(lte ? { lte } : {}) } } : {};
}

export async function listOrders(db: Db, fulfillerTeamId: string, q: OrderListQuery) {
  const where: Prisma.OrderWhereInput = { fulfiller_team_id: fulfillerTeamId };
  const search = q.search?.trim();
  if (q.search !== undefined && q.search !== '') {
    if (!search || search.length < 3) throw invalid('query.search', 'must be at least 3 characters');
    where.OR = await orderSearch(db, search);
  }
  const status = enumList('query.status', q.status, ORDER_STATUSES);
  const payment = enumList('query.payment_status', q.payment_status, PAYMENT_STATUSES);
  const fulfillment = enumList('query.fulfillment_status', q.fulfillment_status, FULFILLMENT_STATUSES);
  if (status) where.status = { in: status as never };
  if (payment) where.payment_status = { in: payment };
  if (fulfillment) where.fulfillment_status = { in: fulfillment };
  Object.assign(where, range('created_at', q.created_at_min, q.created_at_max), range('updated_at', q.updated_at_min, q.updated_at_max));

  const dir = q.order ?? 'desc';
  const orderBy: Prisma.OrderOrderByWithRelationInput[] =
    q.order_by === 'order_number'
      ? [{ order_number_class: 'asc' }, { order_sort_key: dir }, { id: dir }] // numbers first, either way (numbers.ts)
      : [{ [q.order_by ?? 'created_at']: dir }, { id: dir }];
  const rows = await db.prisma.order.findMany({ ...pageArgs(q, where, orderBy), select: ORDER_LIST_SELECT });
  const page = toPage(rows, q, undefined, orderBy);
  const names = await loadNames(db, page.data);
  return { data: page.data.map((o) => orderListItem(o, names)), meta: page.meta };
}

class PriorityChanged extends Error {}

/** Changes only priority (and its sortable rank); then re-runs allocation, which it affects. */
export async function changeOrderPriority(db: Db, fulfillerTeamId: string, orderId: string, priority: Priority) {
  const changed = await inTransaction(
    db,
    async (tx) => {
      const order = await tx.order.findFirst({
        where: { id: orderId, fulfiller_team_id: fulfillerTeamId },
        select: { id: true, priority: true, order_number: true },
      });
      if (!order) throw notFound('Order', orderId);
      if (order.priority === priority) return false;
      // Compare-and-set on the priority read: a concurrent change (another replica, READ COMMITTED)
      // makes this one re-read, so each event's previous_priority is true and a repeat is a no-op.
      const res = await tx.order.updateMany({
        where: { id: order.id, priority: order.priority },
        data: { priority, priority_rank: PRIORITY_RANK[priority] },
      });
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
