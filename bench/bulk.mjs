// Bulk writes (issue 29 item 3) against an in-process server (dist/) on a temp SQLite file, or on
// PostgreSQL (FOS_BENCH_PG_URL, a fresh schema dropped at the end): POST /v1/ops/products/bulk of
// 1,000 rows, a purchase-order receipt of 1,000 lines and an adjustment of 1,000 lines; and the
// wait of a fulfillment sent while the receipt runs (its latency minus the same request's latency
// on an idle server). `fos products import` as a user runs it: bench/products-import.mjs.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent } from 'undici';
import { median, ROOT } from './lib.mjs';
import { client } from './workflow.mjs';
import { seed } from './api.mjs';

export const BULK_TARGETS = { productsBulkMs: 500, receiptMs: { sqlite: 500, postgresql: 1000 }, waitMs: 100 };
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
const LINES = 1000;

/** Wall time, and this process's CPU time (the in-process server's, plus the small client side). */
async function timed(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await fn();
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpu: (c.user + c.system) / 1000, out };
}

/**
 * A ledger of `rows` older movements for the receipt's 1,000 products (an even number per product,
 * +1 and -1 on_hand, so every level still equals its movements' sum): a warehouse that has run for
 * a while, whose ledger indexes no longer fit SQLite's page cache (docs/performance.md).
 */
async function prefillLedger(db, warehouseId, rows) {
  const per = 2 * Math.ceil(rows / LINES / 2);
  const sqlite = db.provider === 'sqlite';
  const n = sqlite
    ? `(WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${per - 1}) SELECT i FROM n)`
    : `(SELECT generate_series(0, ${per - 1}) AS i)`;
  const id = sqlite
    ? `printf('00000000-0000-7000-%04d-%012d', n.i, p.rowid)`
    : `'00000000-0000-7000-' || lpad(n.i::text, 4, '0') || '-' || p.id`;
  const at = sqlite
    ? `strftime('%Y-%m-%dT%H:%M:%f+00:00', '2026-01-01', '+' || n.i || ' minutes')`
    : `TIMESTAMP '2026-01-01' + n.i * INTERVAL '1 minute'`;
  const cast = (v, type) => (sqlite ? v : `CAST(${v} AS "${type}")`);
  await db.prisma.$executeRawUnsafe(
    `INSERT INTO "inventory_movements" ("id", "product_id", "sku", "warehouse_id", "bucket", "delta", "kind", "reference_type", "created_at")
     SELECT ${id}, p."id", p."sku", '${warehouseId}', ${cast(`'on_hand'`, 'InventoryBucket')}, 1 - 2 * (n.i % 2), ${cast(`'ADJUSTED'`, 'InventoryMovementKind')}, 'bench', ${at}
     FROM "products" p CROSS JOIN ${n} n WHERE p."sku" LIKE 'IMP-%' AND CAST(substr(p."sku", 5) AS INTEGER) < ${LINES}`,
  );
  // As a database that has run a while: its log folded into the file, not a fresh 100 MB of it.
  if (sqlite) await db.prisma.$queryRawUnsafe('PRAGMA wal_checkpoint(TRUNCATE)');
}

/** One run on `dbUrl`: every figure in ms. */
async function runOn(dbUrl, runs, ledger) {
  const { startServer } = await dist('server/serve.js');
  const { createKey } = await dist('domain/keys/keys.js');
  const server = await startServer({ db: dbUrl, host: '127.0.0.1', port: 0, logger: false });
  const agent = new Agent({ connections: 8, keepAliveTimeout: 10_000 });
  try {
    const teamId = server.bootstrap.teamId;
    const token = (await createKey(server.db, teamId, { name: 'bench bulk', power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    const api = client(server.url, token, agent);
    const figures = {
      productsBulk: [],
      receipt: [],
      adjustment: [],
      wait: [],
      cpu: { productsBulk: [], receipt: [], adjustment: [] },
    };
    const note = (name, r) => (figures[name].push(r.ms), figures.cpu[name].push(r.cpu));
    // Products: 1,000 new rows, then the same 1,000 as updates.
    for (let r = 0; r < runs; r++) {
      const rows = Array.from({ length: LINES }, (_, i) => ({ sku: `PB-${r}-${i}`, name: `Bulk ${i}`, type: 'STANDARD', weight: i }));
      note('productsBulk', await timed(() => api('POST', '/ops/products/bulk', { products: rows })));
      const upd = rows.map((x) => ({ sku: x.sku, barcode: `B${x.sku}` }));
      note('productsBulk', await timed(() => api('POST', '/ops/products/bulk', { products: upd })));
    }
    // The receipt's 1,000 products.
    const products = Array.from({ length: LINES }, (_, i) => ({ sku: `IMP-${i}`, name: `Imported ${i}`, type: 'STANDARD', weight: i }));
    await api('POST', '/ops/products/bulk', { products });
    // Receipts and adjustments of 1,000 lines at a warehouse, fulfillments ready to be sent.
    const orders = await seed(server, api, { products: 4, orders: runs * 2 });
    const wh = await server.db.prisma.warehouse.findFirstOrThrow({ where: { team_id: teamId, name: 'Bench DC' } });
    const skus = Array.from({ length: LINES }, (_, i) => `IMP-${i}`);
    const ready = await readyToFulfill(api, orders);
    if (ledger) await prefillLedger(server.db, wh.id, ledger);
    for (let r = 0; r < runs; r++) {
      const po = (await api('POST', '/ops/purchase-orders', { warehouse_id: wh.id, lines: skus.map((sku) => ({ sku, quantity: 10 })) }))
        .data;
      const receive = () => api('POST', `/ops/purchase-orders/${po.id}/receive`, { lines: skus.map((sku) => ({ sku, quantity: 4 })) });
      note('receipt', await timed(receive));
      // The fulfillment: idle, then sent right after a second receipt starts.
      const idle = await timed(() => ready.shift()());
      const during = receive();
      const busy = await timed(() => ready.shift()());
      await during;
      figures.wait.push(Math.max(0, busy.ms - idle.ms));
      const adj = { warehouse_id: wh.id, reason: 'FOUND', lines: skus.map((sku) => ({ sku, delta: 2 })) };
      note('adjustment', await timed(() => api('POST', '/ops/inventory/adjustments', adj)));
    }
    return figures;
  } finally {
    await agent.close();
    await server.close();
  }
}

/** Each order's fulfillment taken to a labelled package: a function sending its fulfill. */
async function readyToFulfill(api, orders) {
  const out = [];
  for (const [i, orderId] of orders.entries()) {
    for (const fo of (await api('GET', `/ops/fulfillment-orders?order_id=${orderId}`)).data.data) {
      const owner = `bulk-${i}`;
      await api('POST', `/ops/fulfillment-orders/${fo.id}/accept`);
      await api('POST', `/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: owner, timeout_minutes: 30 });
      const lines = (await api('GET', `/ops/fulfillment-orders/${fo.id}`)).data.line_items;
      const pkg = (
        await api('POST', '/ops/packages', {
          fulfillment_order_id: fo.id,
          package_line_items: lines.map((l) => ({ core_fulfillment_order_line_item_id: l.id, quantity: l.remaining_quantity })),
        })
      ).data;
      await api('POST', `/ops/packages/${pkg.id}/label`, {
        label_url: 'https://labels.example/bench.pdf',
        tracking_number: `1ZBULK${i}${fo.id.slice(-4)}`,
        carrier: 'UPS',
        service: 'Ground',
        cost: 6.1,
        cost_currency: 'USD',
      });
      out.push(() => api('POST', `/ops/packages/${pkg.id}/fulfill`, { locked_by: owner }));
    }
  }
  return out;
}

export async function bulkBench({ runs = 3, ledger = 0 } = {}) {
  const out = {};
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-bulk-'));
  try {
    out.sqlite = await runOn(path.join(dir, 'fos.db'), runs, ledger);
    const pg = process.env.FOS_BENCH_PG_URL;
    if (pg) {
      const schema = `bench_bulk_${randomUUID().slice(0, 8)}`;
      const url = `${pg}${pg.includes('?') ? '&' : '?'}schema=${schema}`;
      try {
        out.postgresql = await runOn(url, runs, ledger);
      } finally {
        const { Client } = await import('pg');
        const c = new Client({ connectionString: pg });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await c.end();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

/** Lines for npm run bench: each figure (median of the runs) beside its target. */
export function bulkReport(out) {
  const lines = [];
  let over = false;
  for (const [provider, f] of Object.entries(out)) {
    const row = (name, values, target, cpu) => {
      const m = median(values);
      const cpuText = cpu ? `, server CPU ${median(cpu).toFixed(0)} ms` : '';
      if (m > target) over = true;
      lines.push(
        `  ${provider.padEnd(10)} ${name.padEnd(34)} ${m.toFixed(0).padStart(6)} ms  (max ${Math.max(...values).toFixed(0)}${cpuText}; target <= ${target} ms: ${m <= target ? 'ok' : 'OVER'})`,
      );
    };
    row('products bulk, 1,000 rows', f.productsBulk, BULK_TARGETS.productsBulkMs, f.cpu.productsBulk);
    row('purchase-order receipt, 1,000 lines', f.receipt, BULK_TARGETS.receiptMs[provider], f.cpu.receipt);
    row('adjustment, 1,000 lines', f.adjustment, BULK_TARGETS.receiptMs[provider], f.cpu.adjustment);
    row('fulfillment wait during a receipt', f.wait, BULK_TARGETS.waitMs);
  }
  return { lines, over };
}
