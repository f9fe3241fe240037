import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshDb } from '../helpers/db.js';
import type { Db } from '../../src/db/types.js';

// PostgreSQL estimates `search_text LIKE '%term%'` (the order, product and file searches) from the
// column's histogram. At the default 100 bounds a term in under ~1% of rows is often seen by no
// bound and estimated at 0.01% of the table, and at 1,000,000 orders the planner then fetched and
// sorted 25,000 matches of "smith" instead of walking the sort index (80-140 ms against ~2 ms).
// Migration search_statistics keeps 1,000 bounds for these columns (docs/performance.md).

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await freshDb('postgres'));
});
afterAll(() => cleanup?.());

const rows = (sql: string) => db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql);

describe('search statistics (PostgreSQL)', () => {
  test('the searched text columns keep 1,000 histogram bounds', async () => {
    const got = await rows(`SELECT c.relname || '.' || a.attname AS col, a.attstattarget AS target
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attname IN ('search_text', 'name_sku_search_text')
      ORDER BY 1`);
    expect(got.map((r) => [r.col, Number(r.target)])).toEqual([
      ['files.search_text', 1000],
      ['orders.search_text', 1000],
      ['products.name_sku_search_text', 1000],
      ['products.search_text', 1000],
    ]);
  });

  test('a term in 0.5% of the orders is estimated near its real count', async () => {
    // 20,000 orders, all sampled by ANALYZE, so the histogram is deterministic: 10,000 names that
    // sort before "smith", 100 smiths, 9,900 after. The 100 smiths fall between two of the 101
    // default bounds (sorted positions 9,999 and 10,199), so at the default target the estimate
    // is the 0.01% floor (2 rows); with 1,000 bounds about 5 of them are smiths.
    await db.prisma.$executeRawUnsafe(`
      INSERT INTO "orders" ("id", "order_number", "merchant_team_id", "fulfiller_team_id", "tags", "line_item_image_urls", "updated_at", "search_text")
      SELECT 'o' || i, '#' || i, 'm', 'f', '[]', '[]', now(),
        CASE WHEN i < 10000 THEN 'anna ' || lpad(i::text, 5, '0')
             WHEN i < 10100 THEN 'smith ' || lpad(i::text, 5, '0')
             ELSE 'zed ' || lpad(i::text, 5, '0') END
      FROM generate_series(0, 19999) AS i`);
    await db.prisma.$executeRawUnsafe('ANALYZE "orders"');
    const [plan] = await rows(`EXPLAIN (FORMAT JSON) SELECT "id" FROM "orders" WHERE "search_text" LIKE '%smith%'`);
    const estimate = (plan['QUERY PLAN'] as Array<{ Plan: { 'Plan Rows': number } }>)[0].Plan['Plan Rows'];
    expect(estimate).toBeGreaterThanOrEqual(50);
    expect(estimate).toBeLessThanOrEqual(200);
  });
});
