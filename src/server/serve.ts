import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createDb, parseDbUrl, type SqliteSync } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import type { Db } from '../db/types.js';
import { bootstrapIfEmpty, type BootstrapResult } from '../domain/bootstrap.js';
import { keyFromFile, parseSecretKey, setSecretKey } from '../domain/secrets/index.js';
import { buildApp, type AppConfig } from './app.js';
import { defaultDbPath } from './data-dir.js';
import { acquireServerLock, type ServerLock } from './single-server.js';
import { startPurchaseRecovery } from './workers/label-purchases.js';
import { startCountFolder } from './workers/counts.js';
import { startInvoiceCloser } from './workers/invoices.js';
import { startStorageBiller } from './workers/storage.js';
import { clockFromEnv } from '../shared/clock.js';
import { startOutboxWorker } from './workers/outbox.js';
import { startIdleCollector } from './idle-gc.js';
import { startChannelWorker } from './workers/channels.js';
import { checkResettable, resetSqliteFile, type ResetMode } from './reset-db.js';
import type { DemoResult } from './demo/demo.js';
import type { BackupSchedule } from './backup/options.js';
import { DatabaseStore, MemoryStore, RedisStore, type RateLimitStore } from './rate-limit/stores.js';

export interface ServeOptions {
  db: string;
  host?: string;
  port?: number;
  redis?: string;
  /** memory | database | redis; default: memory on SQLite, database on PostgreSQL. */
  rateLimitStore?: 'memory' | 'database' | 'redis';
  demo?: boolean;
  /** Start the SQLite file over first (--reset; every --demo start on the demo's own database). */
  reset?: ResetMode;
  /** Let webhooks reach loopback/private addresses (local receivers). */
  allowPrivateWebhooks?: boolean;
  /** Minutes between background syncs of each connected shop (default 15). */
  channelSyncMinutes?: number;
  /** Days audit events are kept (--audit-retention-days; default 365, 0 = forever). */
  auditRetentionDays?: number;
  /** Failed authentications allowed per client address per minute (0: off). */
  unauthRateLimit?: number;
  /** Where uploaded files are kept (a directory, default <data dir>/files, or s3://bucket/prefix) and the largest upload in bytes. */
  storage?: string;
  maxUploadBytes?: number;
  /** The address people and agents reach the server at (OAuth metadata, Secure cookies). */
  publicUrl?: string;
  /** Reverse proxies believed about the client's address (--trust-proxy): addresses/CIDRs or hops. */
  trustProxy?: string[] | number;
  logger?: AppConfig['logger'];
  /** SQLite: when a commit reaches the disk (--sqlite-sync; default normal, see src/db/client.ts). */
  sqliteSync?: SqliteSync;
  /** GET /metrics for scrapers sending this bearer token (--metrics-token); unset: no /metrics. */
  metricsToken?: string;
  /** SQLite: /readyz fails below this much free disk (--min-free-disk-mb). */
  minFreeDiskBytes?: number;
  /** --backup-every/--backup-keep/--backup-to (SQLite): backups on a timer (backup/schedule.ts). */
  backup?: BackupSchedule;
}

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  url: string;
  bootstrap: BootstrapResult | null;
  /** What --demo loaded (nothing when the database held the demo already). */
  demo?: DemoResult;
  /** Where --reset moved the old database. */
  movedAside?: string;
  /**
   * Drains and stops: no new connections, 503 + retry-after for requests on open keep-alive
   * connections, in-flight requests finish, the outbox pass in progress completes (its claims are
   * settled, not left to expire); after `drainMs` (default 10 s) remaining connections are cut.
   */
  close(opts?: { drainMs?: number }): Promise<void>;
}

async function rateLimitStoreFor(db: Db, opts: ServeOptions): Promise<RateLimitStore> {
  const choice = opts.rateLimitStore ?? (opts.redis ? 'redis' : db.provider === 'postgresql' ? 'database' : 'memory');
  if (choice === 'redis') {
    if (!opts.redis) throw new Error('--rate-limit-store redis needs --redis <url>');
    return RedisStore.connect(opts.redis);
  }
  if (choice === 'database') return new DatabaseStore(db);
  return new MemoryStore();
}

/** The SQLite file whose server must be the only one (counters in memory), else undefined. */
function singleServerFile(opts: ServeOptions): string | undefined {
  const target = parseDbUrl(opts.db);
  const store = opts.rateLimitStore ?? (opts.redis ? 'redis' : 'memory');
  // Shared counters (database, redis) let several servers use one SQLite file.
  return target.provider === 'sqlite' && store === 'memory' && target.file !== ':memory:' ? target.file : undefined;
}

/** Opens the database, applies migrations, bootstraps an empty one, and listens. */
export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  if (opts.reset) checkResettable(opts.db);
  const lockFile = singleServerFile(opts);
  const lock = lockFile ? acquireServerLock(lockFile) : undefined;
  try {
    return await start(opts, lock);
  } catch (err) {
    lock?.release();
    throw err;
  }
}

async function start(opts: ServeOptions, lock: ServerLock | undefined): Promise<RunningServer> {
  // The key that seals stored credentials (shop tokens, carrier keys): FOS_SECRET_KEY, else
  // <data dir>/secret.key, made on first start (src/domain/secrets/secret-box.ts).
  setSecretKey(process.env.FOS_SECRET_KEY ? parseSecretKey(process.env.FOS_SECRET_KEY) : keyFromFile(dirname(defaultDbPath())));
  // Under the file's server lock (taken above): no other fos serve has it open.
  const movedAside = opts.reset ? resetSqliteFile(opts.db, opts.reset) : undefined;
  // Migrate before connecting: SQLite migrations need the file to themselves.
  await migrate(opts.db);
  const db = await createDb(opts.db, { sqliteSync: opts.sqliteSync });
  try {
    // FOS_NOW (docs/invoices.md) moves the whole server's clock; FOS_TEST_CLOCK_MS freezes it.
    const clock = fixedClock() ?? clockFromEnv();
    // On the Db before the demo loads (buildApp sets it too): its month of history and opening
    // receipts are dated by that clock, so the demo's invoice is of the month before FOS_NOW.
    if (clock) db.clock = clock;
    const bootstrap = await bootstrapIfEmpty(db);
    const demo = opts.demo ? await (await import('./demo/demo.js')).loadDemo(db) : undefined;
    const rateLimitStore = await rateLimitStoreFor(db, opts);
    const app = await buildApp({
      db,
      config: {
        logger: opts.logger,
        rateLimitStore,
        allowPrivateWebhooks: opts.allowPrivateWebhooks,
        unauthRateLimit: opts.unauthRateLimit,
        storage: opts.storage,
        maxUploadBytes: opts.maxUploadBytes,
        publicUrl: opts.publicUrl,
        trustProxy: opts.trustProxy,
        clock,
        metricsToken: opts.metricsToken,
        minFreeDiskBytes: opts.minFreeDiskBytes,
      },
    });
    // SQLite's page cache is the connection's own memory (PostgreSQL's is the server's).
    const stopIdleCollector = startIdleCollector(
      app,
      db.provider === 'sqlite' ? () => db.prisma.$executeRawUnsafe('PRAGMA shrink_memory') : undefined,
    );
    const address = await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 7070 });
    // Just after the start banner, while a client (`fos products import`) is still starting.
    setImmediate(() => app.compileValidatorsAtStart());
    // Delivers webhooks and sales-channel tracking pushes written by committed transactions.
    const worker = startOutboxWorker(db, app.log, {
      intervalMs: 2000,
      allowPrivateWebhooks: opts.allowPrivateWebhooks,
      auditRetentionDays: opts.auditRetentionDays ?? 365,
    });
    app.outboxWorker = worker; // GET /readyz checks it is alive
    // Connected shops: stock pushes and the periodic order/listing sync.
    const channels = startChannelWorker(db, app.log, {
      allowPrivate: opts.allowPrivateWebhooks,
      syncIntervalMs: (opts.channelSyncMinutes ?? 15) * 60_000,
    });
    // Images left PENDING by a stopped process (uploads kick the processor themselves).
    app.files.processor.start(30_000);
    const counts = startCountFolder(db, app.log, 5000);
    // Invoices: each billing period closed as a draft once it has ended.
    const invoiceCloser = startInvoiceCloser(db, app.log, { clock, intervalMs: 60_000 });
    // Daily storage: each warehouse's day snapshotted and billed once it has ended in its zone.
    const storageBiller = startStorageBiller(db, app.log, { clock, intervalMs: 60_000 });
    // Carrier label purchases a crash left between the platform's answer and fos's commit.
    const purchases = startPurchaseRecovery(db, app.log, { allowPrivate: opts.allowPrivateWebhooks }, 5000);
    // Label batches: resumed after a stop once their lease runs out.
    app.labelBatches.start(3000);
    const backups = opts.backup
      ? await (await import('./backup/schedule.js')).startBackupSchedule(opts.db, opts.backup, app.log)
      : undefined;
    const url = `${address.replace('[::1]', 'localhost')}/v1`;
    lock?.setUrl(url);
    return {
      app,
      db,
      url,
      bootstrap,
      demo,
      movedAside,
      close: async ({ drainMs = 10_000 } = {}) => {
        app.draining = true;
        stopIdleCollector();
        const cut = setTimeout(() => app.server.closeAllConnections(), drainMs);
        cut.unref();
        try {
          // app.close stops listening, closes idle keep-alive connections and waits for the rest.
          await Promise.all([
            worker.stop(),
            channels.stop(),
            counts.stop(),
            invoiceCloser.stop(),
            storageBiller.stop(),
            purchases.stop(),
            app.labelBatches.stop(),
            backups?.stop(),
            app.close(),
          ]);
        } finally {
          clearTimeout(cut);
          // Whatever failed above, the file is let go: a later server must not find a live lock.
          try {
            await db.close();
          } finally {
            lock?.release();
          }
        }
      },
    };
  } catch (err) {
    await db.close();
    throw err;
  }
}

/**
 * A test hook for tests that run fos as separate processes: FOS_TEST_CLOCK_MS fixes the rate
 * limiters' and key cache's clock at that epoch ms, so a burst cannot straddle a window (tests
 * in-process pass `clock` to buildApp). Unset in production: the real clock.
 */
function fixedClock(): (() => number) | undefined {
  const ms = Number(process.env.FOS_TEST_CLOCK_MS);
  return Number.isFinite(ms) && ms > 0 ? () => ms : undefined;
}
