import type { Db, Prisma } from '../../db/types.js';
import { notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { warehouseNames } from '../inventory/index.js';
import { purchaseOrderView, type PURCHASE_ORDER_STATUSES } from './view.js';
import { findOrderPage, findScopedOrder } from './store.js';

// Listing and reading purchase orders: a fulfiller sees those of its warehouses, a merchant
// those naming it. Newest first; keyset paging over (created_at, id).

export interface PurchaseOrderQuery extends PageRequest {
  status?: (typeof PURCHASE_ORDER_STATUSES)[number][];
  warehouse_id?: string[];
  merchant_team_id?: string;
  reference?: string;
}

export type Side = 'ops' | 'merchant';
const ORDER = [{ created_at: 'desc' as const }, { id: 'desc' as const }];

const scope = (side: Side, teamId: string): Prisma.PurchaseOrderWhereInput =>
  side === 'ops' ? { team_id: teamId } : { merchant_team_id: teamId };

export async function listPurchaseOrders(db: Db, side: Side, teamId: string, q: PurchaseOrderQuery) {
  const where: Prisma.PurchaseOrderWhereInput = scope(side, teamId);
  if (q.status) where.status = { in: q.status };
  if (q.warehouse_id) where.warehouse_id = { in: q.warehouse_id };
  if (q.merchant_team_id && side === 'ops') where.merchant_team_id = q.merchant_team_id;
  if (q.reference) where.reference = q.reference;
  const rows = await findOrderPage(db.prisma, pageArgs(q, where, ORDER));
  const page = toPage(rows, q, undefined, ORDER);
  const names = await warehouseNames(
    db.prisma,
    page.data.map((p) => p.warehouse_id),
  );
  return { meta: page.meta, data: page.data.map((p) => purchaseOrderView(p, names.get(p.warehouse_id))) };
}

export async function getPurchaseOrder(db: Db, side: Side, teamId: string, id: string) {
  const po = await findScopedOrder(db.prisma, scope(side, teamId), id);
  if (!po) throw notFound('Purchase order', id);
  return purchaseOrderView(po, (await warehouseNames(db.prisma, [po.warehouse_id])).get(po.warehouse_id));
}
