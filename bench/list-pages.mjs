// List pages as shipped (issue 29 target 2): `fos serve` in its own process with its default
// logging (info: a JSON line per request, piped to a file as a service manager would), beside the
// hand-written baseline (bench/products-baseline.mjs, Fastify + libsql, one prepared statement
// and JSON) in its own process, over the SAME SQLite file, for
//   GET /v1/ops/orders/list?limit=20  and  GET /v1/ops/products?limit=20.
// A third server, `fos serve --log-level warn` (no request lines), gives what logging costs.
// Bodies are compared byte for byte first; then alternating rounds with the same undici load,
// so machine drift falls on all servers alike: req/s and the server process's CPU per request.
//
// The database: FOS_BENCH_LIST_DB=<file> FOS_BENCH_LIST_TEAM=<fulfiller id> (seeded with
// scripts/seed-scale.mjs: 1M orders and 100k products for the figures), else a temporary
// file seeded with FOS_BENCH_PAGES_ORDERS orders and as many products (default 20,000).
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { BIN as OWN_BIN, cpuMsOfPid, getMany, median, ROOT, timedSpawn } from './lib.mjs';

// FOS_BENCH_FOS_BIN: another build's bin/fos.js (e.g. main's, for before/after figures).
const BIN = process.env.FOS_BENCH_FOS_BIN ?? OWN_BIN;

export const PAGES_TARGET_RATIO = 0.7;
export const PAGES = { orders: '/v1/ops/orders/list?limit=20', products: '/v1/ops/products?limit=20' };
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);

/** A node process that prints `listening on <url>` on stderr; stdout goes to `logFile` (or nowhere). */
function startProcess(args, logFile, env = process.env) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', logFile ? 'pipe' : 'ignore', 'pipe'] });
  if (logFile) child.stdout.pipe(createWriteStream(logFile));
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const url = /listening on (\S+)/.exec(err)?.[1];
      if (url) resolve({ child, url });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}:\n${err}`)));
  });
}

async function stop(server) {
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
}

/** `count` GETs of `url` by `concurrency` workers: req/s, median latency, server CPU per request. */
async function load(server, url, token, agent, count, concurrency) {
  const cpu = await cpuMsOfPid(server.child.pid);
  const { latencies, seconds } = await getMany(url, token, agent, count, concurrency);
  return { perSecond: count / seconds, p50: median(latencies), cpuMs: ((await cpuMsOfPid(server.child.pid)) - cpu) / count };
}

async function body(url, token, agent) {
  const res = await request(url, { dispatcher: agent, headers: { 'x-access-token': token } });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${text.slice(0, 300)}`);
  return text;
}

function sameBody(what, a, b) {
  if (a === b) return;
  let i = 0;
  while (a[i] === b[i]) i++;
  const at = (x) => x.slice(Math.max(0, i - 200), i + 200);
  throw new Error(`${what}: the baseline's body differs from fos's at character ${i}:\n fos:      …${at(a)}\n baseline: …${at(b)}`);
}

/** A seeded database: the given one, or a temporary file seeded by scripts/seed-scale.mjs. */
async function database(dir, orders) {
  if (process.env.FOS_BENCH_LIST_DB) return { file: process.env.FOS_BENCH_LIST_DB, teamId: process.env.FOS_BENCH_LIST_TEAM };
  const file = path.join(dir, 'pages.db');
  const seeded = await timedSpawn(
    [path.join(ROOT, 'scripts/seed-scale.mjs'), '--db', file, '--orders', String(orders), '--products', String(orders)],
    {
      env: process.env,
    },
  );
  if (seeded.code !== 0) throw new Error(`seed-scale exited ${seeded.code}: ${seeded.stderr}`);
  return { file, teamId: JSON.parse(seeded.stdout).fulfiller_team_id };
}

/** Tier-4 ADMIN keys of the team (a fresh one per round: 3,000 requests a minute each). */
async function keys(file, teamId, n) {
  const [{ createDb }, { createKey }] = await Promise.all([dist('db/client.js'), dist('domain/keys/keys.js')]);
  const db = await createDb(file);
  try {
    const team = teamId ?? (await db.prisma.team.findFirstOrThrow({ where: { kind: 'FULFILLER' }, orderBy: { created_at: 'asc' } })).id;
    const out = [];
    for (let i = 0; i < n; i++)
      out.push((await createKey(db, team, { name: `bench pages ${i}`, power_role: 'ADMIN', rate_tier: 4 }, null)).token);
    return out;
  } finally {
    await db.close();
  }
}

export async function listPagesBench({ orders = 20_000, requests = 1500, concurrency = 8, rounds = 3 } = {}) {
  const dir = await mkdtemp(path.join(process.env.TMPDIR ?? tmpdir(), 'fos-bench-pages-'));
  const agent = new Agent({ connections: concurrency, keepAliveTimeout: 10_000 });
  const servers = {};
  try {
    const { file, teamId } = await database(dir, orders);
    const tokens = await keys(file, teamId, 1 + rounds * 2 * 3);
    // One `fos serve` per SQLite file (its rate limits are counted in memory): the two fos
    // configurations take turns, restarted between rounds; the baseline stays up.
    const serve = (level) => () =>
      startProcess(
        [BIN, 'serve', '--db', file, '--port', '0', '--host', '127.0.0.1', '--log-level', level],
        path.join(dir, `fos-${level}.log`),
      );
    const starts = { fos: serve('info'), 'fos, no request log': serve('warn') };
    servers.baseline = await startProcess([path.join(ROOT, 'bench/products-baseline.mjs'), '--db', file]);
    const names = ['fos', 'fos, no request log', 'baseline'];
    const up = async (name) => {
      if (name === 'baseline') return servers.baseline;
      for (const other of Object.keys(starts))
        if (other !== name && servers[other]) await stop(servers[other]).then(() => delete servers[other]);
      return (servers[name] ??= await starts[name]());
    };
    const results = {};
    let k = 1;
    for (const [page, p] of Object.entries(PAGES)) {
      const bodies = [];
      for (const n of names) {
        const s = await up(n);
        bodies.push(await body(new URL(p, s.url).href, tokens[0], agent));
        await load(s, new URL(p, s.url).href, tokens[0], agent, Math.min(300, requests), concurrency); // warm
      }
      sameBody(page, bodies[0], bodies[2]);
      sameBody(page, bodies[0], bodies[1]);
      const runs = Object.fromEntries(names.map((n) => [n, []]));
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 ? [...names].reverse() : names;
        for (const n of order) {
          const s = await up(n);
          if (n !== 'baseline') await load(s, new URL(p, s.url).href, tokens[0], agent, Math.min(300, requests), concurrency); // warm after a restart
          runs[n].push(await load(s, new URL(p, s.url).href, tokens[k++], agent, requests, concurrency));
        }
      }
      const mean = (n, f) => runs[n].reduce((s, x) => s + x[f], 0) / rounds;
      results[page] = {
        bytes: bodies[0].length,
        ...Object.fromEntries(names.map((n) => [n, { perSecond: mean(n, 'perSecond'), p50: mean(n, 'p50'), cpuMs: mean(n, 'cpuMs') }])),
      };
    }
    return { file, requests, concurrency, rounds, results };
  } finally {
    await agent.close();
    for (const s of Object.values(servers)) await stop(s);
    await rm(dir, { recursive: true, force: true });
  }
}
