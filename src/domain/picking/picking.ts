import { transaction } from '../../db/tx.js';
import type { Db, FulfillmentOrder, Prisma } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { namedFulfillmentOrder } from '../names/index.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import * as sessions from './store/sessions.js';

// Picking sessions group fulfillment orders that a picker collects in one walk, each into a
// tote (spec 2.10, 4.9). An entry's status is the picking view of its fulfillment order:
// FULFILLED once fulfilled, CANCELLED if cancelled, otherwise PENDING (work remains).

const CLOSED = ['FULFILLED', 'CANCELLED'];

export type EntryStatus = 'PENDING' | 'FULFILLED' | 'CANCELLED';
const entryStatus = (foStatus: string): EntryStatus =>
  foStatus === 'FULFILLED' ? 'FULFILLED' : foStatus === 'CANCELLED' ? 'CANCELLED' : 'PENDING';

type FoWithOrder = FulfillmentOrder & { order: { order_number: string } };

/** Spec 2.10 entries; tote names come from one `in` query. */
async function entries(db: Db, rows: FoWithOrder[]) {
  const toteIds = [...new Set(rows.map((r) => r.tote_id).filter((id): id is string => Boolean(id)))];
  const totes = toteIds.length ? await sessions.findTotesIn(db.prisma, toteIds) : [];
  const toteName = new Map(totes.map((t) => [t.id, t.name]));
  // Extensions (issue 28): units scanned into the tote so far, who picked, whether a pick came up short.
  const picked = rows.length
    ? await sessions.sumPickedUnits(
        db.prisma,
        rows.map((r) => r.id),
      )
    : [];
  const pickedOf = new Map(picked.map((p) => [p.fulfillment_order_id, p._sum.quantity ?? 0]));
  return rows.map((r) => ({
    fulfillment_order_id: r.id,
    picking_session_id: r.picking_session_id!,
    order_number: r.order.order_number,
    status: entryStatus(r.status),
    tote_id: r.tote_id,
    tote_name: r.tote_id ? (toteName.get(r.tote_id) ?? null) : null,
    packing_started_at: r.packing_started_at,
    packing_completed_at: r.packing_completed_at,
    packed_by_user_id: r.packed_by_user_id,
    packed_by_user_name: r.packed_by_user_name,
    picked_by_user_id: r.picked_by_user_id,
    picked_by_user_name: r.picked_by_user_name,
    picked_quantity: pickedOf.get(r.id) ?? 0,
    short_picked: r.short_picked,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

async function sessionOf(db: Db, teamId: string, sessionId: string) {
  const session = await sessions.findTeamSession(db.prisma, teamId, sessionId);
  if (!session) throw notFound('Picking session', sessionId);
  return session;
}

/** Sessions with their fulfillment order counts (one groupBy, no N+1). */
async function withCounts<T extends { id: string }>(db: Db, teamId: string, list: T[]) {
  if (!list.length) return [];
  const counts = await sessions.countSessionOrders(
    db.prisma,
    teamId,
    list.map((s) => s.id),
  );
  const byId = new Map(counts.map((c) => [c.picking_session_id, c._count._all]));
  return list.map((s) => ({ ...s, fulfillment_order_count: byId.get(s.id) ?? 0 }));
}

export async function getSession(db: Db, teamId: string, sessionId: string) {
  const [session] = await withCounts(db, teamId, [await sessionOf(db, teamId, sessionId)]);
  return session!;
}

export async function listSessions(db: Db, teamId: string, q: PageRequest & { order?: 'asc' | 'desc' }) {
  const dir = q.order ?? 'desc';
  const orderBy = [{ created_at: dir }, { id: dir }];
  const rows = await sessions.findSessionPage(db.prisma, pageArgs(q, { team_id: teamId }, orderBy));
  const page = toPage(rows, q, undefined, orderBy);
  return { data: await withCounts(db, teamId, page.data), meta: page.meta };
}

export interface SessionFoQuery extends PageRequest {
  status?: 'PENDING' | 'FULFILLED';
  order_by?: 'order_number' | 'created_at' | 'updated_at';
  order?: 'asc' | 'desc';
}

export async function listSessionFulfillmentOrders(db: Db, teamId: string, sessionId: string, q: SessionFoQuery) {
  await sessionOf(db, teamId, sessionId);
  const where: Prisma.FulfillmentOrderWhereInput = { picking_session_id: sessionId, fulfiller_team_id: teamId };
  if (q.status === 'FULFILLED') where.status = 'FULFILLED';
  if (q.status === 'PENDING') where.status = { notIn: CLOSED };
  const dir = q.order ?? 'asc';
  const by = q.order_by ?? 'order_number';
  const orderBy: Prisma.FulfillmentOrderOrderByWithRelationInput[] =
    by === 'order_number' ? [{ order: { order_number: dir } }, { id: dir }] : [{ [by]: dir }, { id: dir }];
  const [rows, total] = await Promise.all([
    sessions.findSessionOrderPage(db.prisma, pageArgs(q, where, orderBy)),
    sessions.countOrders(db.prisma, where),
  ]);
  const page = toPage(rows, q, total, orderBy);
  return { data: await entries(db, page.data), meta: page.meta };
}

/**
 * Puts fulfillment orders of the team into the session (and a tote, when given). An order already
 * in another session, fulfilled or cancelled is refused (409); re-adding to the same session is a
 * no-op apart from the tote. All or nothing.
 */
export async function assignFulfillmentOrders(
  db: Db,
  teamId: string,
  sessionId: string,
  input: { fulfillment_order_ids: string[]; tote_id?: string },
) {
  const ids = [...new Set(input.fulfillment_order_ids)];
  await transaction(db, async (tx) => {
    const session = await sessions.findTeamSession(tx, teamId, sessionId);
    if (!session) throw notFound('Picking session', sessionId);
    if (input.tote_id && !(await sessions.findTeamTote(tx, teamId, input.tote_id))) {
      throw notFound('Tote', input.tote_id);
    }
    const found = await sessions.findOrderStates(tx, teamId, ids);
    const byId = new Map(found.map((f) => [f.id, f]));
    for (const id of ids) {
      const fo = byId.get(id);
      if (!fo) throw notFound('Fulfillment order', id);
      const refused = CLOSED.includes(fo.status) || (fo.picking_session_id && fo.picking_session_id !== sessionId);
      const named = refused ? await namedFulfillmentOrder(tx, id) : '';
      if (CLOSED.includes(fo.status)) throw conflict(`${named} is ${fo.status} and cannot be picked.`);
      if (fo.picking_session_id && fo.picking_session_id !== sessionId) {
        throw conflict(`${named} is already in picking session ${fo.picking_session_id}.`);
      }
    }
    // Compare-and-set: a concurrent fulfill or assignment to another session makes the count short.
    const { count } = await sessions.assignToSession(tx, teamId, sessionId, ids, CLOSED, input.tote_id);
    if (count !== ids.length) throw conflict('Some fulfillment orders changed while being assigned; retry.');
  });
  const rows = await sessions.findOrdersWithNumbers(db.prisma, ids);
  const order = new Map(ids.map((id, i) => [id, i]));
  rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { data: await entries(db, rows) };
}

export function createTote(db: Db, teamId: string, input: { name: string }) {
  return sessions.insertTote(db.prisma, teamId, input.name);
}

export async function listTotes(db: Db, teamId: string, q: PageRequest) {
  const orderBy = [{ name: 'asc' }, { id: 'asc' }];
  const rows = await sessions.findTotePage(db.prisma, pageArgs(q, { team_id: teamId }, orderBy));
  return toPage(rows, q, undefined, orderBy);
}
