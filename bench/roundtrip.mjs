// `fos products list` spawned against a `fos serve --demo` on a temp SQLite database
// (127.0.0.1, port 0): median wall time per CLI run beside a bare `node -e 0` (interleaved, so
// both see the same machine load). Then the server as a warehouse runs it every day: restarted on
// its database, its RSS after 5 s idle, then under a bounded read load and the fulfill workflow
// (bench/api.mjs's, against this separate process), with its RSS and CPU time per request.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent } from 'undici';
import { client, fulfillAll, load, seed } from './api.mjs';
import { BIN, cleanEnv, cpuMsOfPid, median, percentile, ROOT, rssOfPid, startServe, stopServe, timedSpawn } from './lib.mjs';

export const IDLE_RSS_TARGET_MIB = 150;
export const LOAD_RSS_TARGET_MIB = 300;

const serveEnv = (dir) => cleanEnv({ FOS_CONFIG_DIR: dir, FOS_DATA_DIR: dir });

/** Reads then the fulfill workflow against a running `fos serve` on `dbFile`: RSS and CPU per request. */
async function underLoad(server, dbFile, { reads, orders }) {
  const dist = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
  const [{ createDb }, { createKey }] = await Promise.all([dist('db/client.js'), dist('domain/keys/keys.js')]);
  const db = await createDb(dbFile); // a second connection to the server's SQLite file (WAL)
  const agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
  try {
    const team = await db.prisma.team.findFirstOrThrow({ where: { kind: 'FULFILLER' }, orderBy: { created_at: 'asc' } });
    const key = async (name) => (await createKey(db, team.id, { name, power_role: 'ADMIN', rate_tier: 4 }, null)).token;
    const [setupKey, readKey, workKey] = [await key('bench setup'), await key('bench reads'), await key('bench workflow')];
    const orderIds = await seed({ db, bootstrap: { teamId: team.id } }, client(server.url, setupKey, agent), { products: 50, orders });
    const pid = server.child.pid;
    const read = client(server.url, readKey, agent);
    let cpu = await cpuMsOfPid(pid);
    const products = await load(reads, 8, 30_000, () => read('GET', '/ops/products?limit=20'));
    const readCpuMs = ((await cpuMsOfPid(pid)) - cpu) / products.done;
    const readRss = await rssOfPid(pid);
    cpu = await cpuMsOfPid(pid);
    const { workflow } = await fulfillAll(client(server.url, workKey, agent), orderIds, { workflowConcurrency: 4, deadlineMs: 30_000 });
    const writeCpuMs = ((await cpuMsOfPid(pid)) - cpu) / workflow.requests;
    return {
      reads: { done: products.done, perSecond: products.perSecond, cpuMsPerRequest: readCpuMs, rssMiB: readRss },
      writes: { done: workflow.done, perSecond: workflow.perSecond, cpuMsPerRequest: writeCpuMs, rssMiB: await rssOfPid(pid) },
    };
  } finally {
    await agent.close();
    await db.close();
  }
}

export async function roundtrip({ runs, reads = 1000, orders = 40 }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-serve-'));
  const started = performance.now();
  let server;
  try {
    server = await startServe({ db: path.join(dir, 'fos.db'), env: serveEnv(dir), demo: true });
    const serveStartMs = performance.now() - started;
    const env = cleanEnv({ FOS_BASE_URL: server.url, FOS_API_KEY: server.key, FOS_CONFIG_DIR: dir });
    const once = await timedSpawn([BIN, 'products', 'list', '--json', 'id'], { env });
    if (once.code !== 0) throw new Error(`fos products list exited ${once.code}: ${once.stderr}`);
    const times = [];
    const bare = [];
    for (let i = 0; i < runs; i++) {
      bare.push((await timedSpawn(['-e', '0'])).ms);
      const r = await timedSpawn([BIN, 'products', 'list', '--json', 'id'], { env });
      if (r.code !== 0) throw new Error(`fos products list exited ${r.code}: ${r.stderr}`);
      times.push(r.ms);
    }
    // Idle footprint as a warehouse sees it every day: a restart on its existing database.
    await stopServe(server);
    server = await startServe({ db: path.join(dir, 'fos.db'), env: serveEnv(dir) });
    await new Promise((r) => setTimeout(r, 5000));
    const idleRss = await rssOfPid(server.child.pid);
    const loaded = await underLoad(server, path.join(dir, 'fos.db'), { reads, orders });
    return {
      median: median(times),
      p90: percentile(times, 90),
      nodeMedian: median(bare),
      runs,
      serveStartMs,
      idleRssMiB: idleRss,
      ...loaded,
    };
  } finally {
    if (server) await stopServe(server);
    await rm(dir, { recursive: true, force: true });
  }
}
