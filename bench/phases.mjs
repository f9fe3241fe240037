// Where a fulfillment's server time goes, per request type: `node bench/phases.mjs [orders]`
// (after `npm run build`). An in-process server (SQLite temp file) with the `api` section's
// seed; the clients run in a worker thread, one request type at a time over every fulfillment
// order (accept all, then lock all, read, package, label, fulfill), and the server thread's CPU
// per request of each type is printed. FOS_BENCH_TIME_PHASE=<type> also times every SQL
// statement of that phase at the driver (wall time, per request), to see which ones cost.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import Database from 'libsql';
import { Agent } from 'undici';
import { mainThreadCpuMs, ROOT } from './lib.mjs';
import { client, runPhase } from './workflow.mjs';

const PHASES = ['accept', 'lock', 'get', 'package', 'label', 'fulfill'];

/** Wall time per SQL text at the driver while `on()`; `report(n)` prints it per request. */
function statementTimer() {
  const sqlOf = new WeakMap();
  const timing = new Map();
  let on = false;
  const note = (sql, t0) => {
    const k = sql.replace(/\s+/g, ' ').trim().slice(0, 140);
    const e = timing.get(k) ?? { n: 0, ns: 0n };
    e.n++;
    e.ns += process.hrtime.bigint() - t0;
    timing.set(k, e);
  };
  const dbProto = Database.prototype;
  const prepare = dbProto.prepare;
  dbProto.prepare = function (sql) {
    const st = prepare.call(this, sql);
    sqlOf.set(st, sql);
    return st;
  };
  const exec = dbProto.exec;
  dbProto.exec = function (sql) {
    if (!on) return exec.call(this, sql);
    const t0 = process.hrtime.bigint();
    try {
      return exec.call(this, sql);
    } finally {
      note(sql, t0);
    }
  };
  const probe = new Database(':memory:');
  const stProto = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  for (const m of ['all', 'run']) {
    const orig = stProto[m];
    stProto[m] = function (...a) {
      if (!on) return orig.apply(this, a);
      const t0 = process.hrtime.bigint();
      try {
        return orig.apply(this, a);
      } finally {
        note(sqlOf.get(this) ?? '?', t0);
      }
    };
  }
  return {
    start: () => {
      timing.clear();
      on = true;
    },
    report: (n) => {
      on = false;
      for (const [k, e] of [...timing].sort((a, b) => Number(b[1].ns - a[1].ns))) {
        console.log(`    ${(Number(e.ns) / 1e6 / n).toFixed(3)} ms x${(e.n / n).toFixed(1)}  ${k}`);
      }
    },
  };
}

if (!isMainThread) {
  parentPort.postMessage(await runPhase(workerData));
} else {
  const timed = process.env.FOS_BENCH_TIME_PHASE;
  const timer = timed ? statementTimer() : undefined;
  const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
  const { seed } = await import('./api.mjs');
  const { startServer } = await dist('server/serve.js');
  const { createKey } = await dist('domain/keys/keys.js');
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-phases-'));
  const server = await startServer({ db: path.join(dir, 'fos.db'), host: '127.0.0.1', port: 0, logger: false });
  const agent = new Agent({ connections: 8 });
  try {
    const token = (await createKey(server.db, server.bootstrap.teamId, { name: 'phases', power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    const api = client(server.url, token, agent);
    const orders = await seed(server, api, { products: 50, orders: Number(process.argv[2] ?? 200) });
    const foIds = [];
    for (const o of orders) foIds.push(...(await api('GET', `/ops/fulfillment-orders?order_id=${o}`)).data.data.map((f) => f.id));
    console.log(`server-thread CPU per request (${foIds.length} fulfillment orders, 4 clients in a worker thread)`);
    let total = 0;
    let previous;
    for (const phase of PHASES) {
      const ids = phase === 'label' || phase === 'fulfill' ? previous.packages : foIds;
      const extra = phase === 'package' ? previous.lines : undefined;
      if (phase === timed) timer.start();
      const t0 = await mainThreadCpuMs();
      const out = await new Promise((resolve, reject) => {
        const w = new Worker(new URL(import.meta.url), { workerData: { base: server.url, token, phase, ids, extra } });
        w.once('message', resolve);
        w.once('error', reject);
      });
      const msEach = ((await mainThreadCpuMs()) - t0) / ids.length;
      total += msEach;
      console.log(`  ${phase.padEnd(8)} ${msEach.toFixed(2)} ms`);
      if (phase === timed) timer.report(ids.length);
      if (phase === 'get') previous = { lines: out };
      if (phase === 'package') previous = { packages: out };
    }
    console.log(`  ${'workflow'.padEnd(8)} ${total.toFixed(2)} ms`);
  } finally {
    await agent.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
