import { dialectOf } from '../db/dialect.js';
import type { Db } from '../db/types.js';

// SQLite's trigram search indexes (FTS5 tables kept by triggers; migrations order_list_indexes,
// product_search and record_list_indexes): the ids of the rows whose indexed text contains a
// term, as an index lookup instead of a LIKE scan. PostgreSQL serves the same LIKE from pg_trgm
// GIN indexes instead. The statements live in the areas' stores (orders, products, files); this
// module says when to ask them and what their answer means.

/** When more rows match, LIKE along the list's sort index finds a page sooner than an IN of them all. */
export const FTS_CAP = 2000;

/**
 * The MATCH argument for `term` (a searchKey) in the FTS column `column`: a phrase of the whole
 * term limited to the column, which the trigram tokenizer matches as a substring. Undefined when
 * the database has no trigram tables or the term is shorter than 3 characters (trigrams need
 * three): then search with LIKE.
 */
export function ftsPhrase(db: Db, column: string, term: string): string | undefined {
  if (!dialectOf(db.provider).trigramTables || [...term].length < 3) return undefined;
  return `${column} : "${term.replaceAll('"', '""')}"`;
}

/** The ids a store's FTS statement found (it reads FTS_CAP + 1), or undefined when more than FTS_CAP matched. */
export const cappedIds = (rows: { id: string }[]): string[] | undefined => (rows.length > FTS_CAP ? undefined : rows.map((r) => r.id));
