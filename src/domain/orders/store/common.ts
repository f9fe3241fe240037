import type { Db, Prisma, TxClient } from '../../../db/types.js';
import { readsOf } from '../../../db/reads.js';
import { placeholders } from '../../../db/dialect.js';
import { lockInOrder, statementsOf } from '../../../db/statements.js';
import { cappedIds, FTS_CAP, ftsPhrase } from '../../fts.js';

// The orders' statements and provider differences (issue 24, item 1).

/** The highest code point: every string starting with a prefix sorts before prefix + this. */
const AFTER_PREFIX = '\u{10FFFF}';

const SEARCH = 'SELECT s.order_id AS id FROM order_search f JOIN order_search_ids s ON s.id = f.rowid WHERE order_search MATCH ? LIMIT ?';

/**
 * The OR branches of the order list's search for `term` and the order-number prefix `numberPrefix`
 * (both searchKeys; see search.ts), each an index lookup:
 *  - PostgreSQL: a pg_trgm GIN index serves search_text LIKE '%term%', a text_pattern_ops index
 *    the number prefix (migration order_list_indexes); the query stays Prisma's own.
 *  - SQLite: the FTS5 trigram table order_search gives the matching order ids; the prefix is a
 *    range on (fulfiller_team_id, order_number_key), which SQLite's case-insensitive LIKE cannot
 *    use. A term matching more than FTS_CAP orders (src/domain/fts.ts; a common name) is searched
 *    by LIKE along the list's sort index instead, which finds a page of it after a few rows.
 */
export async function orderSearchBranches(db: Db, term: string, numberPrefix: string): Promise<Prisma.OrderWhereInput[]> {
  if (db.provider !== 'sqlite') {
    return [...(numberPrefix ? [{ order_number_key: { startsWith: numberPrefix } }] : []), { search_text: { contains: term } }];
  }
  const prefix = numberPrefix ? [{ order_number_key: { gte: numberPrefix, lt: numberPrefix + AFTER_PREFIX } }] : [];
  const phrase = ftsPhrase(db, 'text', term);
  const ids = phrase ? cappedIds(await db.prisma.$queryRawUnsafe<{ id: string }[]>(SEARCH, phrase, FTS_CAP + 1)) : undefined;
  if (!ids) return [...prefix, { search_text: { contains: term } }];
  // Only index-backed branches, so SQLite answers with a MULTI-INDEX OR (an empty IN would not be one).
  const branches: Prisma.OrderWhereInput[] = [...prefix, ...(ids.length ? [{ id: { in: ids } }] : [])];
  return branches.length ? branches : [{ id: { in: [] } }];
}

/** A page of the order list read through the driver (orderListPage): ORDER_LIST_SELECT's columns with the names the item shows. */
export interface OrderPageRow {
  id: string;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  cancelled_at: string | null;
  merchant_team_id: string;
  fulfiller_team_id: string;
  shop_id: string | null;
  merchant_team_name: string | null;
  shop_name: string | null;
  shop_type: string | null;
  fulfillment_status: string;
  payment_status: string;
  priority: string;
  order_number: string;
  currency: string;
  note: string | null;
  shipping_method: string | null;
  /** JSON text (SQLite). */
  tags: string;
  total_price: number;
  customer_email: string | null;
  customer_name: string | null;
  customer_phone: string | null;
  shipping_address: string | null;
  address_verified: number;
  address_residential: string;
  core_line_item_count: number;
  unique_core_line_item_count: number;
  fulfillment_count: number;
  line_item_image_urls: string;
  status: string;
}

export interface OrderPageQuery {
  teamId: string;
  status?: string[];
  payment?: string[];
  fulfillment?: string[];
  created?: { gte?: Date; lte?: Date };
  updated?: { gte?: Date; lte?: Date };
  key: 'created_at' | 'updated_at';
  dir: 'asc' | 'desc';
  /** The cursor's (key, id): rows strictly after them. */
  after?: [Date, string];
  skip: number;
  take: number;
}

const PAGE_COLUMNS = `o.id, o.created_at, o.updated_at, o.closed_at, o.cancelled_at, o.merchant_team_id, o.fulfiller_team_id, o.shop_id,
  mt.name AS merchant_team_name, s.name AS shop_name, s.shop_type, o.fulfillment_status, o.payment_status, o.priority, o.order_number,
  o.currency, o.note, o.shipping_method, o.tags, o.total_price, o.customer_email, o.customer_name, o.customer_phone, o.shipping_address,
  o.address_verified, o.address_residential, o.core_line_item_count, o.unique_core_line_item_count, o.fulfillment_count,
  o.line_item_image_urls, o.status`;

/**
 * A page of the order list sorted by created_at or updated_at, with enum and date filters, as one
 * prepared statement through the driver (src/db/reads.ts): the page with its merchant team and
 * shop names, rows as plain objects (dates as the stored ISO text, JSON as text). Each filter and
 * sort is the same index walk as Prisma's query of it (the indexes (team, <sort>, id) and (team,
 * <status>, created_at, id)). SQLite only: undefined on PostgreSQL, where the list stays Prisma's.
 */
export async function orderListPage(db: Db, q: OrderPageQuery): Promise<OrderPageRow[] | undefined> {
  if (db.provider !== 'sqlite') return undefined;
  const args: unknown[] = [q.teamId];
  const where = ['o.fulfiller_team_id = ?'];
  const anyOf = (column: string, values?: string[]) => {
    if (!values) return;
    where.push(`o.${column} IN (${values.map(() => '?').join(', ')})`);
    args.push(...values);
  };
  anyOf('status', q.status);
  anyOf('payment_status', q.payment);
  anyOf('fulfillment_status', q.fulfillment);
  for (const [column, range] of [['created_at', q.created] as const, ['updated_at', q.updated] as const]) {
    if (range?.gte) {
      where.push(`o.${column} >= ?`);
      args.push(range.gte);
    }
    if (range?.lte) {
      where.push(`o.${column} <= ?`);
      args.push(range.lte);
    }
  }
  const [cmp, dir] = q.dir === 'asc' ? ['>', 'ASC'] : ['<', 'DESC'];
  if (q.after) {
    // As afterCursor: the non-strict bound on the key is for the planner (an index range).
    const [v, id] = q.after;
    where.push(`o.${q.key} ${cmp}= ? AND (o.${q.key} ${cmp} ? OR (o.${q.key} = ? AND o.id ${cmp} ?))`);
    args.push(v, v, v, id);
  }
  args.push(q.take, q.skip);
  const sql = `SELECT ${PAGE_COLUMNS} FROM orders o LEFT JOIN teams mt ON mt.id = o.merchant_team_id LEFT JOIN shops s ON s.id = o.shop_id
WHERE ${where.join(' AND ')} ORDER BY o.${q.key} ${dir}, o.id ${dir} LIMIT ? OFFSET ?`;
  return readsOf(db).all<OrderPageRow>(sql, args);
}

/**
 * The savepoint around an order number's write (numbers.ts): set it, release it, or roll back to
 * it after a unique violation, so only that step is retried. The same SQL on both databases.
 */
export async function savepoint(tx: TxClient, step: 'SAVEPOINT' | 'RELEASE SAVEPOINT' | 'ROLLBACK TO SAVEPOINT'): Promise<void> {
  await tx.$executeRawUnsafe(`${step} order_number`);
}

/** PostgreSQL: the row locks of the order's open fulfillment orders, in id order (a cancel of the order takes them all). */
export async function lockOpenFulfillmentOrders(tx: TxClient, orderId: string, open: readonly string[]): Promise<void> {
  await lockInOrder(statementsOf(tx), 'fulfillment_orders', `"order_id" = ? AND "status" IN (${placeholders(open.length)})`, [
    orderId,
    ...open,
  ]);
}

/** PostgreSQL: the row locks of these order lines, in id order, before they are changed one by one. */
export async function lockOrderLines(tx: TxClient, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length) await lockInOrder(statementsOf(tx), 'order_line_items', `"id" IN (${placeholders(unique.length)})`, unique);
}
