import type { Prisma, TxClient } from '../../../db/types.js';
import type { Client } from './sql.js';

// The picking sessions' Prisma reads and writes (issue 38 item 4): sessions, totes, the
// fulfillment orders a session holds (assignment's compare-and-set, a wave's candidates) and what
// the entries show. The rules (what may join, the wave's filters) stay in picking.ts and waves.ts.

export function findTeamSession(client: Client, teamId: string, id: string) {
  return client.pickingSession.findFirst({ where: { id, team_id: teamId } });
}

export function findSessionOrThrow(client: Client, id: string) {
  return client.pickingSession.findUniqueOrThrow({ where: { id } });
}

/** One page of sessions (pageArgs' window). */
export function findSessionPage(
  client: Client,
  window: { where: Prisma.PickingSessionWhereInput; orderBy: never; skip: number; take: number },
) {
  return client.pickingSession.findMany(window);
}

export function insertSession(tx: TxClient, teamId: string, name: string) {
  return tx.pickingSession.create({ data: { team_id: teamId, name } });
}

/** The team's fulfillment orders per session, counted. */
export function countSessionOrders(client: Client, teamId: string, sessionIds: string[]) {
  return client.fulfillmentOrder.groupBy({
    by: ['picking_session_id'],
    where: { fulfiller_team_id: teamId, picking_session_id: { in: sessionIds } },
    _count: { _all: true },
  });
}

export function countOrdersInSession(client: Client, teamId: string, sessionId: string) {
  return client.fulfillmentOrder.count({ where: { picking_session_id: sessionId, fulfiller_team_id: teamId } });
}

// Totes.

export function insertTote(client: Client, teamId: string, name: string) {
  return client.tote.create({ data: { team_id: teamId, name } });
}

export function findTotesIn(client: Client, ids: string[]) {
  return client.tote.findMany({ where: { id: { in: ids } } });
}

export function findTeamTote(client: Client, teamId: string, id: string) {
  return client.tote.findFirst({ where: { id, team_id: teamId } });
}

/** One page of totes (pageArgs' window). */
export function findTotePage(client: Client, window: { where: Prisma.ToteWhereInput; orderBy: never; skip: number; take: number }) {
  return client.tote.findMany(window);
}

export function setOrderTote(tx: TxClient, foId: string, toteId: string) {
  return tx.fulfillmentOrder.update({ where: { id: foId }, data: { tote_id: toteId } });
}

// Fulfillment orders of sessions.

/** Picked (not short) units per fulfillment order. */
export function sumPickedUnits(client: Client, foIds: string[]) {
  return client.pickScan.groupBy({
    by: ['fulfillment_order_id'],
    where: { fulfillment_order_id: { in: foIds }, short: false },
    _sum: { quantity: true },
  });
}

/** One page of a session's fulfillment orders (pageArgs' window) with their order numbers. */
export function findSessionOrderPage(
  client: Client,
  window: { where: Prisma.FulfillmentOrderWhereInput; orderBy: never; skip: number; take: number },
) {
  return client.fulfillmentOrder.findMany({ ...window, include: { order: { select: { order_number: true } } } });
}

export function countOrders(client: Client, where: Prisma.FulfillmentOrderWhereInput) {
  return client.fulfillmentOrder.count({ where });
}

/** These fulfillment orders with their order numbers. */
export function findOrdersWithNumbers(client: Client, ids: string[]) {
  return client.fulfillmentOrder.findMany({ where: { id: { in: ids } }, include: { order: { select: { order_number: true } } } });
}

/** The team's fulfillment orders among these ids: status and session. */
export function findOrderStates(tx: TxClient, teamId: string, ids: string[]) {
  return tx.fulfillmentOrder.findMany({
    where: { id: { in: ids }, fulfiller_team_id: teamId },
    select: { id: true, status: true, picking_session_id: true },
  });
}

export function findTeamOrder(tx: TxClient, teamId: string, id: string) {
  return tx.fulfillmentOrder.findFirst({ where: { id, fulfiller_team_id: teamId } });
}

/**
 * Compare-and-set: the team's fulfillment orders join the session (and the tote, when given)
 * where not in `closed` and in no other session; the count that joined.
 */
export function assignToSession(tx: TxClient, teamId: string, sessionId: string, ids: string[], closed: string[], toteId?: string) {
  return tx.fulfillmentOrder.updateMany({
    where: {
      id: { in: ids },
      fulfiller_team_id: teamId,
      status: { notIn: closed as never },
      OR: [{ picking_session_id: null }, { picking_session_id: sessionId }],
    },
    data: { picking_session_id: sessionId, ...(toteId ? { tote_id: toteId } : {}) },
  });
}

/**
 * A wave's candidates, best first (priority, then oldest): the warehouse's ACCEPTED, unlocked
 * fulfillment orders in no session (of the shipping method, when given), up to `take`.
 */
export function findWaveCandidates(
  tx: TxClient,
  teamId: string,
  warehouseId: string,
  shippingMethod: string | undefined,
  now: Date,
  take: number,
) {
  return tx.fulfillmentOrder.findMany({
    where: {
      fulfiller_team_id: teamId,
      warehouse_id: warehouseId,
      status: 'ACCEPTED',
      picking_session_id: null,
      OR: [{ lock_owner: null }, { lock_expires_at: null }, { lock_expires_at: { lte: now } }],
      ...(shippingMethod ? { order: { shipping_method: shippingMethod } } : {}),
    },
    orderBy: [{ order: { priority_rank: 'desc' } }, { created_at: 'asc' }, { id: 'asc' }],
    take,
    select: {
      id: true,
      order: { select: { carrier_selection: true } },
      line_items: { select: { remaining_quantity: true } },
    },
  });
}

export function teamWarehouseExists(tx: TxClient, teamId: string, id: string) {
  return tx.warehouse.findFirst({ where: { id, team_id: teamId }, select: { id: true } });
}
