#!/usr/bin/env node
// `npm run bench [-- startup roundtrip api]`: figures for the CLI and the server, on 127.0.0.1
// only, bounded in count and time (about a minute in all). Needs dist/ (`npm run build`).
//   startup    fos --version / --help: median of N spawns, and no server/Prisma/Fastify/undici file loaded
//              (what runs inside the CLI bundle, dist/cli.cjs, test/cli/startup.test.ts checks); then the
//              standalone executable (dist/sea/fos, `npm run build:sea`, or FOS_BENCH_SEA) beside bin/fos.js:
//              CPU and memory of --version and `products list`, and the start of `serve --demo`
//   roundtrip  `fos products list` spawned against `fos serve --demo` (temp SQLite, port 0) beside
//              `node -e 0`; then that server restarted: idle RSS, RSS and CPU under reads and writes
//   api        in-process server + undici: GET /v1/ops/products, full fulfill workflow, RSS
//   floor      the fulfillment (lock, package, label CHEAPEST, fulfill with a SHIPPING charge): fos's server
//              process CPU beside a fair floor, a node:http server on the raw driver running the same
//              statements (bench/fulfill-floor.mjs); SQLite, then PostgreSQL at FOS_BENCH_PG_URL (default
//              postgres://root@127.0.0.1:5432/postgres; FOS_BENCH_FLOOR_PG=off skips it); FOS_BENCH_FLOOR_ORDERS (default 200);
//              FOS_BENCH_FLOOR_PROFILE=<dir>: a CPU profile of fos's timed run there (bench/profile-summary.mjs)
//   reads      GET /v1/ops/products?limit=20: fos in-process beside a hand-written Fastify + SQLite
//              server (bench/products-baseline.mjs) on the same database, alternating rounds; ratio
//              beside the 0.7 target. FOS_BENCH_READ_REQUESTS per round (default 2000), 3 rounds.
//   pages      GET /v1/ops/orders/list?limit=20 and /v1/ops/products?limit=20: `fos serve` (own process,
//              default logging) beside the same with --log-level warn and the hand-written baseline
//              (bench/products-baseline.mjs, own process) on one seeded SQLite file; req/s, server CPU a
//              request, ratio beside the 0.7 target. FOS_BENCH_LIST_DB/FOS_BENCH_LIST_TEAM (a seeded
//              file, e.g. 1M orders and 100k products) or FOS_BENCH_PAGES_ORDERS (temp seed, default 20000).
//   audit      what the audit record adds to a one-row write transaction (bench/audit-cost.mjs, its own process):
//              median with and without, beside the 0.3 ms target; the floor is the transaction without it.
//              SQLite (temp file), and PostgreSQL when FOS_BENCH_AUDIT_PG_URL names an empty database.
//   outbox     a queued backlog drained by one outbox worker to a local receiver (events/s)
//   rules      100 automation rules evaluated over 10,000 in-memory orders (ms an order, target <= 0.2)
//   invoices   a month's invoice for a merchant with FOS_BENCH_INVOICE_CHARGES charges (default 100,000): generate,
//              regenerate, finalize, PDF + QuickBooks export; SQLite, and PostgreSQL at FOS_BENCH_PG_URL when set (target <= 5 s)
//   storage    the daily storage snapshot of FOS_BENCH_STORAGE_LOCATIONS occupied locations (default 100,000), taken and
//              billed as one run; SQLite, and PostgreSQL at FOS_BENCH_PG_URL when set (target <= 10 s)
//   billing    server CPU a fulfillment's billing adds by a versioned rate card (4 charges and the outbox worker's passes
//              over their 8 events), FOS_BENCH_BILLING_FULFILLMENTS (default 2,000) against write transactions without
//              it; target <= 1 ms (bench/billing.mjs)
// Sizes: FOS_BENCH_RUNS (spawns per figure, default 10), FOS_BENCH_READS (default 1000),
// FOS_BENCH_ORDERS (workflows, default 40), FOS_BENCH_EVENTS (outbox backlog, default 500).
//   lists      order, fulfillment-order, package, charge, file and product list queries (every filter/sort) on a
//              seeded database: FOS_BENCH_LIST_ORDERS (seeded into a temp SQLite file with as many
//              packages, charges and files, default 20000; `--scale N` too), or an existing seeded
//              database: FOS_BENCH_LIST_DB=<file|url> FOS_BENCH_LIST_TEAM=<id>; FOS_BENCH_LIST_GROUPS
//              picks lists (orders,fulfillment,packages,charges,files,products; products are seeded
//              as many as orders, at most 100,000, when picked).
//   soak       `fos serve --demo` under FOS_BENCH_SOAK_REQUESTS (default 10000) mixed good and hostile
//              requests, then FOS_BENCH_SOAK_IDLE (default 30) s idle: RSS then within 1.3x of RSS idle after
//              the start, no 5xx; `--minutes N` (or FOS_BENCH_SOAK_MINUTES) runs the mix that long, RSS and
//              heap each minute, and the growth over the second half; FOS_BENCH_SOAK_DB=<postgresql:// URL of an empty database> for PostgreSQL.
//   export     `fos orders list --all --format ndjson` against fos serve on a seeded SQLite file
//              (FOS_BENCH_EXPORT_ORDERS, default 20000, or FOS_BENCH_EXPORT_DB=<file> with
//              FOS_BENCH_LIST_TEAM=<id>): seconds, orders/s and the CLI's RSS early and late.
//   bulk       products bulk (1,000 rows), a 1,000-line receipt and adjustment, and a fulfillment's wait
//              while a receipt runs; SQLite, and PostgreSQL when FOS_BENCH_PG_URL is set (a fresh schema).
//              FOS_BENCH_BULK_RUNS (default 3); FOS_BENCH_BULK_LEDGER=<rows>: that many older movements of
//              the receipt's products first.
//   import     `fos products import` of 10,000 rows as a user runs it: the CLI spawned against `fos serve
//              --demo` (own process, default request log, key from its banner); per fresh server the first
//              import (cold), another new file and the first again (warm); SQLite, then PostgreSQL at
//              FOS_BENCH_PG_URL (default postgres://root@127.0.0.1:5432/postgres; a database of its own per run;
//              FOS_BENCH_IMPORT_PG=off skips it). FOS_BENCH_IMPORT_RUNS (fresh servers, default 3); target 1.5 s.
//   batch      a label batch of FOS_BENCH_BATCH_PACKAGES packed boxes (default 500) on the rate table, through
//              HTTP to an in-process server: POST, wait for COMPLETED, GET the merged PDF (target 20 s); then
//              the same against an EasyPost double answering in FOS_BENCH_BATCH_LATENCY_MS (default 300):
//              beside the bound its parallelism allows (target: bound + 20 s)
//   scale      fulfillments/s and p95 per step at concurrency 4 and 16, SQLite and PostgreSQL, 1 and 2 replicas,
//              orders over 20 and over 2 SKUs (bench/scale.mjs; not in the default run): FOS_BENCH_SCALE_ORDERS
//              (per cell, default 80), FOS_BENCH_SCALE_DBS (default sqlite,postgresql), FOS_BENCH_SCALE_REPLICAS
//              (default 1,2), FOS_BENCH_SCALE_SKUS (default 20,2); deadlocks/retries = what the servers absorbed
//   scale-out  the fulfillment workflow against 1, 2 and 4 `fos serve` replicas on one PostgreSQL database
//              (FOS_BENCH_PG_URL, default postgres://root@127.0.0.1:5432/postgres; not in the default run):
//              fulfillments/s, CPU a fulfillment of fos and of PostgreSQL, lock waits.
//              FOS_BENCH_SCALE_ORDERS (default 300), FOS_BENCH_SCALE_REPLICAS (default 1,2,4).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiBench } from '../bench/api.mjs';
import { bulkBench, bulkReport } from '../bench/bulk.mjs';
import { importBench, importReport } from '../bench/products-import.mjs';
import { BATCH_TARGET_S, batchBench } from '../bench/label-batch.mjs';
import { EXPORT_TARGET, exportBench } from '../bench/export.mjs';
import { FLOOR_TARGET_RATIO, floorBench } from '../bench/fulfill-floor.mjs';
import { LIST_TARGET_MS, listBench } from '../bench/lists.mjs';
import { listPagesBench, PAGES, PAGES_TARGET_RATIO } from '../bench/list-pages.mjs';
import { outboxBench } from '../bench/outbox.mjs';
import { rulesBench } from '../bench/rules.mjs';
import { INVOICE_TARGET_MS, invoiceBench } from '../bench/invoices.mjs';
import { STORAGE_TARGET_MS, storageBench } from '../bench/storage.mjs';
import { BILLING_TARGET_MS, billingBench } from '../bench/billing.mjs';
import { READS_TARGET_RATIO, readsBench } from '../bench/reads.mjs';
import { ms, ROOT } from '../bench/lib.mjs';
import { IDLE_RSS_TARGET_MIB, LOAD_RSS_TARGET_MIB, roundtrip } from '../bench/roundtrip.mjs';
import { startup } from '../bench/startup.mjs';
import { SEA_BINARY, SEA_CPU_RSS_TARGET, SEA_SERVE_TARGET, seaStartup } from '../bench/sea-startup.mjs';
import { SOAK_RSS_FACTOR, soakBench } from '../bench/soak.mjs';
import { scaleOutBench, scaleOutReport } from '../bench/scale-out.mjs';
import { scaleBench, scaleReport } from '../bench/scale.mjs';

const int = (name, fallback, max) => Math.min(max, Math.max(1, Number(process.env[name]) || fallback));
const RUNS = int('FOS_BENCH_RUNS', 10, 50);
const READS = int('FOS_BENCH_READS', 1000, 2500);
const ORDERS = int('FOS_BENCH_ORDERS', 40, 300);
const EVENTS = int('FOS_BENCH_EVENTS', 500, 20_000);
const READ_REQUESTS = int('FOS_BENCH_READ_REQUESTS', 2000, 2900);
const PG_URL = process.env.FOS_BENCH_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const SOAK_REQUESTS = int('FOS_BENCH_SOAK_REQUESTS', 10_000, 200_000);
const SOAK_IDLE = int('FOS_BENCH_SOAK_IDLE', 30, 600);

const argv = process.argv.slice(2);
// `soak --minutes 30` (or --duration 30, FOS_BENCH_SOAK_MINUTES): the mix for that long instead of a count.
const minutesAt = argv.findIndex((a) => a === '--minutes' || a === '--duration');
const SOAK_MINUTES = minutesAt >= 0 ? Number(argv.splice(minutesAt, 2)[1]) || 0 : Number(process.env.FOS_BENCH_SOAK_MINUTES) || 0;
const scaleAt = argv.indexOf('--scale');
const LIST_ORDERS =
  scaleAt >= 0 ? Math.max(1000, Number(argv.splice(scaleAt, 2)[1]) || 20_000) : int('FOS_BENCH_LIST_ORDERS', 20_000, 5_000_000);
const sections = argv.length
  ? argv
  : [
      'startup',
      'roundtrip',
      'api',
      'floor',
      'audit',
      'reads',
      'outbox',
      'rules',
      'invoices',
      'storage',
      'billing',
      'soak',
      'lists',
      'export',
      'bulk',
      'import',
      'batch',
    ];
if (!existsSync(path.join(ROOT, 'dist/cli/main.js'))) {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
let failed = false;

if (sections.includes('startup')) {
  const s = await startup({ runs: RUNS });
  console.log(`start-up (median of ${RUNS} spawns; bare \`node -e 0\`: ${ms(s.node.median)})`);
  for (const cmd of ['--version', '--help']) {
    const r = s[cmd];
    const clean = r.forbidden.length === 0;
    if (!clean) failed = true;
    console.log(
      `  fos ${cmd.padEnd(9)} ${ms(r.median).padStart(9)}  p90 ${ms(r.p90)}  ${r.modules} files loaded besides dist/cli.cjs; ` +
        (clean ? 'no server, Prisma, Fastify or undici' : `LOADED: ${r.forbidden.join(', ')}`),
    );
  }
  const sea = await seaStartup({ runs: RUNS });
  if (!sea) console.log(`standalone executable: ${path.relative(ROOT, SEA_BINARY)} not built (npm run build:sea)`);
  else {
    const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
    const x = (a, b, target) => `${(a / b).toFixed(2)}x${a / b <= target ? '' : ' OVER'}`;
    console.log(`standalone executable ${path.relative(ROOT, sea.binary)} beside node bin/fos.js (medians; CPU = user + system)`);
    for (const cmd of ['--version', 'products list --json id']) {
      const { bin, sea: s } = sea[cmd];
      const over = s.cpuMs / bin.cpuMs > SEA_CPU_RSS_TARGET || s.hwmKiB / bin.hwmKiB > SEA_CPU_RSS_TARGET;
      if (over) failed = true;
      console.log(
        `  fos ${cmd.padEnd(24)} CPU ${ms(s.cpuMs)} vs ${ms(bin.cpuMs)} (${x(s.cpuMs, bin.cpuMs, SEA_CPU_RSS_TARGET)}); ` +
          `peak RSS ${mib(s.hwmKiB)} vs ${mib(bin.hwmKiB)} (${x(s.hwmKiB, bin.hwmKiB, SEA_CPU_RSS_TARGET)}); ` +
          `own ${mib(s.anonKiB)} vs ${mib(bin.anonKiB)}, mapped files ${mib(s.fileKiB)} vs ${mib(bin.fileKiB)}`,
      );
    }
    const { bin, sea: s } = sea.serve;
    if (s.ms / bin.ms > SEA_SERVE_TARGET) failed = true;
    console.log(
      `  fos serve --demo start   ${ms(s.ms)} vs ${ms(bin.ms)} (${x(s.ms, bin.ms, SEA_SERVE_TARGET)}, target <= ${SEA_SERVE_TARGET}x); ` +
        `CPU ${ms(s.cpuMs)} vs ${ms(bin.cpuMs)}; peak RSS ${mib(s.hwmKiB)} vs ${mib(bin.hwmKiB)}`,
    );
  }
}

if (sections.includes('roundtrip')) {
  const r = await roundtrip({ runs: RUNS, reads: READS, orders: ORDERS });
  const mark = (ok) => (ok ? 'ok' : 'OVER');
  const ratio = r.median / r.nodeMedian;
  console.log(`localhost round trip (fos serve --demo on SQLite started in ${ms(r.serveStartMs)})`);
  console.log(
    `  fos products list  ${ms(r.median).padStart(9)}  p90 ${ms(r.p90)}  (spawned CLI, median of ${r.runs}; ` +
      `${ratio.toFixed(1)}x \`node -e 0\` at ${ms(r.nodeMedian)} in the same runs; target <= 3x: ${mark(ratio <= 3)})`,
  );
  console.log(`fos serve as its own process, restarted on that database`);
  console.log(
    `  idle               ${r.idleRssMiB?.toFixed(1)} MiB RSS 5 s after the restart (target <= ${IDLE_RSS_TARGET_MIB}: ${mark(r.idleRssMiB <= IDLE_RSS_TARGET_MIB)})`,
  );
  for (const [name, x, what] of [
    ['reads', r.reads, 'GET /v1/ops/products?limit=20, concurrency 8'],
    ['writes', r.writes, 'fulfill workflows, concurrency 4'],
  ]) {
    console.log(
      `  after ${name.padEnd(12)} ${x.rssMiB?.toFixed(1)} MiB RSS (target <= ${LOAD_RSS_TARGET_MIB}: ${mark(x.rssMiB <= LOAD_RSS_TARGET_MIB)}); ` +
        `${x.done} ${what}: ${x.perSecond.toFixed(name === 'reads' ? 0 : 1)}/s, server CPU ${x.cpuMsPerRequest.toFixed(2)} ms per request`,
    );
  }
}

if (sections.includes('api')) {
  const a = await apiBench({ products: 50, orders: ORDERS, reads: READS, concurrency: 8, workflowConcurrency: 4, deadlineMs: 30_000 });
  const p = a.products;
  const w = a.workflow;
  console.log('API, in-process server + undici (tier-4 keys, SQLite)');
  console.log(
    `  GET /v1/ops/products?limit=20  ${p.done} requests, concurrency 8: ${p.perSecond.toFixed(0)} req/s; ` +
      `p50 ${ms(p.p50)}, p95 ${ms(p.p95)}, p99 ${ms(p.p99)}`,
  );
  console.log(
    `  fulfill workflow (6 requests)    ${w.done} fulfillment orders, concurrency 4: ${w.perSecond.toFixed(1)} workflows/s ` +
      `(${(w.requests / w.seconds).toFixed(0)} req/s); per workflow p50 ${ms(w.p50)}, p95 ${ms(w.p95)} (target >= 60 workflows/s)`,
  );
  console.log(
    `  server time per workflow        ${ms(w.serverMsPerRun)} CPU on the server's thread: one process sustains at most ${(1000 / w.serverMsPerRun).toFixed(1)} workflows/s ` +
      `(process CPU, clients' thread included: ${ms(w.cpuMsPerRun)})`,
  );
  console.log(
    `  process RSS after the run       ${a.rssMiB.toFixed(1)} MiB (server and client in one process; heap ${a.heapMiB.toFixed(1)} MiB)`,
  );
}

if (sections.includes('floor')) {
  const orders = int('FOS_BENCH_FLOOR_ORDERS', 200, 1000);
  const runs = [await floorBench({ orders })];
  if (process.env.FOS_BENCH_FLOOR_PG !== 'off') runs.push(await floorBench({ orders, pgUrl: PG_URL }));
  console.log(
    'fulfillment beside its fair floor (lock, package, label CHEAPEST from a rate table, fulfill billing a SHIPPING charge; ' +
      "server process CPU, every thread, per fulfillment, warm; floor: node:http on the raw driver running the same statements, and the workers' after them)",
  );
  for (const f of runs) {
    const ok = f.ratio <= FLOOR_TARGET_RATIO;
    if (!ok) failed = true;
    console.log(
      `  ${f.provider.padEnd(10)} fos ${ms(f.fosMs)}  floor ${ms(f.floorMs)}  ratio ${f.ratio.toFixed(2)}x (target <= ${FLOOR_TARGET_RATIO}x) ${ok ? 'ok' : 'OVER'}; ` +
        `${f.fulfillments} fulfillments, ${f.statements.toFixed(1)} statements and ${f.commits.toFixed(1)} commits each, ` +
        `${f.background.toFixed(1)} by the workers after; main thread fos ${ms(f.fosMainMs)}, floor ${ms(f.floorMainMs)}` +
        `${f.failed ? `; ${f.failed} replayed statements FAILED, e.g. ${f.errors.join(' | ')}` : ''}`,
    );
    console.log(
      `    per step, fos / floor: ${f.steps.map((s) => `${s.name} ${s.fosMs.toFixed(2)} / ${s.floorMs.toFixed(2)} ms`).join(', ')}`,
    );
  }
}

if (sections.includes('reads')) {
  const r = await readsBench({ products: 300, requests: READ_REQUESTS, concurrency: 8, rounds: 3 });
  console.log(
    `reads: GET /v1/ops/products?limit=20 (${r.products} products, same ${r.bytes}-byte body; ${r.rounds} alternating rounds of ` +
      `${r.requests} requests, concurrency ${r.concurrency}, client in-process)`,
  );
  for (const [name, f] of [
    ['fos', r.fos],
    ['baseline (Fastify + libsql)', r.baseline],
  ]) {
    console.log(
      `  ${name.padEnd(30)} ${f.perSecond.toFixed(0).padStart(5)} req/s  p50 ${ms(f.p50)}  CPU ${f.cpuMs.toFixed(2)} ms a request (with the client)`,
    );
  }
  console.log(
    `  ratio fos / baseline           ${r.ratio.toFixed(2)} in req/s, ${r.cpuRatio.toFixed(2)} in CPU a request  ` +
      `${r.ratio >= READS_TARGET_RATIO ? 'ok' : 'UNDER'} (target >= ${READS_TARGET_RATIO})`,
  );
}

if (sections.includes('pages')) {
  const r = await listPagesBench({ orders: int('FOS_BENCH_PAGES_ORDERS', 20_000, 1_000_000), requests: Math.min(READ_REQUESTS, 1500) });
  console.log(
    `list pages as shipped (separate processes on ${r.file}; ${r.rounds} alternating rounds of ${r.requests} requests, ` +
      `concurrency ${r.concurrency}; CPU is the server process's)`,
  );
  for (const [page, x] of Object.entries(r.results)) {
    console.log(`  GET ${PAGES[page]} (same ${x.bytes}-byte body)`);
    for (const name of ['fos', 'fos, no request log', 'baseline']) {
      const f = x[name];
      console.log(
        `    ${name.padEnd(22)} ${f.perSecond.toFixed(0).padStart(5)} req/s  p50 ${ms(f.p50)}  CPU ${f.cpuMs.toFixed(2)} ms a request`,
      );
    }
    const ratio = x.fos.perSecond / x.baseline.perSecond;
    const logging = 1 - x['fos, no request log'].cpuMs / x.fos.cpuMs;
    console.log(
      `    ratio fos / baseline   ${ratio.toFixed(2)} in req/s, ${(x.baseline.cpuMs / x.fos.cpuMs).toFixed(2)} in CPU a request  ` +
        `${ratio >= PAGES_TARGET_RATIO ? 'ok' : 'UNDER'} (target >= ${PAGES_TARGET_RATIO}); request logging ${(logging * 100).toFixed(1)}% of fos's CPU`,
    );
  }
}

if (sections.includes('outbox')) {
  const o = await outboxBench({ events: EVENTS, deadlineMs: 60_000 });
  console.log('outbox, one worker, temp SQLite, local HTTP receiver');
  console.log(
    `  drain ${o.events} events         ${o.perSecond.toFixed(0)} events/s (target >= 500); ${o.received} delivered in ` +
      `${o.seconds.toFixed(1)} s; backlog at the end ${o.backlog} (target 0)`,
  );
}

if (sections.includes('audit')) {
  const AUDIT_TARGET_MS = 0.3;
  const urls = [null, process.env.FOS_BENCH_AUDIT_PG_URL].filter((u) => u !== undefined);
  console.log('audit record cost (a one-row write transaction with and without it, median of 4,000 alternating pairs; floor: without)');
  for (const u of urls) {
    const out = execFileSync(process.execPath, [path.join(ROOT, 'bench/audit-cost.mjs'), ...(u ? [u] : []), '--json'], {
      encoding: 'utf8',
    });
    const r = JSON.parse(out.trim().split('\n').pop());
    const ok = r.addedMs <= AUDIT_TARGET_MS;
    if (!ok) failed = true;
    console.log(
      `  ${r.provider.padEnd(10)} +${r.addedMs.toFixed(3)} ms (target <= ${AUDIT_TARGET_MS} ms) ${ok ? 'ok' : 'OVER'}; ` +
        `floor ${r.withoutMs.toFixed(3)} ms without, ${r.withMs.toFixed(3)} ms with`,
    );
  }
}

if (sections.includes('rules')) {
  const r = await rulesBench();
  console.log('automation rules, compiled once per version, evaluated in memory');
  console.log(
    `  ${r.rules} rules x ${r.orders} orders   ${r.msPerOrder.toFixed(4)} ms an order (target <= 0.2); ` +
      `${r.decisionsPerOrder.toFixed(1)} matching rules an order`,
  );
}

if (sections.includes('storage')) {
  const runs = await storageBench({ locations: int('FOS_BENCH_STORAGE_LOCATIONS', 100_000, 2_000_000) });
  console.log("a warehouse day's storage snapshot (one INSERT … SELECT from the bins and the ledger) and its charges, one transaction");
  for (const r of runs) {
    if (r.snapshotMs > STORAGE_TARGET_MS) failed = true;
    console.log(
      `  ${r.provider.padEnd(10)} ${r.locations} occupied locations: ${ms(r.snapshotMs)} (target <= ${STORAGE_TARGET_MS} ms: ` +
        `${r.snapshotMs <= STORAGE_TARGET_MS ? 'ok' : 'OVER'}); ${r.snapshots} snapshots, ${r.charges} charges`,
    );
  }
}

if (sections.includes('invoices')) {
  const runs = await invoiceBench({ charges: int('FOS_BENCH_INVOICE_CHARGES', 100_000, 2_000_000) });
  console.log("a month's invoice for one merchant (generated on demand: claim, sums by category, totals; one transaction)");
  for (const r of runs) {
    const worst = Math.max(r.generateMs, r.regenerateMs);
    if (worst > INVOICE_TARGET_MS) failed = true;
    console.log(
      `  ${r.provider.padEnd(10)} ${r.charges} charges: generate ${ms(r.generateMs)}, regenerate ${ms(r.regenerateMs)} ` +
        `(target <= ${INVOICE_TARGET_MS} ms: ${worst <= INVOICE_TARGET_MS ? 'ok' : 'OVER'}); finalize ${ms(r.finalizeMs)}, PDF + QuickBooks CSV ${ms(r.documentsMs)}`,
    );
  }
}

if (sections.includes('billing')) {
  const runs = await billingBench({ n: int('FOS_BENCH_BILLING_FULFILLMENTS', 2000, 100_000) });
  console.log(
    'billing a fulfillment by a versioned rate card (shipping, pick, pack, packaging: 4 charges, and the outbox passes that take their events; ' +
      'server CPU over a write transaction without it)',
  );
  for (const r of runs) {
    if (r.addedMs > BILLING_TARGET_MS) failed = true;
    console.log(
      `  ${r.provider.padEnd(10)} ${r.fulfillments} fulfillments: ${r.addedMs.toFixed(3)} ms CPU added each ` +
        `(target <= ${BILLING_TARGET_MS} ms: ${r.addedMs <= BILLING_TARGET_MS ? 'ok' : 'OVER'}; ${r.billMs.toFixed(3)} ms with the transaction)`,
    );
  }
}

if (sections.includes('lists')) {
  const l = await listBench({ orders: LIST_ORDERS, runs: RUNS * 2 });
  const size = l.seeded ? `${l.seeded.orders} orders seeded in ${(l.seeded.ms / 1000).toFixed(1)} s` : process.env.FOS_BENCH_LIST_DB;
  console.log(
    `list queries (${l.provider}; ${size}; p95 of ${RUNS * 2} runs, limit 20; target p95 <= ${LIST_TARGET_MS} ms at 1M orders, ` +
      '100,000 packages, charges, files, products)',
  );
  for (const r of l.results) {
    console.log(
      `  ${r.name.padEnd(58)} ${String(r.rows).padStart(3)} rows  p50 ${ms(r.p50).padStart(9)}  p95 ${ms(r.p95).padStart(9)}  ` +
        `${r.p95 <= LIST_TARGET_MS ? 'ok' : 'OVER'} (target ${LIST_TARGET_MS} ms)`,
    );
  }
}

if (sections.includes('export')) {
  const e = await exportBench({ orders: int('FOS_BENCH_EXPORT_ORDERS', 20_000, 5_000_000) });
  const projected = EXPORT_TARGET.orders / e.perSecond;
  console.log('fos orders list --all --format ndjson (the streaming export, GET /v1/ops/orders/export; tier-4 key, SQLite)');
  console.log(
    `  ${e.orders} orders in ${e.seconds.toFixed(1)} s: ${e.perSecond.toFixed(0)} orders/s; at that rate ${EXPORT_TARGET.orders.toLocaleString('en')} take ` +
      `${projected.toFixed(0)} s (target <= ${EXPORT_TARGET.seconds} s: ${projected <= EXPORT_TARGET.seconds ? 'ok' : 'OVER'}; an export counts one request per 10,000 records)`,
  );
  console.log(
    `  CLI RSS: ${e.earlyRssMiB.toFixed(0)} MiB in the first tenth, ${e.lateRssMiB.toFixed(0)} MiB in the last, peak ${e.peakRssMiB.toFixed(0)} MiB`,
  );
}

if (sections.includes('batch')) {
  const b = await batchBench({ packages: int('FOS_BENCH_BATCH_PACKAGES', 500, 2000) });
  const ok = b.totalSeconds <= BATCH_TARGET_S;
  if (!ok) failed = true;
  console.log(
    `label batch of ${b.packages} packages (rate table, in-process fos serve on SQLite): labels bought in ${b.buySeconds.toFixed(1)} s, ` +
      `merged PDF (${b.pdfMiB.toFixed(1)} MiB) in hand after ${b.totalSeconds.toFixed(1)} s (target <= ${BATCH_TARGET_S} s: ${ok ? 'ok' : 'OVER'})`,
  );
  // The same batch against a carrier that answers each call in FOS_BENCH_BATCH_LATENCY_MS (default
  // 300): bound by the batch's parallelism; fos's own work may add at most what the rate table took.
  const latency = int('FOS_BENCH_BATCH_LATENCY_MS', 300, 5000);
  const c = await batchBench({ packages: int('FOS_BENCH_BATCH_PACKAGES', 500, 2000), carrierLatencyMs: latency });
  const target = c.boundSeconds + BATCH_TARGET_S;
  const cOk = c.totalSeconds <= target;
  if (!cOk) failed = true;
  console.log(
    `label batch of ${c.packages} packages (EasyPost double answering in ${latency} ms, ${c.concurrency} in flight; calls ${JSON.stringify(c.carrierCalls)}): ` +
      `merged PDF in hand after ${c.totalSeconds.toFixed(1)} s; the parallelism bound is ${c.boundSeconds.toFixed(1)} s ` +
      `(target <= bound + ${BATCH_TARGET_S} s = ${target.toFixed(1)} s: ${cOk ? 'ok' : 'OVER'})`,
  );
}

if (sections.includes('soak')) {
  const s = await soakBench({ requests: SOAK_REQUESTS, idleSeconds: SOAK_IDLE, minutes: SOAK_MINUTES });
  const ok = s.ratio <= SOAK_RSS_FACTOR && s.failures === 0;
  if (!ok) failed = true;
  const m = (x) => `${x.rss.toFixed(0)} MiB (anonymous ${x.anon.toFixed(0)}, heap used ${x.heapUsed.toFixed(0)})`;
  console.log(
    `soak on ${s.database} (${s.requests} mixed requests, ~${s.fulfillments} of them whole fulfillments, in ${s.seconds.toFixed(1)} s; ` +
      `${s.delivered} webhook deliveries received; statuses ${JSON.stringify(s.statuses)}; 5xx or broken: ${s.failures})`,
  );
  console.log(
    `  RSS idle after start ${m(s.idle)} -> after the load ${m(s.loaded)} -> ${s.idleSeconds} s idle ${m(s.rested)}: ` +
      `x${s.ratio.toFixed(2)} (target <= x${SOAK_RSS_FACTOR}, no 5xx) ${ok ? 'ok' : 'OVER'}`,
  );
  if (s.samples.length)
    console.log(
      `  each minute (RSS / heap used, MiB): ${s.samples.map((x) => `${x.minute}: ${x.rss?.toFixed(0)} / ${x.heapUsed?.toFixed(0)}`).join(', ')}`,
    );
  if (s.growth)
    console.log(
      `  growth from minute ${s.growth.fromMinute} to ${s.growth.toMinute}: RSS ${s.growth.rss >= 0 ? '+' : ''}${s.growth.rss.toFixed(0)} MiB, ` +
        `heap used ${s.growth.heapUsed >= 0 ? '+' : ''}${s.growth.heapUsed.toFixed(0)} MiB`,
    );
}

if (sections.includes('bulk')) {
  const ledger = Number(process.env.FOS_BENCH_BULK_LEDGER) || 0;
  const out = await bulkBench({ runs: int('FOS_BENCH_BULK_RUNS', 3, 20), ledger });
  const { lines, over } = bulkReport(out);
  console.log(
    `bulk writes (median of runs${ledger ? `; ${ledger.toLocaleString('en-US')} older movements first` : ''}; load average ${(await import('node:os')).loadavg()[0].toFixed(1)})`,
  );
  for (const line of lines) console.log(line);
  if (over) failed = true;
}

if (sections.includes('import')) {
  const pgUrl = process.env.FOS_BENCH_IMPORT_PG === 'off' ? undefined : PG_URL;
  const runs = int('FOS_BENCH_IMPORT_RUNS', 3, 20);
  const { lines, over } = importReport(await importBench({ runs, pgUrl }));
  console.log(
    `fos products import, 10,000 rows: the CLI spawned against fos serve --demo (own process, default request log), ` +
      `spawn to exit, median of ${runs} fresh servers (load average ${os.loadavg()[0].toFixed(1)})`,
  );
  for (const line of lines) console.log(line);
  if (over) failed = true;
}

if (sections.includes('scale')) {
  const rows = await scaleBench({
    pgUrl: PG_URL,
    orders: int('FOS_BENCH_SCALE_ORDERS', 80, 2000),
    dbs: (process.env.FOS_BENCH_SCALE_DBS ?? 'sqlite,postgresql').split(','),
    replicaCounts: (process.env.FOS_BENCH_SCALE_REPLICAS ?? '1,2').split(',').map(Number),
    skuCounts: (process.env.FOS_BENCH_SCALE_SKUS ?? '20,2').split(',').map(Number),
    onCell: (cells) => console.error(`scale: ${JSON.stringify(cells.map(({ errors, ...c }) => ({ ...c, failed: errors.length })))}`),
  });
  console.log(
    `scale: the fulfillment workflow from a worker thread (${os.cpus().length} cores; p95 per step; failed = a workflow answered non-2xx)`,
  );
  for (const line of scaleReport(rows)) console.log(line);
}

if (sections.includes('scale-out')) {
  const rows = await scaleOutBench({
    adminUrl: process.env.FOS_BENCH_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres',
    orders: int('FOS_BENCH_SCALE_ORDERS', 300, 5000),
    replicaCounts: (process.env.FOS_BENCH_SCALE_REPLICAS ?? '1,2,4')
      .split(',')
      .map(Number)
      .filter((n) => n > 0),
  });
  console.log(`scale-out: fulfillment workflow over replicas on one PostgreSQL database (${os.cpus().length} cores)`);
  for (const line of scaleOutReport(rows)) console.log(line);
}

process.exitCode = failed ? 1 : 0;
