// Several `fos serve` processes on one database, as replicas: the built CLI (bin/fos.js ->
// dist/, so `npm run build` first). Used by test/pg/replicas.test.ts (PostgreSQL) and
// test/api/race-processes.test.ts (SQLite, several processes on one file).
//
//   const world = await replicaWorld(url);        // migrated, bootstrapped, tier-4 ADMIN token
//   const servers = await startReplicas(url, 2);  // two listening `fos serve` processes
//   await servers.send(0, 'POST', '/ops/packages', body);  // replica i % n
//   await servers.stop();

import { afterAll, beforeAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb } from '../../src/db/client.js';
import { migrate, packageRoot } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/types.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import { createKey } from '../../src/domain/keys/keys.js';
import { createDelegation, createTeam } from '../../src/domain/teams/teams.js';
import type { TestApp } from './app.js';

const root = packageRoot();

/** dist/ must be at least as new as the fulfillment sources, or the replicas run stale code. */
export function assertFreshBuild() {
  if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const srcDir = path.join(root, 'src', 'domain', 'fulfillment');
  for (const f of readdirSync(srcDir).filter((x) => x.endsWith('.ts'))) {
    const built = path.join(root, 'dist', 'domain', 'fulfillment', f.replace(/\.ts$/, '.js'));
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(path.join(srcDir, f)).mtimeMs) {
      throw new Error(`dist/ is older than src/domain/fulfillment/${f}: run \`npm run build\` first`);
    }
  }
}

export interface ReplicaWorld {
  db: Db;
  teamId: string;
  /** tier-4 ADMIN token of the fulfiller team. */
  token: string;
  /** Just enough of a TestApp for test/helpers/fixtures.ts: db, teamId, merchant(). */
  fx: TestApp;
}

/** Migrates and bootstraps the database, adds a tier-4 key and a delegated merchant team. */
export async function replicaWorld(url: string): Promise<ReplicaWorld> {
  await migrate(url);
  const db = await createDb(url);
  const teamId = (await bootstrapIfEmpty(db))!.teamId;
  const token = (await createKey(db, teamId, { name: 'race admin', power_role: 'ADMIN', rate_tier: 4 }, 'test')).token;
  let merchant: Promise<string> | undefined;
  const fx = {
    db,
    teamId,
    merchant: async () => {
      merchant ??= createTeam(db, { name: 'Replica Merchant', kind: 'MERCHANT' }).then(
        async (m) => (await createDelegation(db, { merchant_team_id: m.id, fulfiller_team_id: teamId }), m.id),
      );
      return { teamId: await merchant, token: '', delegationId: '' };
    },
  } as unknown as TestApp;
  return { db, teamId, token, fx };
}

interface Replica {
  child: ChildProcess;
  url: string;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  body: any;
}

export interface Replicas {
  urls: string[];
  /** A request to replica i % n; path is below /v1 (e.g. '/ops/packages'). */
  send(i: number, method: string, path: string, body: unknown, token: string): Promise<ApiResult>;
  stop(): Promise<void>;
}

/** Extra `fos serve` arguments and environment for every replica (e.g. --allow-private-network, FOS_SECRET_KEY). */
export interface ReplicaOptions {
  args?: string[];
  env?: Record<string, string>;
}

function serve(url: string, dir: string, opts: ReplicaOptions = {}): Promise<Replica> {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'bin', 'fos.js'),
      'serve',
      '--db',
      url,
      '--port',
      '0',
      '--log-level',
      'warn',
      '--rate-limit-store',
      'database',
      ...(opts.args ?? []),
    ],
    {
      cwd: dir,
      // A test that seals credentials itself hands the replicas the same key.
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        FOS_CONFIG_DIR: path.join(dir, 'config'),
        NO_COLOR: '1',
        ...(process.env.FOS_SECRET_KEY ? { FOS_SECRET_KEY: process.env.FOS_SECRET_KEY } : {}),
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fos serve did not start in 60 s:\n${log}`)), 60_000);
    child.stderr!.on('data', (d) => {
      log += d;
      const m = /listening on (http:\/\/\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`fos serve exited (${code}):\n${log}`));
    });
  });
}

export async function startReplicas(url: string, n: number, opts: ReplicaOptions = {}): Promise<Replicas> {
  assertFreshBuild();
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-replicas-'));
  const started = await Promise.allSettled(Array.from({ length: n }, () => serve(url, dir, opts)));
  const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    for (const r of running) {
      if (r.child.exitCode !== null) continue;
      const exited = new Promise((res) => r.child.once('exit', res));
      r.child.kill('SIGTERM');
      await Promise.race([exited, new Promise((res) => setTimeout(res, 10_000))]);
      if (r.child.exitCode === null) r.child.kill('SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw (failed as PromiseRejectedResult).reason;
  }
  return {
    urls: running.map((r) => r.url),
    stop,
    async send(i, method, p, body, token) {
      const res = await fetch(`${running[i % running.length].url}${p}`, {
        method,
        headers: { 'x-access-token': token, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
    },
  };
}

/**
 * A world and two `fos serve` processes on one fresh database, set up before the file's tests and
 * torn down after them (vitest hooks registered here); returns the getter the race scenarios take.
 */
export function twoProcessesOn(
  fresh: () => Promise<{ url: string; cleanup?: () => Promise<void>; drop?: () => Promise<void> }>,
): () => { w: ReplicaWorld; r: Replicas } {
  let w: ReplicaWorld;
  let r: Replicas;
  let done: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const db = await fresh();
    done = db.cleanup ?? db.drop;
    w = await replicaWorld(db.url);
    r = await startReplicas(db.url, 2);
  }, 90_000);
  afterAll(async () => {
    await r?.stop();
    await w?.db.close();
    await done?.();
  });
  return () => ({ w, r });
}
