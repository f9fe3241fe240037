// The fulfillment's server CPU beside its floor (issue 29 item 1): `npm run bench -- floor`.
// An in-process server (dist/) on a temporary SQLite file, or a PostgreSQL database
// (FOS_BENCH_FLOOR_PG=postgres://…/postgres: a database fos_floor_<pid> is made there and dropped), seeded like the `api` section. Every fulfillment order is
// accepted and read first (not timed); then a copy of the database is taken, and the four
// workflow writes (lock, package, label, fulfill) run one request type at a time from a worker
// thread over every fulfillment order, while the server thread's CPU is read (as bench/phases.mjs)
// and every statement the driver runs is recorded with its arguments. The floor replays exactly
// those statements, in order, with the same arguments and the same BEGIN/COMMITs, through the raw
// driver on the copy (libsql: each statement prepared once; pg: one client, plain queries), and
// its CPU on this thread is the hand-written floor of the same work.
// FOS_BENCH_FLOOR_PROFILE=<file>.cpuprofile: a CPU profile of the server thread over the four
// phases (bench/profile-summary.mjs sums it by package).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { mainThreadCpuMs, ROOT } from './lib.mjs';
import { client, runPhase } from './workflow.mjs';

export const FLOOR_TARGET_RATIO = 4;
const PHASES = ['lock', 'package', 'label', 'fulfill'];
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);

const inWorker = (base, token, phase, ids, extra) =>
  new Promise((resolve, reject) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { floorPhase: { base, token, phase, ids, extra } } });
    w.once('message', resolve);
    w.once('error', reject);
  });

/** Runs `fn(i)` for every recorded statement; returns this thread's CPU ms for the replay. */
async function timed(fn) {
  const t0 = await mainThreadCpuMs();
  await fn();
  return (await mainThreadCpuMs()) - t0;
}

/** SQLite: records what libSQL runs (prepared statements' all/run, exec), and replays it on a copy. */
async function sqliteDriver() {
  const { default: Database } = await import('libsql');
  const log = [];
  let on = false;
  const sqlOf = new WeakMap();
  const dbProto = Database.prototype;
  const { prepare, exec } = dbProto;
  dbProto.prepare = function (sql) {
    const st = prepare.call(this, sql);
    sqlOf.set(st, sql);
    return st;
  };
  dbProto.exec = function (sql) {
    if (on && !sql.startsWith('PRAGMA')) log.push({ exec: sql });
    return exec.call(this, sql);
  };
  const probe = new Database(':memory:');
  const stProto = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  for (const m of ['all', 'run', 'get']) {
    const orig = stProto[m];
    stProto[m] = function (...a) {
      const sql = sqlOf.get(this);
      if (on && sql && !sql.startsWith('PRAGMA')) log.push({ sql, args: a[0] ?? [] });
      return orig.apply(this, a);
    };
  }
  return {
    log,
    record: (x) => (on = x),
    copy: async (server, to) => {
      const db = new Database(server.dbFile);
      db.exec(`VACUUM INTO '${to}'`);
      db.close();
      return to;
    },
    replay: async (copy) => {
      on = false;
      const db = new Database(copy, { timeout: 5000 });
      for (const p of ['journal_mode = WAL', 'foreign_keys = ON', 'synchronous = NORMAL']) db.exec(`PRAGMA ${p}`);
      const cache = new Map();
      let failed = 0;
      const cpuMs = await timed(async () => {
        for (const s of log) {
          if (s.exec) {
            db.exec(s.exec);
            continue;
          }
          let st = cache.get(s.sql);
          if (!st) cache.set(s.sql, (st = db.prepare(s.sql)));
          try {
            st.reader ??= st.columns().length > 0;
            if (st.reader) st.all(s.args);
            else st.run(s.args);
          } catch {
            failed++;
          }
        }
      });
      db.close();
      return { cpuMs, failed };
    },
  };
}

/** PostgreSQL: records what pg runs, per connection, a transaction as one unit; replays the units in order on a copy. */
async function pgDriver(url) {
  const pg = (await import('pg')).default;
  const log = [];
  let on = false;
  const proto = pg.Client.prototype;
  const query = proto.query;
  proto.query = function (config, values, cb) {
    if (on) {
      const text = typeof config === 'string' ? config : config?.text;
      const args = (typeof config === 'object' && config?.values) || (Array.isArray(values) ? values : []);
      if (text) {
        const q = { text, values: args };
        if (/^\s*BEGIN/i.test(text)) this.__floorTx = [q];
        else if (this.__floorTx) {
          this.__floorTx.push(q);
          if (/^\s*(COMMIT|ROLLBACK)/i.test(text)) log.push(this.__floorTx.splice(0));
          if (/^\s*(COMMIT|ROLLBACK)/i.test(text)) this.__floorTx = undefined;
        } else log.push([q]);
      }
    }
    return query.call(this, config, values, cb);
  };
  const admin = async (sql) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  const dbName = new URL(url).pathname.slice(1);
  const withDb = (name) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();
  return {
    log,
    statementsOf: () => log.flat().filter((q) => !/^\s*(BEGIN|COMMIT|ROLLBACK)/i.test(q.text)).length,
    commitsOf: () => log.flat().filter((q) => /^\s*COMMIT/i.test(q.text)).length,
    record: (x) => (on = x),
    create: async (name) => {
      await admin(`DROP DATABASE IF EXISTS "${name}"`);
      await admin(`CREATE DATABASE "${name}"`);
      return withDb(name);
    },
    copy: async (from, to) => {
      await admin(`DROP DATABASE IF EXISTS "${to}"`);
      await admin(`CREATE DATABASE "${to}" TEMPLATE "${from}"`);
      return withDb(to);
    },
    drop: async (name) => admin(`DROP DATABASE IF EXISTS "${name}"`),
    replay: async (copyUrl) => {
      on = false;
      const c = new pg.Client({ connectionString: copyUrl });
      await c.connect();
      let failed = 0;
      const cpuMs = await timed(async () => {
        for (const unit of log)
          for (const q of unit) {
            try {
              await c.query(q.text, q.values);
            } catch {
              failed++;
            }
          }
      });
      await c.end();
      return { cpuMs, failed };
    },
    dbName,
  };
}

/** A CPU profile of this (the server's) thread, written as a .cpuprofile when stopped. */
async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    stop: async (file) => {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await writeFile(file, JSON.stringify(profile));
    },
  };
}

/**
 * Server CPU per fulfillment (the four writes) beside the floor; `orders` converted orders of
 * two lines each (about one fulfillment order each).
 */
export async function floorBench({ orders = 200, pgUrl, profileFile = process.env.FOS_BENCH_FLOOR_PROFILE } = {}) {
  const pg = pgUrl ? await pgDriver(pgUrl) : undefined;
  const driver = pg ?? (await sqliteDriver());
  const { seed } = await import('./api.mjs');
  const { startServer } = await dist('server/serve.js');
  const { createKey } = await dist('domain/keys/keys.js');
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-floor-'));
  const name = `fos_floor_${process.pid}`;
  const db = pg ? await pg.create(name) : path.join(dir, 'fos.db');
  const start = () => startServer({ db, host: '127.0.0.1', port: 0, logger: false });
  let server = await start();
  const { Agent } = await import('undici');
  const agent = new Agent({ connections: 4 });
  try {
    const token = (await createKey(server.db, server.bootstrap.teamId, { name: 'floor', power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    const api = client(server.url, token, agent);
    const orderIds = await seed(server, api, { products: 50, orders });
    const foIds = [];
    for (const o of orderIds) foIds.push(...(await api('GET', `/ops/fulfillment-orders?order_id=${o}`)).data.data.map((f) => f.id));
    await inWorker(server.url, token, 'accept', foIds);
    const lines = await inWorker(server.url, token, 'get', foIds);
    let copy;
    if (pg) {
      // A database is copied only while no one is connected to it: the server stops meanwhile.
      await server.close();
      copy = await pg.copy(name, `${name}_copy`);
      server = await start();
      await client(server.url, token, agent)('GET', `/ops/fulfillment-orders/${foIds[0]}`); // the key, resolved again
    } else copy = await driver.copy({ dbFile: db }, path.join(dir, 'floor.db'));
    const phases = {};
    let packages;
    const profiler = profileFile ? await startProfile() : undefined;
    driver.record(true);
    for (const phase of PHASES) {
      const ids = phase === 'label' || phase === 'fulfill' ? packages : foIds;
      const t0 = await mainThreadCpuMs();
      const out = await inWorker(server.url, token, phase, ids, phase === 'package' ? lines : undefined);
      phases[phase] = ((await mainThreadCpuMs()) - t0) / foIds.length;
      if (phase === 'package') packages = out;
    }
    driver.record(false);
    if (profiler) await profiler.stop(profileFile);
    const statements = (pg ? pg.statementsOf() : driver.log.filter((s) => s.sql).length) / foIds.length;
    const commits = (pg ? pg.commitsOf() : driver.log.filter((s) => s.exec === 'COMMIT').length) / foIds.length;
    const floor = await driver.replay(copy);
    const fos = PHASES.reduce((a, p) => a + phases[p], 0);
    const floorMs = floor.cpuMs / foIds.length;
    const provider = pg ? 'postgresql' : 'sqlite';
    return {
      provider,
      fulfillments: foIds.length,
      phases,
      fosMs: fos,
      floorMs,
      ratio: fos / floorMs,
      statements,
      commits,
      failed: floor.failed,
    };
  } finally {
    await agent.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
    if (pg) for (const n of [name, `${name}_copy`]) await pg.drop(n).catch(() => undefined);
  }
}

if (!isMainThread && workerData?.floorPhase) parentPort.postMessage(await runPhase(workerData.floorPhase));
