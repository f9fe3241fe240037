import type { Db, Prisma } from '../../db/types.js';
import { notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { findLocationNames, findTeamWorkOrder, findWorkOrderPage } from './store.js';

// Work orders as the API shows them, and their list (newest first, keyset-paged) and get.

type Row = Prisma.WorkOrderGetPayload<object>;

export interface ConsumedComponent {
  product_id: string;
  sku: string | null;
  quantity: number;
  parts: {
    location_id: string | null;
    location_name: string | null;
    lot_code: string | null;
    expiration_date: string | null;
    quantity: number;
  }[];
}

export function workOrderView(r: Row, locationName: string | null) {
  return {
    id: r.id,
    product_id: r.product_id,
    sku: r.sku,
    warehouse_id: r.warehouse_id,
    quantity: r.quantity,
    location_id: r.location_id,
    location_name: locationName,
    status: r.status as 'COMPLETED',
    note: r.note,
    components: r.components as unknown as ConsumedComponent[],
    actor_key_id: r.actor_key_id,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export type WorkOrderView = ReturnType<typeof workOrderView>;

export interface WorkOrderQuery extends PageRequest {
  warehouse_id?: string[];
  product_id?: string[];
}

const ORDER = [{ created_at: 'desc' as const }, { id: 'desc' as const }];

async function withNames(db: Db, rows: Row[]) {
  const names = new Map((await findLocationNames(db.prisma, [...new Set(rows.map((r) => r.location_id))])).map((l) => [l.id, l.name]));
  return rows.map((r) => workOrderView(r, names.get(r.location_id) ?? null));
}

export async function listWorkOrders(db: Db, teamId: string, q: WorkOrderQuery) {
  const where: Prisma.WorkOrderWhereInput = { team_id: teamId };
  if (q.warehouse_id) where.warehouse_id = { in: q.warehouse_id };
  if (q.product_id) where.product_id = { in: q.product_id };
  const rows = await findWorkOrderPage(db.prisma, pageArgs(q, where, ORDER));
  const page = toPage(rows, q, undefined, ORDER);
  return { meta: page.meta, data: await withNames(db, page.data) };
}

export async function getWorkOrder(db: Db, teamId: string, id: string) {
  const row = await findTeamWorkOrder(db.prisma, teamId, id);
  if (!row) throw notFound('Work order', id);
  return (await withNames(db, [row]))[0];
}
