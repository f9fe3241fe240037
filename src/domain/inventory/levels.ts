import type { Db, Prisma, TxClient } from '../../db/types.js';
import { pageArgs, toPage, type Page, type PageRequest } from '../pagination.js';
import { afterCursor } from '../keyset.js';
import { levelFigures, type LevelFigures } from './figures.js';
import { levelIdsBelowMinimum } from './store/levels.js';
import { findLevelPage, findLevelsWithProduct, findTeamWarehouses, type LevelWithProduct } from './store/lists.js';

// GET /v1/ops/inventory: the levels (product x warehouse) at the caller's warehouses, in creation
// order (id). Reordering uses the inventory position, available + on_order, so stock already on
// a purchase order is not ordered twice:
//   below_minimum     position < product.minimum_level
//   reorder_quantity  what fills the position up to product.maximum_level (at least the shortfall
//                     to minimum_level when no maximum is set), rounded up to increment_level;
//                     0 when nothing is needed, null when the product has neither level.

export interface LevelQuery extends PageRequest {
  product_id?: string[];
  sku?: string;
  warehouse_id?: string[];
  below_minimum?: boolean;
}

export interface LevelView extends LevelFigures {
  id: string;
  product_id: string;
  sku: string | null;
  product_name: string;
  product_team_id: string;
  warehouse_id: string;
  warehouse_name: string;
  minimum_level: number | null;
  maximum_level: number | null;
  increment_level: number | null;
  below_minimum: boolean;
  reorder_quantity: number | null;
  created_at: Date;
  updated_at: Date;
}

const ORDER = [{ id: 'asc' as const }];

export function reorderQuantity(position: number, min: number | null, max: number | null, increment: number | null): number | null {
  if (min === null && max === null) return null;
  const target = max ?? min!;
  if (min !== null ? position >= min : position >= target) return 0;
  let need = Math.max(0, target - position);
  if (increment && increment > 0) need = Math.ceil(need / increment) * increment;
  return Math.ceil(need);
}

export async function listLevels(db: Db, teamId: string, q: LevelQuery): Promise<Page<LevelView>> {
  const warehouses = await findTeamWarehouses(db.prisma, teamId, q.warehouse_id);
  const names = new Map(warehouses.map((w) => [w.id, w.name]));
  if (!warehouses.length) return toPage([], q, undefined, ORDER);
  const where: Prisma.InventoryLevelWhereInput = { warehouse_id: { in: [...names.keys()] } };
  if (q.product_id) where.product_id = { in: q.product_id };
  if (q.sku) where.product = { sku: q.sku };
  let rows;
  if (q.below_minimum) {
    // A comparison across the level and its product: Prisma's filters cannot say it, SQL can.
    const ids = await belowMinimumIds(db, [...names.keys()], q);
    rows = await findLevelsWithProduct(db.prisma, ids, ORDER);
  } else {
    rows = await findLevelPage(db.prisma, pageArgs(q, where, ORDER));
  }
  const page = toPage(rows, q, undefined, ORDER);
  return { meta: page.meta, data: page.data.map((l) => levelView(l, names.get(l.warehouse_id)!)) };
}

async function belowMinimumIds(db: Db, warehouseIds: string[], q: LevelQuery): Promise<string[]> {
  const after = q.cursor ? ((afterCursor(q.cursor, ORDER) as { OR: { id: { gt: string } }[] }).OR[0]?.id.gt ?? '') : null;
  return levelIdsBelowMinimum(db.prisma as unknown as TxClient, warehouseIds, {
    product_id: q.product_id,
    sku: q.sku,
    after,
    limit: q.limit + 1,
    offset: q.cursor ? 0 : q.page * q.limit,
  });
}

export function levelView(l: LevelWithProduct, warehouseName: string): LevelView {
  const figures = levelFigures(l);
  const position = figures.available + l.on_order;
  const { minimum_level: min, maximum_level: max, increment_level: inc } = l.product;
  return {
    id: l.id,
    product_id: l.product_id,
    sku: l.product.sku,
    product_name: l.product.name,
    product_team_id: l.product.team_id,
    warehouse_id: l.warehouse_id,
    warehouse_name: warehouseName,
    ...figures,
    minimum_level: min,
    maximum_level: max,
    increment_level: inc,
    below_minimum: min !== null && position < min,
    reorder_quantity: reorderQuantity(position, min, max, inc),
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}
