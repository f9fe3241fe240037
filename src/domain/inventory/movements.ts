import type { Db, Prisma } from '../../db/types.js';
import { invalid } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import type { MovementKind } from './ledger.js';
import { findMovementPage, findTeamWarehouses } from './store/lists.js';

// GET /v1/ops/inventory/movements: the ledger of the caller's warehouses, newest first. Rows are
// immutable, so keyset paging over (created_at, id) is exact however the ledger grows.

export interface MovementQuery extends PageRequest {
  product_id?: string[];
  sku?: string;
  warehouse_id?: string[];
  kind?: MovementKind[];
  reference_id?: string;
  location_id?: string;
  work_order_id?: string;
  created_at_min?: string;
  created_at_max?: string;
}

const ORDER = [{ created_at: 'desc' as const }, { id: 'desc' as const }];

export async function listMovements(db: Db, teamId: string, q: MovementQuery) {
  const warehouses = await findTeamWarehouses(db.prisma, teamId, q.warehouse_id);
  const where: Prisma.InventoryMovementWhereInput = { warehouse_id: { in: warehouses.map((w) => w.id) } };
  if (q.product_id) where.product_id = { in: q.product_id };
  if (q.sku) where.sku = q.sku;
  if (q.kind) where.kind = { in: q.kind };
  if (q.reference_id) where.reference_id = q.reference_id;
  if (q.location_id) where.location_id = q.location_id;
  if (q.work_order_id) where.work_order_id = q.work_order_id;
  const min = q.created_at_min ? new Date(q.created_at_min) : undefined;
  const max = q.created_at_max ? new Date(q.created_at_max) : undefined;
  if (min && max && min > max) throw invalid('query.created_at_min', 'must not be after created_at_max');
  if (min || max) where.created_at = { ...(min ? { gte: min } : {}), ...(max ? { lte: max } : {}) };
  const rows = await findMovementPage(db.prisma, pageArgs(q, where, ORDER));
  const page = toPage(rows, q, undefined, ORDER);
  // Each movement's warehouse named (the ledger of several warehouses in one list).
  const names = new Map(warehouses.map((w) => [w.id, w.name]));
  return { meta: page.meta, data: page.data.map((m) => ({ ...m, warehouse_name: names.get(m.warehouse_id) ?? '' })) };
}
