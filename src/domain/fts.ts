import type { Db } from '../db/types.js';

// SQLite's trigram search indexes (FTS5 tables kept by triggers; migrations order_list_indexes,
// product_search and record_list_indexes): the ids of the rows whose indexed text contains a
// term, as an index lookup instead of a LIKE scan. PostgreSQL serves the same LIKE from pg_trgm
// GIN indexes instead.

/** When more rows match, LIKE along the list's sort index finds a page sooner than an IN of them all. */
export const FTS_CAP = 2000;

// Fixed statements per indexed column (table and column names cannot be parameters), and the FTS
// column holding it.
const ORDERS = 'SELECT s.order_id AS id FROM order_search f JOIN order_search_ids s ON s.id = f.rowid WHERE order_search MATCH ? LIMIT ?';
const PRODUCTS =
  'SELECT s.product_id AS id FROM product_search f JOIN product_search_ids s ON s.id = f.rowid WHERE product_search MATCH ? LIMIT ?';
const FILES = 'SELECT s.file_id AS id FROM file_search f JOIN file_search_ids s ON s.id = f.rowid WHERE file_search MATCH ? LIMIT ?';
const STATEMENTS = {
  'orders.search_text': { sql: ORDERS, fts: 'text' },
  'products.search_text': { sql: PRODUCTS, fts: 'search_text' },
  'products.name_sku_search_text': { sql: PRODUCTS, fts: 'name_sku_search_text' },
  'files.search_text': { sql: FILES, fts: 'search_text' },
} as const;

export type FtsColumn = keyof typeof STATEMENTS;

/**
 * Ids of the rows whose `column` contains `term` (a searchKey), or undefined when the database is
 * not SQLite, the term is shorter than 3 characters, or more than FTS_CAP rows match: then search with LIKE.
 */
export async function ftsIds(db: Db, column: FtsColumn, term: string): Promise<string[] | undefined> {
  // Trigrams need three characters: a shorter term is searched with LIKE.
  if (db.provider !== 'sqlite' || [...term].length < 3) return undefined;
  // A phrase of the whole term, limited to the column: the trigram tokenizer matches it as a substring.
  const { sql, fts } = STATEMENTS[column];
  const phrase = `${fts} : "${term.replaceAll('"', '""')}"`;
  const rows = await db.prisma.$queryRawUnsafe<{ id: string }[]>(sql, phrase, FTS_CAP + 1);
  return rows.length > FTS_CAP ? undefined : rows.map((r) => r.id);
}
