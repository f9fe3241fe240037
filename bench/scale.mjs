// Throughput under load (issue 36 item 4): `npm run bench -- scale`. The fulfillment workflow
// (accept, lock, read, package, label, fulfill) from a worker thread at concurrency 4 and 16,
// against 1 and 2 `fos serve` replicas (own processes, `--rate-limit-store database`, as several
// servers on one database run) on SQLite (one file) and PostgreSQL (FOS_BENCH_PG_URL, a fresh
// database per cell), with orders spread over 20 SKUs and over 2 (every order takes the same two
// inventory rows: the hot-row case). Per cell: fulfillments/s, p95 of each step, failed
// workflows (any non-2xx: a deadlock or busy answer that reached the client), and the deadlocks
// and transaction retries the servers absorbed (their GET /metrics, summed over the replicas).
// FOS_BENCH_SCALE_ORDERS (fulfillments per cell, default 80), FOS_BENCH_SCALE_DBS (sqlite,postgresql),
// FOS_BENCH_SCALE_REPLICAS (1,2), FOS_BENCH_SCALE_SKUS (20,2).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Agent } from 'undici';
import { seed } from './api.mjs';
import { cleanEnv, percentile, ROOT, startServe, stopServe } from './lib.mjs';
import { client } from './workflow.mjs';

const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
const STEPS = ['accept', 'lock', 'read', 'package', 'label', 'fulfill'];
const KEYS = 8;
const METRICS_TOKEN = 'scale-metrics-token';

/** Deadlocks and transaction retries (any cause) the servers counted so far, summed. */
async function retriesOf(servers) {
  let deadlocks = 0;
  let retries = 0;
  for (const s of servers) {
    const res = await fetch(`${s.url.replace(/\/v1$/, '')}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    for (const [, name, value] of (await res.text()).matchAll(
      /^(fos_db_deadlocks_total|fos_db_transaction_retries_total)(?:\{[^}]*\})? (\S+)$/gm,
    )) {
      if (name === 'fos_db_deadlocks_total') deadlocks += Number(value);
      else retries += Number(value);
    }
  }
  return { deadlocks, retries };
}

/** One workflow, each step timed into `times`. */
async function workflow(api, id, i, times) {
  const step = async (name, fn) => {
    const t0 = performance.now();
    const r = await fn();
    times[name].push(performance.now() - t0);
    return r;
  };
  const owner = `scale-${i}`;
  await step('accept', () => api('POST', `/ops/fulfillment-orders/${id}/accept`));
  await step('lock', () => api('POST', `/ops/fulfillment-orders/${id}/lock`, { lock_owner: owner, timeout_minutes: 5 }));
  const fo = (await step('read', () => api('GET', `/ops/fulfillment-orders/${id}`))).data;
  const lines = fo.line_items.map((l) => ({ core_fulfillment_order_line_item_id: l.id, quantity: l.remaining_quantity }));
  const pkg = (
    await step('package', () =>
      api('POST', '/ops/packages', { fulfillment_order_id: id, idempotency_key: `s-${id}`, weight: 900, package_line_items: lines }),
    )
  ).data;
  await step('label', () => api('POST', `/ops/packages/${pkg.id}/label`, { rate_strategy: 'CHEAPEST' }));
  await step('fulfill', () => api('POST', `/ops/packages/${pkg.id}/fulfill`, { locked_by: owner }));
}

if (!isMainThread && workerData?.scale) {
  const { bases, tokens, foIds, concurrency } = workerData.scale;
  const agent = new Agent({ connections: 32, keepAliveTimeout: 10_000 });
  const apis = bases.flatMap((b) => tokens.map((t) => client(b, t, agent)));
  const times = Object.fromEntries(STEPS.map((s) => [s, []]));
  const errors = [];
  let next = 0;
  const started = performance.now();
  const run = async () => {
    while (next < foIds.length) {
      const i = next++;
      await workflow(apis[i % apis.length], foIds[i], i, times).catch((e) => errors.push(String(e.message).slice(0, 160)));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, run));
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  parentPort.postMessage({ seconds, done: foIds.length - errors.length, errors, times });
}

const inWorker = (scale) =>
  new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { scale } });
    w.once('message', resolve);
    w.once('error', reject);
  });

/** A fresh database: a SQLite file in `dir`, or a PostgreSQL database beside `pgUrl`'s. */
async function freshDb(kind, dir, pgUrl) {
  if (kind === 'sqlite') return { url: path.join(dir, `scale-${randomBytes(4).toString('hex')}.db`), drop: async () => undefined };
  const pg = (await import('pg')).default;
  const name = `fos_bench_scale_${randomBytes(4).toString('hex')}`;
  const admin = async (sql) => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  return {
    url: Object.assign(new URL(pgUrl), { pathname: `/${name}` }).toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** Both concurrencies on one database with `replicas` servers and orders over `skus` SKUs. */
async function cell(kind, replicas, skus, orders, dir, pgUrl) {
  const target = await freshDb(kind, dir, pgUrl);
  const { migrate } = await dist('db/migrate.js');
  const { createDb } = await dist('db/client.js');
  const { bootstrapIfEmpty } = await dist('domain/bootstrap.js');
  const { createKey } = await dist('domain/keys/keys.js');
  await migrate(target.url);
  const db = await createDb(target.url);
  const servers = [];
  const agent = new Agent({ connections: 4 });
  try {
    const teamId = (await bootstrapIfEmpty(db)).teamId;
    const key = async (n) => (await createKey(db, teamId, { name: n, power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    for (let r = 0; r < replicas; r++)
      servers.push(
        await startServe({
          db: target.url,
          env: cleanEnv({ HOME: dir }),
          args: ['--rate-limit-store', 'database', '--metrics-token', METRICS_TOKEN],
        }),
      );
    const setup = client(servers[0].url, await key('scale setup'), agent);
    for (const [service, amount] of [
      ['ground', 5.4],
      ['express', 12.9],
    ])
      await setup('POST', '/ops/carrier-rates', {
        carrier_id: 'ups',
        carrier_name: 'UPS',
        service_id: service,
        service_name: service,
        amount,
      });
    const warm = 8 * replicas;
    const orderIds = await seed({ db, bootstrap: { teamId } }, setup, { products: skus, orders: warm + 2 * orders });
    const foIds = [];
    for (const id of orderIds) foIds.push(...(await setup('GET', `/ops/fulfillment-orders?order_id=${id}`)).data.data.map((f) => f.id));
    const tokens = [];
    for (let i = 0; i < KEYS; i++) tokens.push(await key(`scale ${i}`));
    const bases = servers.map((s) => s.url);
    await inWorker({ bases, tokens, foIds: foIds.splice(0, warm), concurrency: 4 });
    const out = [];
    for (const concurrency of [4, 16]) {
      const before = await retriesOf(servers);
      const w = await inWorker({ bases, tokens, foIds: foIds.splice(0, orders), concurrency });
      const after = await retriesOf(servers);
      const p95 = Object.fromEntries(STEPS.map((s) => [s, percentile(w.times[s], 95)]));
      out.push({
        kind,
        replicas,
        skus,
        concurrency,
        perSecond: w.done / w.seconds,
        done: w.done,
        errors: w.errors,
        deadlocks: after.deadlocks - before.deadlocks,
        retries: after.retries - before.retries,
        p95,
        load: os.loadavg()[0],
      });
    }
    return out;
  } finally {
    await agent.close();
    await Promise.all(servers.map(stopServe));
    await db.close();
    await target.drop();
  }
}

export async function scaleBench({
  pgUrl,
  orders = 80,
  dbs = ['sqlite', 'postgresql'],
  replicaCounts = [1, 2],
  skuCounts = [20, 2],
  onCell = () => {},
}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fos-bench-scale-'));
  const rows = [];
  try {
    for (const kind of dbs)
      for (const replicas of replicaCounts)
        for (const skus of skuCounts) {
          const done = await cell(kind, replicas, skus, orders, dir, pgUrl);
          rows.push(...done);
          onCell(done);
        }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

export function scaleReport(rows) {
  const head = `  ${'database'.padEnd(10)} repl  SKUs  conc  fulfill/s  failed  deadlocks/retries  ${STEPS.map((s) => `p95 ${s}`.padStart(12)).join('')}  load`;
  const lines = rows.map(
    (r) =>
      `  ${r.kind.padEnd(10)} ${String(r.replicas).padStart(4)}  ${String(r.skus).padStart(4)}  ${String(r.concurrency).padStart(4)}  ` +
      `${r.perSecond.toFixed(1).padStart(8)}  ${String(r.errors.length).padStart(6)}  ${`${r.deadlocks}/${r.retries}`.padStart(17)}  ${STEPS.map((s) => `${r.p95[s].toFixed(0)} ms`.padStart(12)).join('')}  ${r.load.toFixed(1)}`,
  );
  const scaled = rows
    .filter((r) => r.concurrency === 16)
    .map((r) => {
      const at4 = rows.find((x) => x.kind === r.kind && x.replicas === r.replicas && x.skus === r.skus && x.concurrency === 4);
      return r.perSecond >= at4.perSecond && !r.errors.length && !at4.errors.length;
    });
  const errors = rows.flatMap((r) =>
    r.errors.slice(0, 2).map((e) => `    ${r.kind} x${r.replicas} ${r.skus} SKUs c${r.concurrency}: ${e}`),
  );
  return [
    head,
    ...lines,
    `  fulfillments/s at 16 >= at 4 and no failed workflow in ${scaled.filter(Boolean).length} of ${scaled.length} cells (target: all)`,
    ...errors,
  ];
}
