// List-query figures: the order list (every documented filter and sort, alone and combined), the
// fulfillment-order list, the package, charge and file lists (bench/record-list-cases.mjs) and the
// ops product list (bench/product-list-cases.mjs),
// timed through the domain functions the routes call (no HTTP, so the figure is the query and its
// shaping), p95 of N runs each, beside the target of issue 9 (50 ms).
// The database is either seeded here (scripts/seed-scale.mjs into a temp SQLite file, with as many
// packages, charges and files as orders, and as many products, at most 100,000, when the products
// list is timed) or an existing seeded one:
// FOS_BENCH_LIST_DB=<sqlite file | postgresql url> FOS_BENCH_LIST_TEAM=<fulfiller id>.
// FOS_BENCH_LIST_GROUPS=packages,charges,files (any of orders, fulfillment, packages, charges,
// files, products) times only those lists.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { percentile, ROOT, timedSpawn } from './lib.mjs';
import { productListCases } from './product-list-cases.mjs';
import { recordListCases } from './record-list-cases.mjs';

export const LIST_TARGET_MS = 50;
export const LIST_GROUPS = 'orders,fulfillment,packages,charges,files,products';

export const ORDER_CASES = [
  ['created_at desc (default)', {}],
  ['created_at asc', { order_by: 'created_at', order: 'asc' }],
  ['updated_at desc', { order_by: 'updated_at', order: 'desc' }],
  ['updated_at asc', { order_by: 'updated_at', order: 'asc' }],
  ['order_number desc', { order_by: 'order_number', order: 'desc' }],
  ['order_number asc', { order_by: 'order_number', order: 'asc' }],
  ['status=PENDING_FULFILLMENT', { status: 'PENDING_FULFILLMENT' }],
  ['payment_status=PENDING', { payment_status: 'PENDING' }],
  ['fulfillment_status=PARTIALLY_FULFILLED', { fulfillment_status: 'PARTIALLY_FULFILLED' }],
  ['created_at one month', { created_at_min: monthsAgo(6), created_at_max: monthsAgo(5) }],
  ['status=OPEN + order_number asc', { status: 'OPEN', order_by: 'order_number', order: 'asc' }],
  ['payment=PAID + updated_at asc + range', { payment_status: 'PAID', order_by: 'updated_at', order: 'asc', updated_at_min: monthsAgo(3) }],
  ['search common name "smith"', { search: 'smith' }],
  ['search rare "xanthippe"', { search: 'xanthippe' }],
  ['search number prefix "#1234"', { search: '#1234' }],
  ['search "rare.example" + status=CLOSED', { search: 'rare.example', status: 'CLOSED' }],
];

// The fulfillment-order list (oldest first, with its `total`).
export const FULFILLMENT_CASES = [
  ['default', {}],
  ['status=ACCEPTED', { status: ['ACCEPTED'] }],
];

function monthsAgo(n) {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 10);
}

async function timeIt(fn, runs) {
  await fn(); // warm the statement cache and the page cache
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/** Returns [{ name, p50, p95, rows }] for the order and fulfillment-order lists. */
export async function listBench({ orders = 20_000, runs = 20 } = {}) {
  let dbUrl = process.env.FOS_BENCH_LIST_DB;
  let team = process.env.FOS_BENCH_LIST_TEAM;
  let dir;
  let seeded;
  const groups = (process.env.FOS_BENCH_LIST_GROUPS || LIST_GROUPS).split(',');
  if (!dbUrl || !team) {
    dir = mkdtempSync(path.join(tmpdir(), 'fos-bench-lists-'));
    dbUrl = path.join(dir, 'scale.db');
    const r = await timedSpawn(
      [
        path.join(ROOT, 'scripts/seed-scale.mjs'),
        '--db',
        dbUrl,
        '--orders',
        String(orders),
        '--products',
        String(groups.includes('products') ? Math.min(orders, 100_000) : Math.max(100, Math.floor(orders / 100))),
        '--packages',
        String(orders),
        '--charges',
        String(orders),
        '--files',
        String(orders),
      ],
      { env: process.env },
    );
    if (r.code !== 0) throw new Error(`seed-scale failed: ${r.stderr}`);
    team = JSON.parse(r.stdout).fulfiller_team_id;
    seeded = { orders, ms: r.ms };
  }
  const { createDb } = await import(path.join(ROOT, 'dist/db/client.js'));
  const { listOrders } = await import(path.join(ROOT, 'dist/domain/orders/orders.js'));
  const { listFulfillmentOrders } = await import(path.join(ROOT, 'dist/domain/fulfillment/fulfillment-orders.js'));
  const db = await createDb(dbUrl);
  const results = [];
  try {
    const cases = [
      ...(groups.includes('orders') ? ORDER_CASES : []).map(([name, q]) => ({
        name: `orders: ${name}`,
        run: () => listOrders(db, team, { page: 1, limit: 20, ...q }),
      })),
      ...(groups.includes('fulfillment') ? FULFILLMENT_CASES : []).map(([name, q]) => ({
        name: `fulfillment orders: ${name}`,
        run: () => listFulfillmentOrders(db, team, { page: 1, limit: 20, ...q }),
      })),
      ...(await recordListCases(db, team)).filter((c) => groups.includes(c.group)),
      ...(groups.includes('products') ? await productListCases(db, team) : []),
    ];
    // A fresh process is slow on its first list calls, whichever case comes first (measured at 1M
    // orders: ~370 ms, then 25-70 ms for about 20 calls, against 2-8 ms after: V8 still compiling
    // Prisma's runtime), which a server that has answered a few requests has paid. Three untimed
    // passes over every case first.
    for (let i = 0; i < 3; i++) for (const c of cases) await c.run();
    for (const c of cases) {
      let rows = 0;
      const t = await timeIt(async () => {
        rows = (await c.run()).data.length;
      }, runs);
      results.push({ name: c.name, ...t, rows });
    }
  } finally {
    await db.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  return { provider: db.provider, seeded, results };
}
