import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { recordSqliteStatements } from '../helpers/statements.js';
import * as teams from '../../src/domain/teams/teams.js';

// Issue 9, products at 100,000: the SQLite query plans of the ops product list, with the
// statistics ANALYZE wrote for a catalogue of 100,000 products in four teams
// (scripts/seed-scale.mjs --products 100000), loaded into sqlite_stat1 of a small database: the
// planner decides from those, not from the rows. Each list statement reading products must walk a
// list index in order, without sorting a team's rows, and has_barcode=false must not take the
// barcode index (SQLite reckons `barcode IS NULL` ~2 rows; 15% of a catalogue can match). Before
// migration product_list_indexes and the rewritten filters these plans sorted (`USE TEMP B-TREE`)
// or gathered every barcode-less product, 20-230 ms at 100,000 (docs/performance.md).

const sqlite = (process.env.FOS_TEST_DB ?? 'sqlite') === 'sqlite';

// sqlite_stat1 of the 100,000-product database (the indexes before the migration too: an index
// that does not exist is ignored, so the test also says what the old plans were planned from).
const STATS: [string, string, string][] = [
  ['products', 'products_team_id_type_created_at_id_idx', '100000 25000 8334 1 1'],
  ['products', 'products_team_id_updated_at_id_idx', '100000 25000 1 1'],
  ['products', 'products_team_id_created_at_id_idx', '100000 25000 1 1'],
  ['products', 'products_team_id_created_at_idx', '100000 25000 1'],
  ['products', 'products_team_id_updated_at_idx', '100000 25000 1'],
  ['products', 'products_team_id_type_idx', '100000 25000 8334'],
  ['products', 'products_barcode_idx', '100000 2'],
  ['products', 'products_sku_idx', '100000 1'],
  // The SKU-per-team unique index (migration products_sku_unique_per_team): team_id, lower(sku).
  ['products', 'products_team_id_lower_sku_key', '100000 25000 1'],
  ['products', 'products_fulfiller_team_id_created_at_idx', '100000 100000 1'],
  ['products', 'products_merchant_team_id_created_at_idx', '100000 25000 1'],
  ['products', 'sqlite_autoindex_products_1', '100000 1'],
  ['product_listing_variants', 'product_listing_variants_product_id_idx', '30011 2'],
  ['product_listing_variants', 'sqlite_autoindex_product_listing_variants_1', '30011 1'],
  ['inventory_levels', 'inventory_levels_product_id_warehouse_id_key', '95062 2 1'],
  ['inventory_levels', 'inventory_levels_warehouse_id_idx', '95062 31688'],
  ['inventory_levels', 'sqlite_autoindex_inventory_levels_1', '95062 1'],
];

let t: TestApp;
let token: string;
let warehouse: string;

beforeAll(async () => {
  if (!sqlite) return;
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  const merchant = (await t.merchant()).teamId;
  for (let i = 0; i < 6; i++) {
    const res = await t.call('POST', '/v1/ops/products', {
      token,
      body: { name: `Plan ${i}`, sku: `PLN-${i}`, type: i % 3 ? 'STANDARD' : 'ASSEMBLY', ...(i % 2 ? { merchant_team_id: merchant } : {}) },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  warehouse = (await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Rare DC' })).id;
  const first = await t.db.prisma.product.findFirstOrThrow({ where: { name: 'Plan 0' } });
  await t.db.prisma.inventoryLevel.create({ data: { product_id: first.id, warehouse_id: warehouse, on_hand: 1 } });
  await t.db.prisma.$executeRawUnsafe('ANALYZE'); // creates sqlite_stat1
  await t.db.prisma.$executeRawUnsafe("DELETE FROM sqlite_stat1 WHERE tbl IN ('products', 'product_listing_variants', 'inventory_levels')");
  for (const [tbl, idx, stat] of STATS)
    await t.db.prisma.$executeRawUnsafe('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)', tbl, idx, stat);
  await t.db.prisma.$executeRawUnsafe('ANALYZE sqlite_schema'); // reloads the statistics
});
afterAll(() => t?.close());

/** The plans (EXPLAIN QUERY PLAN, one string each) of the statements a list request runs that page through products. */
async function plans(query: string, which = (sql: string) => /products/.test(sql) && /ORDER BY/.test(sql) && /LIMIT/.test(sql)) {
  const statements: string[] = [];
  const stop = recordSqliteStatements(statements);
  try {
    const res = await t.call('GET', `/v1/ops/products?${query}`, { token });
    expect(res.statusCode, res.body).toBe(200);
  } finally {
    stop();
  }
  const lists = [...new Set(statements.filter(which))];
  expect(lists.length).toBeGreaterThan(0);
  const out: { prisma: boolean; plan: string }[] = [];
  for (const sql of lists) {
    const rows = await t.db.prisma.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${sql}`);
    out.push({ prisma: sql.includes('`main`.`products`'), plan: rows.map((r) => r.detail).join('\n') });
  }
  return out;
}

describe.skipIf(!sqlite)('ops product list plans at 100,000 products (SQLite statistics)', () => {
  it.each([
    ['order_by=created_at&order=desc', 'products_team_id_created_at_id_idx'],
    ['order_by=updated_at&order=asc', 'products_team_id_updated_at_id_idx'],
    ['has_image=true', 'products_team_id_created_at_id_idx'],
    ['has_barcode=false', 'products_team_id_created_at_id_idx'],
    ['has_barcode=false&has_image=false&order_by=updated_at', 'products_team_id_updated_at_id_idx'],
    ['type=ASSEMBLY', 'products_team_id_type_created_at_id_idx'],
    ['page=3&limit=2', 'products_team_id_created_at_id_idx'],
  ])('%s walks %s in order', async (query, index) => {
    const found = await plans(query);
    const all = found.map((f) => f.plan).join('\n');
    expect(all).toContain(index);
    expect(all).not.toMatch(/products_barcode_idx/);
    // Sorting a team's rows (or all of them) instead of walking them in order: a Prisma page
    // query sorts nothing; the single statement (products/store/list.ts) sorts only the walks' merge.
    for (const f of found) {
      expect(f.plan).not.toMatch(/RIGHT PART OF ORDER BY/);
      if (f.prisma) expect(f.plan).not.toMatch(/TEMP B-TREE/);
    }
    // An OFFSET page bounds each team's walk by its key at that depth instead of reading its rows.
    if (query.startsWith('page=')) expect(all).toMatch(/MATERIALIZE bound/);
  });

  it('warehouse_id reads the levels at the warehouse from its index (a rare warehouse is a few products, listed by id)', async () => {
    const found = await plans(`warehouse_id=${warehouse}`, (sql) => /FROM `main`.`inventory_levels`/.test(sql) && /LIMIT/.test(sql));
    expect(found.map((f) => f.plan).join('\n')).toMatch(/SEARCH main.inventory_levels USING INDEX inventory_levels_warehouse_id_idx/);
  });
});
