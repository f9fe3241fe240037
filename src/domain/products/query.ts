import type { Db, Prisma } from '../../db/types.js';
import { ftsIds } from '../fts.js';
import { enumList, type PageRequest } from '../pagination.js';
import { searchKey } from '../search.js';
import { PRODUCT_TYPES, type ProductType } from './fields.js';

// List filters of GET /ops/products and GET /merchant/products, as Prisma where/orderBy.

export interface SortQuery {
  order_by?: 'created_at' | 'updated_at';
  order?: 'asc' | 'desc';
}

export interface MerchantListQuery extends PageRequest, SortQuery {
  search?: string;
}

export interface OpsListQuery extends MerchantListQuery {
  type?: string;
  team_id?: string;
  has_image?: boolean;
  has_barcode?: boolean;
  has_remote_products?: boolean;
  was_inspected?: boolean;
  warehouse_id?: string;
}

/** Newest first unless asked otherwise; id breaks ties so pages never overlap. */
export function orderOf(q: SortQuery): Prisma.ProductOrderByWithRelationInput[] {
  const dir = q.order ?? 'desc';
  return [{ [q.order_by ?? 'created_at']: dir }, { id: dir }];
}

/** The search form of a term (see searchKey), or undefined for a blank one. */
export const searchTerm = (search?: string) => (search?.trim() ? searchKey(search.trim()) : undefined);

export function parseTypes(value?: string): ProductType[] | undefined {
  return enumList('query.type', value, PRODUCT_TYPES) as ProductType[] | undefined;
}

// A blank string counts as "no image" / "no barcode".
const present = (field: 'image_url' | 'barcode', wanted: boolean): Prisma.ProductWhereInput =>
  wanted
    ? { AND: [{ [field]: { not: null } }, { [field]: { not: '' } }] }
    : { OR: [{ [field]: null }, { [field]: '' }] };

/**
 * Filters of the ops list. `matched`: the ids the search index found for q.search (searchMatches). `teams` is the caller's reach; a team_id filter outside it matches
 * nothing. `warehouses` is the caller's warehouses narrowed by warehouse_id (undefined = no filter):
 * only products with a stock level at one of them are listed.
 */
export function opsWhere(q: OpsListQuery, teams: string[], warehouses?: string[], matched?: string[]): Prisma.ProductWhereInput {
  const and: Prisma.ProductWhereInput[] = [];
  if (q.team_id) and.push({ team_id: teams.includes(q.team_id) ? q.team_id : { in: [] } });
  else and.push({ team_id: { in: teams } });
  const term = searchTerm(q.search);
  if (term) and.push(matched ? { id: { in: matched } } : { search_text: { contains: term } });
  const types = parseTypes(q.type);
  if (types) and.push({ type: { in: types } });
  if (q.has_image !== undefined) and.push(present('image_url', q.has_image));
  if (q.has_barcode !== undefined) and.push(present('barcode', q.has_barcode));
  if (q.has_remote_products !== undefined) and.push({ variants: q.has_remote_products ? { some: {} } : { none: {} } });
  if (q.was_inspected !== undefined) {
    and.push({ first_article_inspection_completed_at: q.was_inspected ? { not: null } : null });
  }
  if (warehouses) and.push({ inventory: { some: { warehouse_id: { in: warehouses } } } });
  return { AND: and };
}

export function merchantWhere(q: MerchantListQuery, teamId: string, matched?: string[]): Prisma.ProductWhereInput {
  const term = searchTerm(q.search);
  if (!term) return { team_id: teamId };
  return { team_id: teamId, ...(matched ? { id: { in: matched } } : { name_sku_search_text: { contains: term } }) };
}

/**
 * The ids the search index finds for a list's search (SQLite; src/domain/fts.ts), to pass to
 * opsWhere/merchantWhere as `matched`; undefined without a search or when LIKE must do it.
 */
export async function searchMatches(db: Db, column: 'products.search_text' | 'products.name_sku_search_text', search?: string) {
  const term = searchTerm(search);
  return term ? ftsIds(db, column, term) : undefined;
}
