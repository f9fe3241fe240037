// The fulfillment's server CPU beside its fair floor (issue 36 item 3): `npm run bench -- floor`.
// A fulfillment is four requests: lock, package, label (rate_strategy CHEAPEST, rated from the
// team's rate table) and fulfill, which bills a SHIPPING charge (the merchant's delegation has a
// rate card). Seeded once (products, rates, orders, accepted fulfillment orders), then copied:
//  - fos:   `fos`'s server in a process of its own (bench/floor-fos.mjs) on one copy;
//  - floor: a plain node:http server on the raw driver (bench/floor-server.mjs) on another copy,
//           answering the same requests with exactly the statements fos ran for each (recorded in
//           a third run on the original: bench/floor-record.mjs), the same auth and the same bodies,
//           and after each the statements fos's workers ran before the next (the outbox pass).
// Both run under `fos serve`'s V8 flags (bin/compile-cache.cjs) and are warmed with the first WARM
// fulfillments; the rest are timed in alternating chunks of CHUNK (fos then the floor, the floor
// then fos, ...), both up, so the machine's load moves both alike: the server PROCESS's CPU
// (/proc/<pid>/stat: every thread, GC and libuv included) over them, per fulfillment, with its
// main thread's share and each step's (all locks, then all packages, ...) beside. One client,
// one request at a time (both servers see the same sequence). SQLite (temp file) and
// PostgreSQL (FOS_BENCH_PG_URL, default postgres://root@127.0.0.1:5432/postgres; a database
// fos_floor_<pid>* is made there and dropped; FOS_BENCH_FLOOR_PG=off skips it).
// FOS_BENCH_FLOOR_PROFILE=<dir>: a CPU profile of fos's server over the timed fulfillments is
// written there (floor-<provider>.cpuprofile; the floor's: floor-<provider>-floor.cpuprofile;
// bench/profile-summary.mjs sums one), their CPU with it. FOS_BENCH_FLOOR_THREADS=1: each side's CPU
// by thread name (V8's helpers, libuv's, the WAL checkpointer) on stderr; =tid: by thread.
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent } from 'undici';
import { preciseCpuMsOfPid, ROOT, threadCpuMsOfPid } from './lib.mjs';
import { client } from './workflow.mjs';

export const FLOOR_TARGET_RATIO = 1.5;
const WARM = 30;
const CHUNK = 25;
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
export const RATE_CARD = {
  id: 'rc_bench',
  name: 'Bench card',
  version_id: 'v1',
  semantic_version: '1.0.0',
  shipping: { fee_per_package: 1.25, markup_percent: 8 },
};

/** A child process that tells its URL over IPC; `call(msg, reply)` sends and awaits an answer holding `reply`. */
const children = new Set();

/** A bench child process of this checkout (or of the checkout at `root`: bench/ab-floor.mjs). */
export function child(script, env, root = ROOT) {
  const p = fork(path.join(root, 'bench', script), { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = (key) =>
    new Promise((resolve, reject) => {
      const on = (m) => m && key in m && (p.off('message', on), resolve(m));
      p.on('message', on);
      p.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
    });
  children.add(p);
  p.once('exit', () => children.delete(p));
  return next('url').then((hello) => ({
    ...hello,
    pid: p.pid,
    call: (msg, reply) => {
      const r = reply ? next(reply) : new Promise((res) => p.once('exit', res));
      p.send(msg);
      return r.then(async (m) => (reply ? m : undefined));
    },
    stop: async (reply) => {
      const exited = new Promise((res) => p.once('exit', res));
      const m = reply ? next(reply) : undefined;
      p.send({ stop: true });
      const out = await m;
      await exited;
      return out;
    },
  }));
}

/** Products, the rate table, the merchant's delegation with its rate card, `orders` accepted fulfillment orders and their lines. */
export async function seed(dbUrl, url, orders) {
  const { createDb } = await dist('db/client.js');
  const { createKey } = await dist('domain/keys/keys.js');
  const teams = await dist('domain/teams/teams.js');
  const db = await createDb(dbUrl);
  const agent = new Agent({ connections: 1 });
  try {
    const teamId = (await db.prisma.team.findFirst({ where: { kind: 'FULFILLER' }, orderBy: { created_at: 'asc' } })).id;
    const token = (await createKey(db, teamId, { name: 'floor', power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    const api = client(url, token, agent);
    const merchant = await teams.createTeam(db, { name: 'Floor Merchant', kind: 'MERCHANT' });
    await teams.createDelegation(db, { merchant_team_id: merchant.id, fulfiller_team_id: teamId, rate_card: RATE_CARD });
    const wh = await db.prisma.warehouse.create({
      data: { team_id: teamId, name: 'Floor DC', address1: '1 Dock', city: 'Reno', state: 'NV', zip: '89501', country: 'US' },
    });
    const skus = [];
    for (let i = 0; i < 40; i++) {
      const sku = `FLOOR-${i}`;
      const p = await db.prisma.product.create({
        data: {
          team_id: merchant.id,
          merchant_team_id: merchant.id,
          fulfiller_team_id: teamId,
          name: `Floor ${i}`,
          sku,
          measurement_unit: 'MM',
          weight_unit: 'G',
          weight: 300,
          search_text: `floor ${i}\n${sku.toLowerCase()}`,
          name_sku_search_text: `floor ${i}\n${sku.toLowerCase()}`,
        },
      });
      await db.prisma.inventoryLevel.create({ data: { product_id: p.id, warehouse_id: wh.id, on_hand: 100_000 } });
      skus.push(sku);
    }
    for (const [service, amount] of [
      ['ground', 5.4],
      ['express', 12.9],
      ['priority', 8.1],
    ])
      await api('POST', '/ops/carrier-rates', {
        carrier_id: 'ups',
        carrier_name: 'UPS',
        service_id: service,
        service_name: service,
        amount,
        per_unit_weight: 0.001,
        estimated_days: 3,
      });
    const fos = [];
    for (let i = 0; i < orders; i++) {
      const draft = await api('POST', '/ops/draft-orders', {
        merchant_team_id: merchant.id,
        payment_status: 'PAID',
        shipping_address: { name: 'Floor Customer', address1: '1 Main St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
        line_items: [
          { sku: skus[i % skus.length], quantity: 1, price: 10 },
          { sku: skus[(i + 1) % skus.length], quantity: 2, price: 5 },
        ],
      });
      const order = (await api('POST', `/ops/draft-orders/${draft.data.id}/convert`)).data;
      for (const fo of (await api('GET', `/ops/fulfillment-orders?order_id=${order.id}`)).data.data) {
        await api('POST', `/ops/fulfillment-orders/${fo.id}/accept`);
        const lines = (await api('GET', `/ops/fulfillment-orders/${fo.id}`)).data.line_items;
        fos.push({ id: fo.id, lines: lines.map((l) => ({ core_fulfillment_order_line_item_id: l.id, quantity: l.remaining_quantity })) });
      }
    }
    return { token, fos };
  } finally {
    await agent.close();
    await db.close();
  }
}

/**
 * CPU of process `pid` (every thread) and of its main thread, in laps: `lap()` ends one (a step);
 * `result()` gives the totals and each lap's process CPU, in ms.
 */
async function meter(pid) {
  const read = () => preciseCpuMsOfPid(pid);
  let last = await read();
  const laps = [];
  return {
    lap: async () => {
      const now = await read();
      laps.push([now[0] - last[0], now[1] - last[1]]);
      last = now;
    },
    result: () => ({
      cpuMs: laps.reduce((n, l) => n + l[0], 0),
      mainMs: laps.reduce((n, l) => n + l[1], 0),
      stepMs: laps.map((l) => l[0]),
    }),
  };
}

export const STEPS = ['lock', 'package', 'label', 'fulfill'];

// Before a run's last reading: the work its last requests left behind (fos's outbox pass, paced up
// to 250 ms after a partial batch; the floor's replay of it) is counted, not left to the other
// side's chunk.
const SETTLE_MS = 300;
const settled = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/** Sums meter results ({cpuMs, mainMs, stepMs}) over chunks. */
function usage() {
  const sum = {
    cpuMs: 0,
    mainMs: 0,
    stepMs: STEPS.map(() => 0),
    add: (r) => {
      sum.cpuMs += r.cpuMs;
      sum.mainMs += r.mainMs;
      r.stepMs.forEach((ms, i) => (sum.stepMs[i] += ms));
    },
  };
  return sum;
}

/**
 * The four requests of each fulfillment order, one phase (step) at a time over `fos`; the CPU of
 * `pid` over them ({cpuMs, mainMs, stepMs: process CPU of each step}). `sent` keeps each request's
 * method and body (the recording run).
 */
export async function fulfill(url, token, fos, pid, sent) {
  const agent = new Agent({ connections: 1 });
  const plain = client(url, token, agent);
  const api = sent ? (method, p, body) => (sent.push({ method, body }), plain(method, p, body)) : plain;
  const m = await meter(pid);
  const packages = [];
  for (const fo of fos) await api('POST', `/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: `o-${fo.id}`, timeout_minutes: 30 });
  await m.lap();
  for (const [i, fo] of fos.entries())
    packages[i] = (
      await api('POST', '/ops/packages', {
        fulfillment_order_id: fo.id,
        idempotency_key: `k-${fo.id}`,
        weight: 900,
        weight_unit: 'G',
        package_line_items: fo.lines,
      })
    ).data.id;
  await m.lap();
  for (const id of packages) await api('POST', `/ops/packages/${id}/label`, { rate_strategy: 'CHEAPEST' });
  await m.lap();
  for (const [i, fo] of fos.entries()) {
    const shipped = (await api('POST', `/ops/packages/${packages[i]}/fulfill`, { locked_by: `o-${fo.id}` })).data;
    if (i === 0 && shipped.status !== 'FULFILLED') throw new Error(`floor: package ${packages[i]} is ${shipped.status} after its fulfill`);
  }
  await settled();
  await m.lap();
  await agent.close();
  return m.result();
}

/** The same request sequence as fulfill() made, replayed in order to the floor server (its steps in turn). */
async function replay(url, token, units, pid) {
  const agent = new Agent({ connections: 1 });
  const api = client(url, token, agent);
  const m = await meter(pid);
  const per = units.length / STEPS.length;
  for (const [i, u] of units.entries()) {
    await api(u.method, u.url.replace(/^\/v1/, ''), u.requestBody, [u.status]);
    if (i === units.length - 1) await settled();
    if ((i + 1) % per === 0) await m.lap();
  }
  await agent.close();
  return m.result();
}

/** Databases: SQLite files in `dir`, or PostgreSQL databases beside `pgUrl`'s. */
export async function databases(dir, pgUrl) {
  if (!pgUrl) {
    const file = (n) => path.join(dir, `${n}.db`);
    const { default: Database } = await import('libsql');
    return {
      main: file('main'),
      copy: async (n) => {
        const db = new Database(file('main'));
        db.exec(`VACUUM INTO '${file(n)}'`);
        db.close();
        return file(n);
      },
      drop: async () => undefined,
    };
  }
  const pg = (await import('pg')).default;
  const base = `fos_floor_${process.pid}`;
  const made = [];
  const admin = async (sql) => {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  const urlOf = (name) => Object.assign(new URL(pgUrl), { pathname: `/${name}` }).toString();
  const create = async (name, template) => {
    await admin(`DROP DATABASE IF EXISTS "${name}"`);
    await admin(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
    made.push(name);
    return urlOf(name);
  };
  return {
    main: await create(base),
    copy: (n) => create(`${base}_${n}`, base),
    drop: async () => {
      for (const n of made) await admin(`DROP DATABASE IF EXISTS "${n}" WITH (FORCE)`).catch(() => undefined);
    },
  };
}

/** Server CPU per fulfillment of fos and of the floor; `orders` orders of two lines (one fulfillment order each). */
export async function floorBench({ orders = 200, pgUrl } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-floor-'));
  const dbs = await databases(dir, pgUrl);
  const log = path.join(dir, 'recorded.json');
  try {
    let fos = await child('floor-fos.mjs', { FLOOR_DB: dbs.main });
    const { token, fos: fulfillmentOrders } = await seed(dbs.main, fos.url, orders);
    await fos.stop();
    const [fosDb, floorDb] = [await dbs.copy('fos'), await dbs.copy('floor')];
    const warm = fulfillmentOrders.slice(0, WARM);
    const timed = fulfillmentOrders.slice(WARM);

    // Timed in alternating chunks (fos then floor, floor then fos, ...), both servers up: the
    // machine's load moves both alike (one side after the other, minutes apart, moved the ratio
    // by +-30% on a busy host).
    const chunks = [];
    for (let i = 0; i < timed.length; i += CHUNK) chunks.push(timed.slice(i, i + CHUNK));

    // The recording run, on the original: what each request ran, answered and was sent, in the
    // same sequence of requests as the timed runs make.
    const rec = await child('floor-fos.mjs', { FLOOR_DB: dbs.main, FLOOR_RECORD: log });
    const sent = [];
    await fulfill(rec.url, token, warm, rec.pid, sent);
    for (const chunk of chunks) await fulfill(rec.url, token, chunk, rec.pid, sent);
    await rec.call({ dump: true }, 'dumped');
    await rec.stop();

    fos = await child('floor-fos.mjs', { FLOOR_DB: fosDb });
    const floor = await child('floor-server.mjs', { FLOOR_DB: floorDb, FLOOR_LOG: log, FLOOR_KEYS: JSON.stringify([token]) });
    const units = await unitsOf(log, sent);
    await fulfill(fos.url, token, warm, fos.pid);
    await replay(floor.url, token, units.slice(0, warm.length * 4), floor.pid);
    const profile = process.env.FOS_BENCH_FLOOR_PROFILE;
    if (profile) for (const side of [fos, floor]) await side.call({ profile: 'start' }, 'profiled');
    const byThread = process.env.FOS_BENCH_FLOOR_THREADS;
    const readThreads = () => Promise.all([fos.pid, floor.pid].map((pid) => threadCpuMsOfPid(pid, byThread === 'tid')));
    const threads = byThread && (await readThreads());
    const fosCpu = usage();
    const floorCpu = usage();
    let at = warm.length * 4;
    for (const [i, chunk] of chunks.entries()) {
      const own = units.slice(at, (at += chunk.length * 4));
      const runFos = async () => fosCpu.add(await fulfill(fos.url, token, chunk, fos.pid));
      const runFloor = async () => floorCpu.add(await replay(floor.url, token, own, floor.pid));
      if (i % 2) await runFloor().then(runFos);
      else await runFos().then(runFloor);
    }
    if (threads) {
      const after = await readThreads();
      for (const [i, side] of ['fos', 'floor'].entries()) {
        const per = Object.entries(after[i]).map(([name, ms]) => `${name} ${((ms - (threads[i][name] ?? 0)) / timed.length).toFixed(2)}`);
        console.error(`    threads, ms a fulfillment, ${side}: ${per.join(', ')}`);
      }
    }
    if (profile) {
      const db = pgUrl ? 'postgresql' : 'sqlite';
      await fos.call({ profile: path.join(profile, `floor-${db}.cpuprofile`) }, 'profiled');
      await floor.call({ profile: path.join(profile, `floor-${db}-floor.cpuprofile`) }, 'profiled');
    }
    await fos.stop();
    const { failed, errors } = await floor.stop('failed');
    const statements = units.reduce((n, u) => n + u.statements.filter((s) => s.sql).length, 0) / (units.length / 4);
    const commits =
      units.reduce((n, u) => n + u.statements.filter((s) => /(^|;)\s*COMMIT\s*$/i.test(s.exec ?? s.sql)).length, 0) / (units.length / 4);
    const background = units.reduce((n, u) => n + (u.after ?? []).filter((s) => s.sql).length, 0) / (units.length / 4);
    return {
      provider: pgUrl ? 'postgresql' : 'sqlite',
      fulfillments: timed.length,
      fosMs: fosCpu.cpuMs / timed.length,
      floorMs: floorCpu.cpuMs / timed.length,
      // The main thread (JavaScript, the driver's calls); the rest is V8's helper threads
      // (optimizing compiler, parallel GC), libuv's pool and the drivers' own threads.
      fosMainMs: fosCpu.mainMs / timed.length,
      floorMainMs: floorCpu.mainMs / timed.length,
      steps: STEPS.map((name, i) => ({ name, fosMs: fosCpu.stepMs[i] / timed.length, floorMs: floorCpu.stepMs[i] / timed.length })),
      ratio: fosCpu.cpuMs / floorCpu.cpuMs,
      statements,
      commits,
      background,
      failed,
      errors,
    };
  } finally {
    for (const p of children) p.kill('SIGKILL');
    await dbs.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The recorded requests, each with the body it was sent (the order fulfill() sent them in). */
async function unitsOf(file, sent) {
  const { readFile } = await import('node:fs/promises');
  const { units } = JSON.parse(await readFile(file, 'utf8'));
  if (units.length !== sent.length) throw new Error(`floor: ${units.length} requests recorded, ${sent.length} sent`);
  return units.map((u, i) => ({ ...u, requestBody: sent[i].body }));
}
