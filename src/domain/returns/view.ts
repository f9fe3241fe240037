import type { Db, Prisma } from '../../db/types.js';
import { notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { findReturnPage, findTeamReturn } from './store.js';

// What return answers show, and the list and get of the caller's returns (newest first).

type Row = Prisma.ReturnGetPayload<{ include: { lines: true } }>;

export function returnView(r: Row) {
  const lines = [...r.lines]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((l) => ({
      id: l.id,
      order_line_item_id: l.order_line_item_id,
      product_id: l.product_id,
      sku: l.sku,
      quantity: l.quantity,
      quantity_received: l.quantity_received,
      quantity_restocked: l.quantity_restocked,
      quantity_damaged: l.quantity_damaged,
      reason: l.reason,
    }));
  return {
    id: r.id,
    status: r.status,
    order_id: r.order_id,
    fulfiller_team_id: r.team_id,
    merchant_team_id: r.merchant_team_id,
    fulfillment_delegation_id: r.fulfillment_delegation_id,
    warehouse_id: r.warehouse_id,
    reference: r.reference,
    note: r.note,
    created_by_key_id: r.created_by_key_id,
    received_at: r.received_at,
    cancelled_at: r.cancelled_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
    lines,
  };
}

export interface ReturnQuery extends PageRequest {
  status?: string[];
  order_id?: string;
}

const ORDER = [{ created_at: 'desc' as const }, { id: 'desc' as const }];

export async function listReturns(db: Db, teamId: string, q: ReturnQuery) {
  const where: Prisma.ReturnWhereInput = { team_id: teamId };
  if (q.status) where.status = { in: q.status as never };
  if (q.order_id) where.order_id = q.order_id;
  const rows = await findReturnPage(db.prisma, pageArgs(q, where, ORDER));
  const page = toPage(rows, q, undefined, ORDER);
  return { meta: page.meta, data: page.data.map(returnView) };
}

export async function getReturn(db: Db, teamId: string, id: string) {
  const r = await findTeamReturn(db.prisma, teamId, id);
  if (!r) throw notFound('Return', id);
  return returnView(r);
}
