// Database connection for both providers.
//
//   const db = await createDb(process.env.DATABASE_URL ?? './data/fos.db');
//   await migrate(db);                       // src/db/migrate.ts
//   await db.prisma.team.findMany();
//   await db.close();
//
// URL forms:
//   SQLite      ./data/fos.db · /abs/fos.db · file:./data/fos.db · file:/abs/fos.db · file:///abs/fos.db
//   PostgreSQL  postgres://user:pass@host:5432/db  or  postgresql://…
//               optional query parameters: schema=<name> (search_path and Prisma's schema),
//               connection_limit=<n> (pool size, default 10), pool_timeout=<seconds> (default 10)
//
// Only the client of the provider in use is loaded (dynamic import), so a SQLite process never
// loads pg, and vice versa.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { PoolConfig } from 'pg';
import type { Db, PrismaClient, Provider } from './types.js';
import { timeQueries } from './query-timing.js';
import { captureTransactions, loadPgTypes, pgQuery as runPg, pgTransaction as runPgTransaction, pgTypeParsers, poolOf } from './pg-tx.js';
import { AUTOCHECKPOINT_PAGES, startWalCheckpointer, WAL_SIZE_LIMIT_BYTES } from './wal-checkpointer.js';

export type { Db, Provider } from './types.js';

/** SQLite: how long a writer waits for the write lock before failing with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;
const PG_DEFAULT_POOL_SIZE = 10;

/**
 * When a SQLite commit reaches the disk (`fos serve --sqlite-sync`). Both keep the database
 * consistent and lose nothing when the process dies; they differ on a power cut or OS crash.
 *  - normal (default): a commit is in the OS's hands when it returns, and the write-ahead log is
 *    synced to the disk within SQLITE_WAL_SYNC_MS (a checkpoint syncs it first). A power cut may
 *    lose the commits of that last second, as PostgreSQL's synchronous_commit = off may.
 *  - full: every commit waits for its fsync (about 3 ms on this machine's disk, during which the
 *    single connection does nothing else: a fulfillment's five commits add ~16 ms to its ~12 ms).
 */
export type SqliteSync = 'normal' | 'full';
export const SQLITE_WAL_SYNC_MS = 1000;

/** Applied on every SQLite connection (the Prisma client's and the migrator's). */
export const sqlitePragmas = (sync: SqliteSync = 'normal') => [
  `PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`,
  'PRAGMA journal_mode = WAL', // persistent in the file; readers do not block the writer
  'PRAGMA foreign_keys = ON',
  // 32 MiB of page cache (SQLite's default is 2 MiB): a 1,000-line receipt touches a leaf of each
  // product-led ledger index per product, and once those indexes outgrow the cache every one is a
  // read (its 2,000-row insert: 82 -> 58 ms into a 200,000-row ledger; docs/performance.md).
  // Pages are taken as they are used, so an idle server holds none of it.
  'PRAGMA cache_size = -32768',
  `PRAGMA synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`,
  // NORMAL: the checkpointer thread folds the log every second; commits fold it only past this.
  ...(sync === 'full'
    ? []
    : [`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`, `PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`]),
];

export type DbTarget =
  { provider: 'sqlite'; url: string; file: string } | { provider: 'postgresql'; url: string; pool: PoolConfig; schema?: string };

/** Parses a database URL (see the header for the accepted forms). Throws on unsupported ones. */
export function parseDbUrl(url: string): DbTarget {
  const raw = url.trim();
  if (/^postgres(ql)?:\/\//i.test(raw)) {
    const u = new URL(raw);
    const schema = u.searchParams.get('schema') ?? undefined;
    const limit = Number(u.searchParams.get('connection_limit') ?? PG_DEFAULT_POOL_SIZE);
    const poolTimeout = Number(u.searchParams.get('pool_timeout') ?? 10);
    for (const p of ['schema', 'connection_limit', 'pool_timeout']) u.searchParams.delete(p);
    if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(schema)) {
      throw new Error(`unsupported schema name in database URL: ${schema}`);
    }
    const pool: PoolConfig = {
      connectionString: u.toString(),
      max: Number.isInteger(limit) && limit > 0 ? limit : PG_DEFAULT_POOL_SIZE,
      connectionTimeoutMillis: (Number.isFinite(poolTimeout) && poolTimeout > 0 ? poolTimeout : 10) * 1000,
      idleTimeoutMillis: 30_000,
      application_name: 'fos',
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    };
    return { provider: 'postgresql', url: raw, pool, schema };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) && !/^file:/i.test(raw)) {
    throw new Error(`unsupported database URL (use a SQLite file path or postgres://…): ${raw}`);
  }
  let file: string;
  if (/^file:\/\//i.test(raw)) file = fileURLToPath(raw.replace(/\?.*$/, ''));
  else if (/^file:/i.test(raw)) file = decodeURIComponent(raw.slice(5).replace(/\?.*$/, ''));
  else file = raw;
  if (!file || file === ':memory:') {
    throw new Error('an in-memory SQLite database is not supported: the migrator and the client use separate connections');
  }
  file = path.resolve(file);
  return { provider: 'sqlite', url: `file:${file}`, file };
}

/**
 * Wraps an adapter factory so that every connection it opens runs `setup` first.
 * Used to apply SQLITE_PRAGMAS on the client's connection (the adapters have no hook of their own).
 */
export function withConnectionSetup<F extends SqlDriverAdapterFactory>(factory: F, setup: (conn: SqlDriverAdapter) => Promise<void>): F {
  return new Proxy(factory, {
    get(target, prop) {
      if (prop === 'connect' || prop === 'connectToShadowDb') {
        const fn = Reflect.get(target, prop, target) as (() => Promise<SqlDriverAdapter>) | undefined;
        if (typeof fn !== 'function') return fn;
        return async () => {
          const conn = await fn.call(target);
          try {
            await setup(conn);
          } catch (err) {
            await conn.dispose().catch(() => {});
            throw err;
          }
          return conn;
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** Opens the SQLite adapter factory for a file (creating its directory), with our pragmas. */
export async function sqliteAdapterFactory(file: string, sync: SqliteSync = 'normal') {
  mkdirSync(path.dirname(file), { recursive: true });
  const { libsqlFactory } = await import('./libsql.js');
  return withConnectionSetup(libsqlFactory(file, SQLITE_BUSY_TIMEOUT_MS), (conn) =>
    conn.executeScript(sqlitePragmas(sync).join(';\n') + ';'),
  );
}

/** Opens the PostgreSQL adapter factory (a pg pool is created on connect). */
export async function pgAdapterFactory(target: Extract<DbTarget, { provider: 'postgresql' }>) {
  const { PrismaPg } = await import('@prisma/adapter-pg');
  // Rows of our own statements on its pool parsed as Prisma's raw queries return them (pg-tx.ts).
  return new PrismaPg({ ...target.pool, types: pgTypeParsers }, target.schema ? { schema: target.schema } : undefined);
}

export interface CreateDbOptions {
  /** Prisma log levels, e.g. ['warn', 'error'] or ['query'] when debugging. */
  log?: Array<'info' | 'query' | 'warn' | 'error'>;
  /** SQLite: when a commit reaches the disk (default normal; see SqliteSync). */
  sqliteSync?: SqliteSync;
}

/** Connects to a SQLite file or a PostgreSQL database. Does not migrate (see migrate()). */
export async function createDb(url: string, opts: CreateDbOptions = {}): Promise<Db> {
  const target = parseDbUrl(url);
  let prisma: PrismaClient;
  let sqliteConnection: Db['sqliteConnection'];
  let sqliteTransaction: Db['sqliteTransaction'];
  let pgQuery: Db['pgQuery'];
  let pgTransaction: Db['pgTransaction'];
  if (target.provider === 'sqlite') {
    const [{ PrismaClient: SqliteClient }, adapter] = await Promise.all([
      import('../generated/sqlite/client.js'),
      sqliteAdapterFactory(target.file, opts.sqliteSync),
    ]);
    sqliteConnection = () => adapter.sqliteConnection();
    sqliteTransaction = (fn, o) => adapter.sqliteTransaction(fn, o);
    prisma = new SqliteClient({ adapter, ...(opts.log ? { log: opts.log } : {}) }) as unknown as PrismaClient;
  } else {
    const [{ PrismaClient: PgClient }, adapter] = await Promise.all([
      import('../generated/postgresql/client.js'),
      pgAdapterFactory(target),
    ]);
    // Statements timed for /metrics (query-timing.ts); SQLite's are timed in libsql.ts. The pool
    // under the adapter serves transaction()'s own transactions and statements on the raw driver
    // (pg-tx.ts); a Prisma transaction started inside one of ours joins it (captureTransactions).
    await loadPgTypes();
    let pool: ReturnType<typeof poolOf>;
    const connected = () => {
      if (!pool) throw new Error('PostgreSQL: the database is not connected');
      return pool;
    };
    pgQuery = async <T>(text: string, params: readonly unknown[]) => (await runPg(connected(), text, params)).rows as T[];
    pgTransaction = (fn, o) => runPgTransaction(connected(), fn, o);
    prisma = new PgClient({
      adapter: withConnectionSetup(adapter, async (conn) => {
        await timeQueries(conn);
        captureTransactions(conn);
        pool = poolOf(conn);
      }),
      ...(opts.log ? { log: opts.log } : {}),
    }) as unknown as PrismaClient;
  }
  await prisma.$connect();
  const provider: Provider = target.provider;
  // synchronous = NORMAL syncs the write-ahead log only at checkpoints: a passive checkpoint
  // every SQLITE_WAL_SYNC_MS (it syncs the log before copying it into the database, and waits for
  // no one) bounds what a power cut can take to that last interval; on a thread of its own.
  const walSync =
    target.provider === 'sqlite' && opts.sqliteSync !== 'full'
      ? startWalCheckpointer(target.file, SQLITE_WAL_SYNC_MS, SQLITE_BUSY_TIMEOUT_MS)
      : undefined;
  let closed: Promise<void> | undefined;
  return {
    prisma,
    provider,
    url: target.url,
    ...(sqliteConnection ? { sqliteConnection } : {}),
    ...(sqliteTransaction ? { sqliteTransaction } : {}),
    ...(pgQuery ? { pgQuery } : {}),
    ...(pgTransaction ? { pgTransaction } : {}),
    close: () =>
      (closed ??= (async () => {
        await walSync?.close();
        await prisma.$disconnect();
      })()),
  };
}

// ---------- errors that domain code retries on or maps to API errors ----------

type ErrLike = {
  code?: unknown; // Prisma (P2002), pg (23505), libSQL (SQLITE_BUSY)
  originalCode?: unknown; // driver code kept by the driver adapters in DriverAdapterError.cause
  kind?: unknown; // driver-adapter error kind
  extendedCode?: unknown;
  cause?: unknown;
  meta?: unknown;
};

const codesOf = (e: ErrLike): unknown[] => [e.code, e.originalCode];

/** The error, its `cause` chain and Prisma's `meta.driverAdapterError`, breadth first. */
function* errorChain(err: unknown): Generator<ErrLike> {
  const queue: unknown[] = [err];
  const seen = new Set<unknown>();
  while (queue.length) {
    const e = queue.shift();
    if (e === null || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const x = e as ErrLike;
    yield x;
    queue.push(x.cause);
    if (x.meta && typeof x.meta === 'object') queue.push((x.meta as { driverAdapterError?: unknown }).driverAdapterError);
  }
}

/**
 * True for a unique-constraint violation from either provider: Prisma P2002, a driver-adapter
 * error of kind UniqueConstraintViolation (raw queries), pg 23505, SQLite SQLITE_CONSTRAINT_UNIQUE /
 * _PRIMARYKEY.
 */
export function isUniqueViolation(err: unknown): boolean {
  for (const e of errorChain(err)) {
    if (e.kind === 'UniqueConstraintViolation') return true;
    for (const code of codesOf(e)) {
      if (code === 'P2002' || code === '23505') return true;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return true;
    }
  }
  return false;
}

/**
 * True when the transaction lost a race and should simply be retried: Prisma P2034 (write
 * conflict / deadlock), pg 40001 (serialization_failure) / 40P01 (deadlock_detected), SQLite
 * SQLITE_BUSY* (the busy timeout ran out, or a read transaction could not be upgraded to a write
 * in WAL mode). Through Prisma a SQLite BUSY surfaces as P1008 "Operation has timed out" with the
 * driver error (code SQLITE_BUSY / extendedCode 5) in its cause.
 */
export function isSerializationFailure(err: unknown): boolean {
  for (const e of errorChain(err)) {
    if (e.kind === 'TransactionWriteConflict') return true;
    if (e.kind === 'sqlite' && typeof e.extendedCode === 'number' && (e.extendedCode & 0xff) === 5 /* SQLITE_BUSY */) {
      return true;
    }
    // @prisma/adapter-libsql reports BUSY as kind SocketTimeout with the raw SQLite code as text.
    if (e.kind === 'SocketTimeout' && /^\d+$/.test(String(e.originalCode)) && (Number(e.originalCode) & 0xff) === 5) return true;
    for (const code of codesOf(e)) {
      if (code === 'P2034' || code === '40001' || code === '40P01') return true;
      if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return true;
    }
  }
  return false;
}

export type RetryCause = 'deadlock' | 'serialization' | 'busy';

/** Which retryable failure `err` is (isSerializationFailure must hold): a deadlock, a serialization failure, SQLite busy. */
export function retryCause(err: unknown): RetryCause {
  let cause: RetryCause = 'serialization';
  for (const e of errorChain(err)) {
    if (codesOf(e).includes('40P01') || /deadlock detected/i.test(String((e as { message?: unknown }).message ?? ''))) return 'deadlock';
    if (e.kind === 'sqlite' || e.kind === 'SocketTimeout' || codesOf(e).some((c) => typeof c === 'string' && c.startsWith('SQLITE_BUSY')))
      cause = 'busy';
  }
  return cause;
}

// Kinds and codes of a database that is busy or whose connection went away: nothing was
// committed by the failed statement, and the same request may succeed in a moment.
const TRANSIENT_KINDS = new Set([
  'ConnectionClosed',
  'SocketTimeout',
  'DatabaseNotReachable',
  'TooManyConnections',
  'TransactionAlreadyClosed',
]);
const TRANSIENT_CODES = new Set([
  'P2028', // Prisma: transaction expired, already closed, or not started within maxWait
  'P1001',
  'P1002',
  'P1008',
  'P1017', // Prisma: cannot reach / timed out / server closed the connection
  '57P01',
  '57P02',
  '57P03', // pg: admin_shutdown (pg_terminate_backend), crash_shutdown, cannot_connect_now
  '08000',
  '08003',
  '08006',
  '08001',
  '08004', // pg: connection exceptions
  '53300',
  '55P03',
  '57014', // pg: too many connections, lock not available, query canceled (statement timeout)
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
]);
const TRANSIENT_MESSAGES =
  /Connection terminated|connection error and is not queryable|Transaction already closed|expired transaction|Unable to start a transaction/i;

/**
 * True when a request failed because the database was busy or unreachable rather than because
 * of the request: a retryable serialization failure that ran out of retries, an expired or
 * unstartable transaction (P2028), a cut connection (pg 57P01 when an operator or a failover ends
 * the backend). The API answers these 503 with retry-after, never 500.
 */
export function isTransientFailure(err: unknown): boolean {
  if (isSerializationFailure(err)) return true;
  for (const e of errorChain(err)) {
    if (typeof e.kind === 'string' && TRANSIENT_KINDS.has(e.kind)) return true;
    for (const code of codesOf(e)) if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && TRANSIENT_MESSAGES.test(message)) return true;
  }
  return false;
}
