import { transaction } from '../../db/tx.js';
import type { Db, FulfillmentOrder, Prisma } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { namedFulfillmentOrder } from '../names.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';

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
  const totes = toteIds.length ? await db.prisma.tote.findMany({ where: { id: { in: toteIds } } }) : [];
  const toteName = new Map(totes.map((t) => [t.id, t.name]));
  // Extensions (issue 28): units scanned into the tote so far, who picked, whether a pick came up short.
  const picked = rows.length
    ? await db.prisma.pickScan.groupBy({
        by: ['fulfillment_order_id'],
        where: { fulfillment_order_id: { in: rows.map((r) => r.id) }, short: false },
        _sum: { quantity: true },
      })
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
  const session = await db.prisma.pickingSession.findFirst({ where: { id: sessionId, team_id: teamId } });
  if (!session) throw notFound('Picking session', sessionId);
  return session;
}

/** Sessions with their fulfillment order counts (one groupBy, no N+1). */
async function withCounts<T extends { id: string }>(db: Db, teamId: string, sessions: T[]) {
  if (!sessions.length) return [];
  const counts = await db.prisma.fulfillmentOrder.groupBy({
    by: ['picking_session_id'],
    where: { fulfiller_team_id: teamId, picking_session_id: { in: sessions.map((s) => s.id) } },
    _count: { _all: true },
  });
  const byId = new Map(counts.map((c) => [c.picking_session_id, c._count._all]));
  return sessions.map((s) => ({ ...s, fulfillment_order_count: byId.get(s.id) ?? 0 }));
}

export async function getSession(db: Db, teamId: string, sessionId: string) {
  const [session] = await withCounts(db, teamId, [await sessionOf(db, teamId, sessionId)]);
  return session!;
}

export async function listSessions(db: Db, teamId: string, q: PageRequest & { order?: 'asc' | 'desc' }) {
  const dir = q.order ?? 'desc';
  const orderBy = [{ created_at: dir }, { id: dir }];
  const rows = await db.prisma.pickingSession.findMany(pageArgs(q, { team_id: teamId }, orderBy));
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
    db.prisma.fulfillmentOrder.findMany({
      ...pageArgs(q, where, orderBy),
      include: { order: { select: { order_number: true } } },
    }),
    db.prisma.fulfillmentOrder.count({ where }),
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
    const session = await tx.pickingSession.findFirst({ where: { id: sessionId, team_id: teamId } });
    if (!session) throw notFound('Picking session', sessionId);
    if (input.tote_id && !(await tx.tote.findFirst({ where: { id: input.tote_id, team_id: teamId } }))) {
      throw notFound('Tote', input.tote_id);
    }
    const found = await tx.fulfillmentOrder.findMany({
      where: { id: { in: ids }, fulfiller_team_id: teamId },
      select: { id: true, status: true, picking_session_id: true },
    });
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
    const { count } = await tx.fulfillmentOrder.updateMany({
      where: {
        id: { in: ids },
        fulfiller_team_id: teamId,
        status: { notIn: CLOSED },
        OR: [{ picking_session_id: null }, { picking_session_id: sessionId }],
      },
      data: { picking_session_id: sessionId, ...(input.tote_id ? { tote_id: input.tote_id } : {}) },
    });
    if (count !== ids.length) throw conflict('Some fulfillment orders changed while being assigned; retry.');
  });
  const rows = await db.prisma.fulfillmentOrder.findMany({
    where: { id: { in: ids } },
    include: { order: { select: { order_number: true } } },
  });
  const order = new Map(ids.map((id, i) => [id, i]));
  rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { data: await entries(db, rows) };
}

export function createTote(db: Db, teamId: string, input: { name: string }) {
  return db.prisma.tote.create({ data: { team_id: teamId, name: input.name } });
}

export async function listTotes(db: Db, teamId: string, q: PageRequest) {
  const orderBy = [{ name: 'asc' }, { id: 'asc' }];
  const rows = await db.prisma.tote.findMany(pageArgs(q, { team_id: teamId }, orderBy));
  return toPage(rows, q, undefined, orderBy);
}
