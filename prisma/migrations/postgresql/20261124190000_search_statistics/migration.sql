-- Finer planner statistics for the searched text columns (written by hand; PostgreSQL only: SQLite
-- searches through FTS5 tables, src/domain/fts.ts). The planner estimates LIKE '%term%' from the
-- column's histogram alone (these columns are nearly unique, so there are no common values), at
-- the default target of 100 bounds: a term is seen in 0 to a few bounds depending on which rows
-- ANALYZE sampled, and 0 means "0.01% of rows". At 1,000,000 orders "smith" (25,000 orders) was
-- estimated at 100, 20,000 or 50,000 rows after five ANALYZEs of the same table; at 100 the
-- planner took every match through the trigram index and sorted them (~80-140 ms) instead of
-- walking the sort index to the first page (~2 ms). With 1,000 bounds a term in 1% of rows is
-- missed by all of them with odds of e^-10, one in 0.5% about once in 150 ANALYZEs (and then its
-- ~5,000 matches sort in ~25 ms). ANALYZE samples 300 rows per unit of target: ~10 s for a
-- million orders instead of ~1 s, in autovacuum's background.
ALTER TABLE "orders" ALTER COLUMN "search_text" SET STATISTICS 1000;
ALTER TABLE "products" ALTER COLUMN "search_text" SET STATISTICS 1000;
ALTER TABLE "products" ALTER COLUMN "name_sku_search_text" SET STATISTICS 1000;
ALTER TABLE "files" ALTER COLUMN "search_text" SET STATISTICS 1000;

-- Take the new statistics now rather than at the next autovacuum analyze.
ANALYZE "orders" ("search_text");
ANALYZE "products" ("search_text", "name_sku_search_text");
ANALYZE "files" ("search_text");
