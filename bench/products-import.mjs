// `fos products import` of 10,000 rows as a user runs it (issue 36 item 6): `fos serve --demo` in
// its own process with its default request log, the CLI spawned with FOS_BASE_URL / FOS_API_KEY
// from the server's start banner, timed from spawn to exit. Each run starts a fresh server and
// imports three times: a new catalogue first (cold: the server's first bulk requests, its
// validator compiled and statements prepared then), another new catalogue (warm), and the first
// file again (warm: every row an update). SQLite: the demo's own database in a temp data
// directory; PostgreSQL (pgUrl): a database of its own per run (`--demo --db`), dropped after.
// The bulk section used to time the import against a warm in-process server without request
// logging, where it read 0.8 s while a user's first import took 4.4 s (docs/performance.md).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, cleanEnv, cpuMsOfPid, median, startServe, stopServe, timedSpawn } from './lib.mjs';

export const IMPORT_TARGET_MS = 1500;
const ROWS = 10_000;

const IMPORTS = [
  ['cold', 'first import on a fresh server, 10,000 new', 'A'],
  ['create', 'warm, 10,000 new', 'B'],
  ['update', 'warm, the first file again (10,000 updates)', 'A'],
];

async function csv(dir, prefix) {
  const file = path.join(dir, `${prefix}.csv`);
  const lines = Array.from({ length: ROWS }, (_, i) => `${prefix}-${i},Imported ${i},STANDARD,${i},G`);
  await writeFile(file, ['sku,name,type,weight,weight_unit', ...lines].join('\n') + '\n');
  return file;
}

/** A database of its own on the PostgreSQL server at `adminUrl`; `drop` removes it. */
async function ownDatabase(adminUrl) {
  const { default: pg } = await import('pg');
  const name = `fos_bench_import_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** One fresh server, the three imports: wall ms and the server's CPU ms of each. */
async function oneRun(dir, files, pgUrl) {
  const own = pgUrl ? await ownDatabase(pgUrl) : undefined;
  const data = await mkdtemp(path.join(dir, 'run-'));
  let server;
  try {
    const env = cleanEnv({ FOS_CONFIG_DIR: data, FOS_DATA_DIR: data, HOME: data });
    server = await startServe({ db: own?.url, env, demo: true, logLevel: null });
    const cli = cleanEnv({ FOS_BASE_URL: server.url, FOS_API_KEY: server.key, FOS_CONFIG_DIR: data, HOME: data });
    const out = {};
    for (const [name, , file] of IMPORTS) {
      const cpu = await cpuMsOfPid(server.child.pid);
      const r = await timedSpawn([BIN, 'products', 'import', files[file]], { env: cli });
      if (r.code !== 0) throw new Error(`fos products import exited ${r.code}: ${r.stderr}`);
      out[name] = { ms: r.ms, cpu: (await cpuMsOfPid(server.child.pid)) - cpu };
    }
    return out;
  } finally {
    if (server) await stopServe(server);
    await own?.drop();
  }
}

/** `runs` fresh servers on SQLite, then on PostgreSQL when `pgUrl` is given. */
export async function importBench({ runs = 3, pgUrl } = {}) {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-import-'));
  const out = {};
  try {
    const files = { A: await csv(dir, 'IMP-A'), B: await csv(dir, 'IMP-B') };
    for (const [provider, url] of [['sqlite', undefined], ...(pgUrl ? [['postgresql', pgUrl]] : [])]) {
      const all = [];
      for (let r = 0; r < runs; r++) all.push(await oneRun(dir, files, url));
      out[provider] = all;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}

/** Lines for npm run bench: each import's median beside the target; `over` when one misses it. */
export function importReport(out) {
  const lines = [];
  let over = false;
  for (const [provider, runs] of Object.entries(out)) {
    for (const [name, what] of IMPORTS) {
      const ms = runs.map((r) => r[name].ms);
      const m = median(ms);
      if (m > IMPORT_TARGET_MS) over = true;
      lines.push(
        `  ${provider.padEnd(10)} ${what.padEnd(45)} ${m.toFixed(0).padStart(5)} ms  (max ${Math.max(...ms).toFixed(0)}, ` +
          `server CPU ${median(runs.map((r) => r[name].cpu)).toFixed(0)} ms; target <= ${IMPORT_TARGET_MS} ms: ${m <= IMPORT_TARGET_MS ? 'ok' : 'OVER'})`,
      );
    }
  }
  return { lines, over };
}
