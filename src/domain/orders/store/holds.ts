import type { Db, Prisma, TxClient } from '../../../db/types.js';
import { ALLOCATABLE_STATUSES } from '../../../contract/orders-enums.js';

// The fulfillment holds' reads and writes (holds.ts, hold-actions.ts) and the order reads and
// compare-and-sets around them. When a hold may be placed, released or lifted stays in those files.

type Client = Db['prisma'] | TxClient;

export function insertHold(tx: TxClient, data: Prisma.OrderFulfillmentHoldUncheckedCreateInput) {
  return tx.orderFulfillmentHold.create({ data });
}

/** The order's oldest active hold. */
export function findFirstActiveHold(tx: TxClient, orderId: string) {
  return tx.orderFulfillmentHold.findFirst({
    where: { order_id: orderId, active: true },
    orderBy: { created_at: 'asc' },
  });
}

export function findOrderNumber(tx: TxClient, orderId: string) {
  return tx.order.findUnique({ where: { id: orderId }, select: { order_number: true } });
}

export function findOrderNumberOrThrow(tx: TxClient, orderId: string) {
  return tx.order.findUniqueOrThrow({ where: { id: orderId }, select: { order_number: true } });
}

/** Sets the team's order PAID while its payment is PENDING (compare-and-set); the count. */
export async function markPendingOrderPaid(tx: TxClient, teamId: string, orderId: string): Promise<number> {
  const res = await tx.order.updateMany({
    where: { id: orderId, fulfiller_team_id: teamId, payment_status: 'PENDING' },
    data: { payment_status: 'PAID', total_outstanding: 0 },
  });
  return res.count;
}

export function findTeamOrder(tx: TxClient, teamId: string, orderId: string) {
  return tx.order.findFirst({ where: { id: orderId, fulfiller_team_id: teamId } });
}

/** Deactivates the order's active AWAITING_PAYMENT holds. */
export function releasePaymentHolds(tx: TxClient, orderId: string) {
  return tx.orderFulfillmentHold.updateMany({
    where: { order_id: orderId, active: true, reason: 'AWAITING_PAYMENT' },
    data: { active: false },
  });
}

/** Writes the team's order's updated_at while it is open (a write: the order's row is held); the count. */
export async function touchOpenOrder(tx: TxClient, teamId: string, orderId: string, now: Date): Promise<number> {
  const { count } = await tx.order.updateMany({
    where: { id: orderId, fulfiller_team_id: teamId, status: { in: ALLOCATABLE_STATUSES as never } },
    data: { updated_at: now },
  });
  return count;
}

export function findTeamOrderState(tx: TxClient, teamId: string, orderId: string) {
  return tx.order.findFirst({
    where: { id: orderId, fulfiller_team_id: teamId },
    select: { order_number: true, status: true },
  });
}

/** Deactivates the team's order's hold while it is active and not AWAITING_PAYMENT (compare-and-set); the count. */
export async function releaseHold(tx: TxClient, teamId: string, orderId: string, holdId: string): Promise<number> {
  const { count } = await tx.orderFulfillmentHold.updateMany({
    where: { id: holdId, order_id: orderId, active: true, reason: { not: 'AWAITING_PAYMENT' }, order: { fulfiller_team_id: teamId } },
    data: { active: false },
  });
  return count;
}

export function findTeamOrderHold(tx: TxClient, teamId: string, orderId: string, holdId: string) {
  return tx.orderFulfillmentHold.findFirst({ where: { id: holdId, order_id: orderId, order: { fulfiller_team_id: teamId } } });
}

export function countActiveHolds(tx: TxClient, orderId: string) {
  return tx.orderFulfillmentHold.count({ where: { order_id: orderId, active: true } });
}

export function findTeamOrderId(client: Client, teamId: string, orderId: string) {
  return client.order.findFirst({ where: { id: orderId, fulfiller_team_id: teamId }, select: { id: true } });
}

/** The order's holds, oldest first. */
export function findOrderHolds(client: Client, orderId: string) {
  return client.orderFulfillmentHold.findMany({
    where: { order_id: orderId },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
}

/** The order of the team's package (through its fulfillment order). */
export function findPackageOrder(client: Client, teamId: string, packageId: string) {
  return client.package.findFirst({
    where: { id: packageId, fulfiller_team_id: teamId },
    select: { fulfillment_order: { select: { order_id: true } } },
  });
}
