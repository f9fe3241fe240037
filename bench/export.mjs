// `fos orders list --all --format ndjson` against a `fos serve` on a seeded SQLite file: how long
// the whole export takes and whether the CLI's memory stays flat (its RSS sampled every 100 ms).
// The database is seeded here (scripts/seed-scale.mjs into a temp file, FOS_BENCH_EXPORT_ORDERS,
// default 20,000), or FOS_BENCH_EXPORT_DB=<sqlite file> FOS_BENCH_LIST_TEAM=<fulfiller id> names a
// seeded one, with a tier-4 key made with `fos admin key create`. `--all` goes through the
// streaming export (GET /v1/ops/orders/export, docs/exports.md), which counts one request per
// 10,000 records, so the rate limit no longer bounds it (issue 29 item 4: 1M orders in <= 60 s).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, cleanEnv, ROOT, rssOfPid, startServe, stopServe, timedSpawn } from './lib.mjs';

export const EXPORT_TARGET = { orders: 1_000_000, seconds: 60 };

export async function exportBench({ orders }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'fos-bench-export-'));
  const env = cleanEnv({ FOS_CONFIG_DIR: dir, FOS_DATA_DIR: dir });
  let server;
  try {
    let db = process.env.FOS_BENCH_EXPORT_DB;
    let team = process.env.FOS_BENCH_LIST_TEAM;
    if (!db) {
      db = path.join(dir, 'export.db');
      const seeded = await timedSpawn(
        [path.join(ROOT, 'scripts/seed-scale.mjs'), '--db', db, '--orders', String(orders), '--products', '200'],
        { env },
      );
      if (seeded.code !== 0) throw new Error(`seed-scale failed: ${seeded.stderr}`);
      team = JSON.parse(seeded.stdout).fulfiller_team_id;
    }
    const key = await timedSpawn(
      [BIN, 'admin', '--db', db, 'key', 'create', '--team', team, '--name', 'bench export', '--power-role', 'ADMIN', '--tier', '4'],
      { env },
    );
    if (key.code !== 0) throw new Error(`fos admin key create: ${key.stderr}`);
    const { token } = JSON.parse(key.stdout);
    server = await startServe({ db, env });

    const started = performance.now();
    const cli = spawn(process.execPath, [BIN, 'orders', 'list', '--all', '--format', 'ndjson'], {
      env: { ...env, FOS_BASE_URL: server.url, FOS_API_KEY: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lines = 0;
    let stderr = '';
    cli.stdout.on('data', (d) => {
      for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
    });
    cli.stderr.on('data', (d) => (stderr += d));
    const rss = [];
    const sampler = setInterval(async () => {
      const r = await rssOfPid(cli.pid);
      if (r !== undefined) rss.push(r);
    }, 100);
    const code = await new Promise((r) => cli.on('close', r));
    clearInterval(sampler);
    if (code !== 0) throw new Error(`fos orders list --all exited ${code}: ${stderr.slice(0, 500)}`);
    const seconds = (performance.now() - started) / 1000;
    const tenth = Math.max(1, Math.floor(rss.length / 10));
    const early = Math.max(...rss.slice(0, tenth));
    return {
      orders: lines,
      seconds,
      perSecond: lines / seconds,
      peakRssMiB: Math.max(...rss),
      earlyRssMiB: early,
      lateRssMiB: Math.max(...rss.slice(-tenth)),
    };
  } finally {
    if (server) await stopServe(server);
    rmSync(dir, { recursive: true, force: true });
  }
}
