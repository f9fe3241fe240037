import { statfs } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { parseDbUrl } from '../db/client.js';
import { packageRoot, readMigrations } from '../db/migrate.js';
import { sendProblem } from './problem.js';

// GET /healthz and GET /readyz (issue 42; docs/serve.md "Health and metrics"). Both are public
// (no key, so the auth hook and its rate limits never see them), hidden from the OpenAPI document
// and logged only at warn, so probes every few seconds neither count against anyone nor fill the log.
//  - /healthz: the process answers. Nothing else: no database, so a busy database never gets a
//    live process restarted.
//  - /readyz: this replica can serve: the database answers, every migration this release has is
//    applied, the outbox worker is running, and (SQLite) the disk has room. 503 problem+json
//    naming the failing checks otherwise, so a load balancer takes the replica out of rotation.

/** What readiness asks of the outbox worker (src/server/workers/outbox.ts). */
export interface Liveness {
  liveness(): { stopped: boolean; beatMs: number };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The outbox worker fos serve started (readiness checks it is alive); null before that. */
    outboxWorker: Liveness | null;
  }
}

export const DEFAULT_MIN_FREE_DISK_BYTES = 100 * 1024 * 1024;
/** A pass (a batch of webhooks at their 10 s timeout) may take minutes; longer means it is stuck. */
export const OUTBOX_STALE_MS = 5 * 60_000;
/** A database that has not answered by then counts as unreachable. */
const DB_TIMEOUT_MS = 2000;

export interface HealthOptions {
  /** SQLite: the least free space on the database's file system (default 100 MiB; 0: no check). */
  minFreeDiskBytes?: number;
}

type Result = string | null; // null: ok, else what is wrong

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

const APPLIED = 'FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL';

/** The checks of /readyz, by name, each null when it passes. */
function readiness(app: FastifyInstance, opts: HealthOptions): (log: FastifyBaseLogger) => Promise<Record<string, Result>> {
  const target = parseDbUrl(app.db.url);
  const minFree = opts.minFreeDiskBytes ?? DEFAULT_MIN_FREE_DISK_BYTES;
  // The migrations this release applies at start, read once, and the one-row statement that
  // counts how many the database has: healthy, that is all readiness asks of it.
  let expected: Promise<{ names: string[]; count: string }> | undefined;
  const migrations = () =>
    (expected ??= readMigrations(path.join(packageRoot(), 'prisma', 'migrations', target.provider), target.provider).then((ms) => {
      const names = ms.map((m) => m.name);
      const list = names.map((n) => `'${n.replace(/'/g, "''")}'`).join(', ');
      return { names, count: `SELECT COUNT(*) AS n ${APPLIED} AND migration_name IN (${list})` };
    }));
  const query = <T>(sql: string) => withTimeout(app.db.prisma.$queryRawUnsafe<T[]>(sql), DB_TIMEOUT_MS, 'the database');

  const database = async (log: FastifyBaseLogger): Promise<{ database: Result; migrations: Result }> => {
    const { names, count } = await migrations();
    try {
      const [row] = await query<{ n: number | bigint }>(count);
      if (Number(row?.n) === names.length) return { database: null, migrations: null };
      const have = new Set((await query<{ migration_name: string }>(`SELECT migration_name ${APPLIED}`)).map((r) => r.migration_name));
      const missing = names.filter((n) => !have.has(n));
      return {
        database: null,
        migrations: `${missing.length} not applied (first: ${missing[0]}); run fos db migrate or restart fos serve`,
      };
    } catch (err) {
      // The answer names no host, database or driver message (anyone may ask); the log has them.
      log.warn({ err }, 'readiness: the database did not answer');
      return { database: 'unreachable', migrations: 'unknown (the database did not answer)' };
    }
  };
  const outbox = (): Result => {
    const worker = app.outboxWorker;
    if (!worker) return 'not started';
    const { stopped, beatMs } = worker.liveness();
    if (stopped) return 'stopped';
    const idle = Date.now() - beatMs;
    return idle > OUTBOX_STALE_MS ? `no pass for ${Math.round(idle / 1000)} s` : null;
  };
  const disk = async (log: FastifyBaseLogger): Promise<Result> => {
    if (target.provider !== 'sqlite' || minFree <= 0) return null;
    try {
      const fs = await statfs(path.dirname(target.file));
      const free = fs.bavail * fs.bsize;
      return free < minFree ? `${Math.floor(free / 2 ** 20)} MiB free, below the floor of ${Math.floor(minFree / 2 ** 20)} MiB` : null;
    } catch (err) {
      log.warn({ err }, 'readiness: free disk space unknown');
      return 'unknown (see the log)';
    }
  };
  return async (log) => {
    const [db, space] = await Promise.all([database(log), disk(log)]);
    return { ...db, outbox: outbox(), disk: space };
  };
}

const probe = { public: true } as const;

/** Called on the root instance (not registered as a plugin): the decorator must be the app's own. */
export function healthRoutes(app: FastifyInstance, opts: HealthOptions) {
  app.decorate('outboxWorker', null);
  const check = readiness(app, opts);
  // info is off for probes: a request line every few seconds per prober says nothing.
  app.get('/healthz', { config: probe, logLevel: 'warn', schema: { hide: true } }, (_request, reply) => {
    void reply.header('cache-control', 'no-store').send({ status: 'ok' });
  });
  app.get('/readyz', { config: probe, logLevel: 'warn', schema: { hide: true } }, async (request, reply) => {
    const found = await check(request.log);
    const checks: Record<string, string> = {};
    const failing: string[] = [];
    for (const [name, problem] of Object.entries(found)) {
      checks[name] = problem ?? 'ok';
      if (problem) failing.push(`${name} ${problem}`);
    }
    reply.header('cache-control', 'no-store');
    if (!failing.length) return reply.send({ status: 'ready', checks });
    return sendProblem(request, reply, 'unavailable', `Not ready: ${failing.join('; ')}.`, { checks });
  });
}
