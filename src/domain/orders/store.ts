import type { Db, Prisma } from '../../db/types.js';
import { cappedIds, FTS_CAP, ftsPhrase } from '../fts.js';

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
