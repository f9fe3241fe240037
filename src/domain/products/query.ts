import type { Db, Prisma } from '../../db/types.js';
import { enumList, type PageRequest } from '../pagination.js';
import { searchKey } from '../search.js';
import { PRODUCT_TYPES, type ProductType } from './fields.js';
import { productSearchIds } from './store/list.js';

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

// A blank string counts as "no image" / "no barcode". Written for the planners (same rows as
// `IS NOT NULL AND <> ''` and `IS NULL OR = ''`):
// - "with" is `> ''` (every non-empty text is greater than ''), one range PostgreSQL estimates from
//   its histogram; for the two conditions it multiplied the non-null share by itself (13% for 35%)
//   and read a team's rows in a sequential scan and a sort, not along the list's index (21 -> 5 ms
//   a team for 2,021 rows);
// - "without" is NOT (non-null and non-empty): no index term, so SQLite walks the list's order
//   instead of taking barcode IS NULL OR barcode = '' from the barcode index, which it reckons ~2
//   rows (its statistics average the values: nearly unique) where 15% of a catalogue can match (66
//   ms at 100,000, sorting them all). (NOT (x > '') would drop the nulls.)
const present = (field: 'image_url' | 'barcode', wanted: boolean): Prisma.ProductWhereInput =>
  wanted ? { [field]: { gt: '' } } : { NOT: { AND: [{ [field]: { not: null } }, { [field]: { not: '' } }] } };

/**
 * Filters of the ops list. `matched`: the ids the search index found for q.search (searchMatches). `teams` is the caller's reach; a team_id filter outside it matches
 * nothing. `warehouses` is the caller's warehouses narrowed by warehouse_id (undefined = no filter):
 * only products with a stock level at one of them are listed; `stocked`, when given, are all
 * those products (stockedAt), to look up by id.
 */
export function opsWhere(
  q: OpsListQuery,
  teams: string[],
  warehouses?: string[],
  matched?: string[],
  stocked?: string[],
): Prisma.ProductWhereInput {
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
  if (stocked) and.push({ id: { in: stocked } });
  else if (warehouses) and.push({ inventory: { some: { warehouse_id: { in: warehouses } } } });
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
export async function searchMatches(db: Db, column: 'search_text' | 'name_sku_search_text', search?: string) {
  const term = searchTerm(search);
  return term ? productSearchIds(db, column, term) : undefined;
}
