import type { Db, Prisma } from '../../db/types.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { today } from '../clock.js';
import {
  findBinIdsNamed,
  findBinStockBins,
  findBinStockPage,
  findBinStockProducts,
  findProductIdsBySku,
  findTeamWarehouses,
} from './store/lists.js';

// GET /v1/ops/inventory/locations: stock by bin and lot at the caller's warehouses (issue 28),
// rows holding units only, in creation order (id, keyset-paged), each with its warehouse's name
// (every warehouse has a DEFAULT bin). `location` matches a bin's id, name or barcode;
// expiring_before keeps lots whose expiration_date is before the given day.

export interface BinStockQuery extends PageRequest {
  product_id?: string[];
  sku?: string;
  warehouse_id?: string[];
  location?: string;
  lot_code?: string;
  expiring_before?: string;
}

const ORDER = [{ id: 'asc' as const }];

export async function listBinStock(db: Db, teamId: string, q: BinStockQuery) {
  const warehouses = await findTeamWarehouses(db.prisma, teamId, q.warehouse_id);
  const where: Prisma.LocationStockWhereInput = { warehouse_id: { in: warehouses.map((w) => w.id) }, on_hand: { gt: 0 } };
  if (q.product_id) where.product_id = { in: q.product_id };
  if (q.sku) {
    const products = await findProductIdsBySku(db.prisma, q.sku);
    where.AND = [{ product_id: { in: products.map((p) => p.id) } }];
  }
  if (q.location) {
    const bins = await findBinIdsNamed(db.prisma, teamId, q.location);
    where.location_id = { in: bins.map((b) => b.id) };
  }
  if (q.lot_code) where.lot_code = q.lot_code;
  if (q.expiring_before) where.expiration_date = { lt: q.expiring_before };
  const rows = await findBinStockPage(db.prisma, pageArgs(q, where, ORDER));
  const page = toPage(rows, q, undefined, ORDER);
  const [products, bins] = await Promise.all([
    findBinStockProducts(db.prisma, [...new Set(page.data.map((r) => r.product_id))]),
    findBinStockBins(db.prisma, [...new Set(page.data.map((r) => r.location_id))]),
  ]);
  const product = new Map(products.map((p) => [p.id, p]));
  const bin = new Map(bins.map((b) => [b.id, b]));
  const warehouseName = new Map(warehouses.map((w) => [w.id, w.name]));
  const day = today();
  return {
    meta: page.meta,
    data: page.data.map((r) => {
      const p = product.get(r.product_id);
      const b = bin.get(r.location_id);
      return {
        id: r.id,
        product_id: r.product_id,
        sku: p?.sku ?? null,
        product_name: p?.name ?? '',
        lot_tracked: p?.lot_tracked === true,
        warehouse_id: r.warehouse_id,
        warehouse_name: warehouseName.get(r.warehouse_id) ?? '',
        location_id: r.location_id,
        location_name: b?.name ?? '',
        location_type: b?.type ?? 'PICKABLE',
        pick_sequence: b?.pick_sequence ?? 0,
        lot_code: r.lot_code || null,
        expiration_date: r.expiration_date,
        expired: r.expiration_date !== null && r.expiration_date < day,
        on_hand: r.on_hand,
        created_at: r.created_at,
        updated_at: r.updated_at,
      };
    }),
  };
}
