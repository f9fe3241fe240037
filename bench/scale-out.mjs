// Scale-out (issue 29 item 5): the fulfillment workflow (accept, lock, read, package, label,
// fulfill) against 1, 2 and 4 `fos serve` replicas on one PostgreSQL database, each replica its
// own process started as users start one (`--rate-limit-store database`, the shared budget).
// Per replica count: fulfillments/s (wall), and CPU per fulfillment of the replicas (sum of their
// processes) and of PostgreSQL (every `postgres` process on the machine, from /proc), plus how
// often a backend was seen waiting on a lock (pg_stat_activity sampled every 50 ms): a row every
// fulfillment locks would show as waits growing with the replica count.
// FOS_BENCH_PG_URL (default postgres://root@127.0.0.1:5432/postgres), FOS_BENCH_SCALE_ORDERS
// (fulfillment orders per replica count, default 300), FOS_BENCH_SCALE_REPLICAS (default 1,2,4).
import { readdir, readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { Agent } from 'undici';
import { seed } from './api.mjs';
import { cleanEnv, cpuMsOfPid, ROOT, startServe, stopServe } from './lib.mjs';
import { client, runWorkflowsInWorker } from './workflow.mjs';

const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
const KEYS = 16; // tier-4 keys (3,000 requests a minute each): the limiter is never what bounds the run

/** CPU (ms) of every process named `postgres` (the server and its backends). */
async function postgresCpuMs() {
  let total = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const comm = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
    if (comm.trim() === 'postgres') total += (await cpuMsOfPid(pid)) ?? 0;
  }
  return total;
}

/** Samples pg_stat_activity until stopped: how many backends of `database` wait on a lock. */
function lockWaitSampler(adminUrl, database) {
  const c = new pg.Client({ connectionString: adminUrl });
  let samples = 0;
  let waiting = 0;
  const statements = new Map(); // waiting statement (first 80 characters) -> samples seen waiting
  let stopped = false;
  const done = (async () => {
    await c.connect();
    while (!stopped) {
      const r = await c.query(
        "SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 80) AS q FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
        [database],
      );
      samples++;
      waiting += r.rows.length;
      for (const { q } of r.rows) statements.set(q, (statements.get(q) ?? 0) + 1);
      await new Promise((res) => setTimeout(res, 50));
    }
    await c.end();
  })();
  return async () => {
    stopped = true;
    await done;
    const top = [...statements].sort((a, b) => b[1] - a[1]).slice(0, 3);
    return { samples, waiting, top };
  };
}

async function withDatabase(adminUrl, fn) {
  const name = `fos_bench_scale_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString(), name);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** One replica count on a fresh database: seed through replica 0, then the timed workflows over all. */
async function runReplicas(adminUrl, replicas, orders) {
  return withDatabase(adminUrl, async (url, database) => {
    const { migrate } = await dist('db/migrate.js');
    const { createDb } = await dist('db/client.js');
    const { bootstrapIfEmpty } = await dist('domain/bootstrap.js');
    const { createKey } = await dist('domain/keys/keys.js');
    await migrate(url);
    const db = await createDb(url);
    const teamId = (await bootstrapIfEmpty(db)).teamId;
    const key = async (name) => (await createKey(db, teamId, { name, power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    const servers = await Promise.all(
      Array.from({ length: replicas }, () =>
        startServe({ db: url, env: cleanEnv({ HOME: os.tmpdir() }), args: ['--rate-limit-store', 'database'] }),
      ),
    );
    const agent = new Agent({ connections: 16 });
    try {
      const setup = client(servers[0].url, await key('scale setup'), agent);
      // No two orders share a product: a lock wait measured is then the design's (a row every
      // fulfillment takes), not the seed's.
      const warm = 20 * replicas; // untimed first: every replica's code optimised before the timed run
      const orderIds = await seed({ db, bootstrap: { teamId } }, setup, {
        products: 2 * (orders + warm),
        orders: orders + warm,
        distinct: true,
      });
      const foIds = [];
      for (const id of orderIds) foIds.push(...(await setup('GET', `/ops/fulfillment-orders?order_id=${id}`)).data.data.map((f) => f.id));
      const tokens = [];
      for (let i = 0; i < KEYS; i++) tokens.push(await key(`scale ${i}`));
      const bases = servers.map((s) => s.url);
      const warmIds = foIds.splice(0, warm);
      await runWorkflowsInWorker({ bases, tokens, foIds: warmIds, concurrency: 4 * replicas, deadlineMs: 120_000 });
      const cpu = async () => (await Promise.all(servers.map((s) => cpuMsOfPid(s.child.pid)))).reduce((a, b) => a + (b ?? 0), 0);
      // The replicas' background work (outbox, schedulers) costs CPU with no request: measured
      // idle for 3 s, so its share of a fulfillment's CPU can be told apart.
      const idle0 = await cpu();
      await new Promise((res) => setTimeout(res, 3000));
      const idleMsPerSecond = ((await cpu()) - idle0) / 3;
      const [fos0, pg0] = [await cpu(), await postgresCpuMs()];
      const stopSampling = lockWaitSampler(adminUrl, database);
      const w = await runWorkflowsInWorker({
        bases,
        tokens,
        foIds,
        concurrency: 4 * replicas,
        deadlineMs: 120_000,
      });
      const locks = await stopSampling();
      const [fos1, pg1] = [await cpu(), await postgresCpuMs()];
      const fulfilled = await db.prisma.fulfillmentOrder.count({ where: { id: { in: foIds }, status: 'FULFILLED' } });
      if (fulfilled !== w.done) throw new Error(`scale-out: ${w.done} runs but ${fulfilled} fulfillment orders FULFILLED`);
      await db.close?.();
      return {
        replicas,
        done: w.done,
        perSecond: w.perSecond,
        p50: w.p50,
        fosCpuMs: (fos1 - fos0) / w.done,
        idleCpuMs: (idleMsPerSecond * w.seconds) / w.done,
        pgCpuMs: (pg1 - pg0) / w.done,
        lockWaitsPerSample: locks.waiting / Math.max(1, locks.samples),
        lockWaitTop: locks.top,
      };
    } finally {
      await agent.close();
      await Promise.all(servers.map(stopServe));
    }
  });
}

export async function scaleOutBench({ adminUrl, orders, replicaCounts }) {
  const rows = [];
  for (const n of replicaCounts) rows.push({ ...(await runReplicas(adminUrl, n, orders)), load: os.loadavg()[0] });
  return rows;
}

export function scaleOutReport(rows) {
  const one = rows.find((r) => r.replicas === 1) ?? rows[0];
  return rows.flatMap((r) => [
    `  ${String(r.replicas).padStart(2)} replica(s)  ${r.done} fulfillments: ${r.perSecond.toFixed(1)}/s (x${(r.perSecond / one.perSecond).toFixed(2)}), ` +
      `p50 ${r.p50.toFixed(0)} ms; CPU a fulfillment: fos ${r.fosCpuMs.toFixed(1)} ms (idle work ${r.idleCpuMs.toFixed(1)}), PostgreSQL ${r.pgCpuMs.toFixed(1)} ms; ` +
      `backends waiting on a lock ${r.lockWaitsPerSample.toFixed(2)} on average; load ${r.load.toFixed(1)}`,
    ...r.lockWaitTop.map(([q, n]) => `      waiting ${n}x: ${q}`),
  ]);
}
