import type { Db, Prisma } from '../../db/types.js';
import { ftsIds } from '../fts.js';
import { searchKey } from '../search.js';

// The `search` of the order list: an order-number prefix, or a substring of the customer's name or
// email (search_text). Each side is an index lookup on both databases:
//  - PostgreSQL: a pg_trgm GIN index serves search_text LIKE '%term%', a text_pattern_ops index
//    the number prefix (migration order_list_indexes); the query stays Prisma's own.
//  - SQLite: the FTS5 trigram table order_search gives the matching order ids; the prefix is a
//    range on (fulfiller_team_id, order_number_key), which SQLite's case-insensitive LIKE cannot
//    use. A term matching more than FTS_CAP orders (src/domain/fts.ts; a common name) is searched
//    by LIKE along the list's sort index instead, which finds a page of it after a few rows.

/** The highest code point: every string starting with a prefix sorts before prefix + this. */
const AFTER_PREFIX = '\u{10FFFF}';

export async function orderSearch(db: Db, search: string): Promise<Prisma.OrderWhereInput[]> {
  // Columns and term share one encoding (src/domain/search.ts): literal on both databases.
  const term = searchKey(search);
  const numberPrefix = searchKey(search.replace(/^#/, ''));
  if (db.provider !== 'sqlite') {
    return [...(numberPrefix ? [{ order_number_key: { startsWith: numberPrefix } }] : []), { search_text: { contains: term } }];
  }
  const prefix = numberPrefix ? [{ order_number_key: { gte: numberPrefix, lt: numberPrefix + AFTER_PREFIX } }] : [];
  const ids = await ftsIds(db, 'orders.search_text', term);
  if (!ids) return [...prefix, { search_text: { contains: term } }];
  // Only index-backed branches, so SQLite answers with a MULTI-INDEX OR (an empty IN would not be one).
  const branches: Prisma.OrderWhereInput[] = [...prefix, ...(ids.length ? [{ id: { in: ids } }] : [])];
  return branches.length ? branches : [{ id: { in: [] } }];
}
