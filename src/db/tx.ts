import { setTimeout as sleep } from 'node:timers/promises';
import { isSerializationFailure, retryCause, type RetryCause } from './client.js';
import { countTxRetry } from '../shared/metrics.js';
import { bindStatements } from './statements.js';
import { joinPg } from './pg-tx.js';
import type { PgSlot } from './pg-tx.js';
import type { Db, SqliteScope, TxClient } from './types.js';

// The one way a write runs in a transaction. A transaction that lost a race the database reports
// as retryable (isSerializationFailure: PostgreSQL serialization failure 40001 / deadlock 40P01,
// Prisma's P2034, SQLite BUSY) is re-run whole, up to TX_POLICY.attempts times: on PostgreSQL any
// error aborts the transaction, so the only retry is of the whole function, which must therefore
// have no effect outside the database that a second run would repeat harmfully.
//
// Rules that make writes race-free on both databases (docs/conventions.md):
//  - the FIRST statement of a contended transaction is a write (a compare-and-set UPDATE). On
//    SQLite the transaction is BEGIN IMMEDIATE (the write lock at once, waiting busy_timeout);
//    on PostgreSQL that UPDATE takes the row lock that serialises racing writers of the same row.
//  - rows are locked in one order everywhere (each area documents its order; several rows of a table
//    in id order: lockInOrder in statements.ts before a multi-row UPDATE), so racers never deadlock.
//    A deadlock that happens anyway is retried like a serialization failure, with full jitter, and
//    reported to onTxRetry listeners (metrics); out of attempts it is a 503 (isTransientFailure).
//  - on PostgreSQL a check that reads another table's rows (a subquery in the UPDATE's WHERE) reads
//    a snapshot older than the row lock it waited for: take that lock in a statement of its own first.
//  - a lost race surfaces as count 0 of a conditional UPDATE and becomes a 409.
//
// The transaction is our own, not Prisma's interactive transaction (its start and commit cost
// ~0.15 ms each time on SQLite, issue 29, more on PostgreSQL, issue 36; the stores' statements
// need none of it): on SQLite's one connection (sqlite-serial.ts), on a client of the pg pool
// (pg-tx.ts). A Prisma call on `tx` starts, at its first use, a Prisma interactive transaction
// that joins ours and stays open until ours ends (joinedPrisma).

export const TX_POLICY = {
  attempts: 6,
  /** Backoff before retry n: a random wait in [0, min(maxBackoffMs, baseBackoffMs * 2^(n-1))] (full jitter). */
  baseBackoffMs: 8,
  maxBackoffMs: 250,
  /** On SQLite transactions queue on the connection's turn: a burst needs time to drain. */
  maxWaitMs: 15_000,
  timeoutMs: 20_000,
} as const;

export interface TxOptions {
  /** Fewer or more tries than TX_POLICY.attempts (1 = no retry). */
  attempts?: number;
  /** Domain-specific retryable errors, e.g. a generated number taken by a concurrent insert. */
  retryOn?: (err: unknown) => boolean;
}

const policy = { maxWait: TX_POLICY.maxWaitMs, timeout: TX_POLICY.timeoutMs };

/** One retryable failure of a transaction attempt (onTxRetry). */
export interface TxRetryEvent {
  /** deadlock: PostgreSQL 40P01; serialization: 40001 / Prisma P2034; busy: SQLITE_BUSY; domain: the caller's retryOn. */
  cause: RetryCause | 'domain';
  /** The attempt that failed, from 1. */
  attempt: number;
  /** True when no attempt is left: the error reaches the caller (a 503 for the first three causes). */
  exhausted: boolean;
}

type TxRetryListener = (e: TxRetryEvent) => void;
const listeners = new Set<TxRetryListener>();
const counts: Record<TxRetryEvent['cause'], number> & { exhausted: number } = {
  deadlock: 0,
  serialization: 0,
  busy: 0,
  domain: 0,
  exhausted: 0,
};

/**
 * Calls `cb` on every retryable failure of a transaction attempt in this process (for metrics:
 * deadlocks and serialization failures that the retry absorbed, and those that ran out of
 * attempts). Returns the function that removes it. A listener that throws is ignored.
 */
export function onTxRetry(cb: TxRetryListener): () => void {
  listeners.add(cb);
  return () => listeners.delete(cb);
}

/** Retryable failures seen by this process since it started, per cause, and how many ran out of attempts. */
export const txRetryCounts = () => ({ ...counts });

function report(e: TxRetryEvent) {
  counts[e.cause]++;
  if (e.exhausted) counts.exhausted++;
  for (const cb of listeners) {
    try {
      cb(e);
    } catch {
      // metrics never break a write
    }
  }
}

/** Full jitter: racers that collided retry at scattered moments instead of colliding again. */
const backoff = (attempt: number) =>
  Math.floor(Math.random() * Math.min(TX_POLICY.maxBackoffMs, TX_POLICY.baseBackoffMs * 2 ** (attempt - 1))) + 1;

/**
 * Hook of the audit log (src/domain/audit/record.ts): `beforeCommit` runs last inside every
 * attempt (its insert commits or rolls back with the write; a retried attempt runs it again in
 * the new transaction, so only one row survives), `committed` once the transaction committed.
 */
export const txHooks: {
  beforeCommit?: (tx: TxClient, result: unknown) => Promise<void>;
  committed?: () => void;
} = {};

async function withHooks<T>(tx: TxClient, fn: (tx: TxClient) => Promise<T>): Promise<T> {
  const out = await fn(tx);
  if (txHooks.beforeCommit) await txHooks.beforeCommit(tx, out);
  return out;
}

export async function transaction<T>(db: Db, fn: (tx: TxClient) => Promise<T>, opts: TxOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? TX_POLICY.attempts;
  for (let attempt = 1; ; attempt++) {
    try {
      const out = await ownTransaction(db, (tx) => withHooks(tx, fn));
      txHooks.committed?.();
      return out;
    } catch (err) {
      const cause = isSerializationFailure(err) ? retryCause(err) : opts.retryOn?.(err) ? 'domain' : null;
      if (!cause) throw err;
      countTxRetry(cause, attempt < attempts); // fos_db_transaction_retries_total, fos_db_deadlocks_total
      report({ cause, attempt, exhausted: attempt >= attempts });
      if (attempt >= attempts) throw err;
      await sleep(backoff(attempt));
    }
  }
}

// The Db each open transaction of ours runs on, by its `tx`: code handed only a `tx` reads the
// application's clock (Db.clock: AppConfig.clock, FOS_NOW) through clockOf, so a charge made
// inside a fulfill or a receipt is dated by the same clock as the period close that invoices it.
const dbOfTx = new WeakMap<object, Db>();

/** The clock (epoch ms) of the Db `tx` is a transaction of; Date.now outside a transaction of ours. */
export const clockOf = (tx: TxClient): (() => number) => dbOfTx.get(tx)?.clock ?? Date.now;

/**
 * A transaction of ours (SQLite: sqlite-serial.ts; PostgreSQL: pg-tx.ts): the stores' statements
 * bound to it, and a Prisma call on `tx` in a Prisma transaction that joins it (joinedPrisma).
 */
function ownTransaction<T>(db: Db, fn: (tx: TxClient) => Promise<T>): Promise<T> {
  const run = async (scope: SqliteScope | PgSlot, join?: (start: () => Promise<void>) => Promise<void>) => {
    const prisma = joinedPrisma(db, join);
    bindStatements(db, prisma.tx, scope);
    dbOfTx.set(prisma.tx, db);
    let ok = false;
    try {
      const out = await fn(prisma.tx);
      ok = true;
      return out;
    } finally {
      await prisma.end(ok);
    }
  };
  if (db.sqliteTransaction)
    return db.sqliteTransaction((scope) => run(scope), { maxWaitMs: TX_POLICY.maxWaitMs, timeoutMs: TX_POLICY.timeoutMs });
  return db.pgTransaction!((slot) => run(slot, (start) => joinPg(slot, start)), { timeoutMs: TX_POLICY.timeoutMs });
}

const rolledBack = () => new Error('rolled back with the transaction it joined');
type Call = (...args: unknown[]) => Promise<unknown>;

/**
 * The `tx` of a SQLite transaction of ours: the stores find their statements by it; a Prisma call
 * on it (`tx.<model>.<op>(…)`, `tx.$queryRaw…`) runs in a Prisma interactive transaction started
 * at the first such call, which joins ours (sqlite-serial.ts) and is ended by end() (its own
 * commit or rollback does nothing; ours decides).
 */
function joinedPrisma(
  db: Db,
  join: (start: () => Promise<void>) => Promise<void> = (start) => start(),
): { tx: TxClient; end(ok: boolean): Promise<void> } {
  let client: Promise<TxClient> | undefined;
  let running: Promise<unknown> | undefined;
  let outcome: boolean | undefined;
  let settle: ((ok: boolean) => void) | undefined;
  const start = () =>
    (client ??= new Promise<TxClient>((resolve, reject) => {
      running = join(() =>
        db.prisma.$transaction((c) => {
          resolve(c);
          return new Promise<void>((ok, fail) => {
            settle = (done) => (done ? ok() : fail(rolledBack()));
            if (outcome !== undefined) settle(outcome);
          });
        }, policy),
      ).catch(reject);
    }));
  const forward =
    (of: (c: Record<string, unknown>) => Call): Call =>
    (...args) =>
      start().then((c) => of(c as unknown as Record<string, unknown>)(...args));
  const models = new Map<string, unknown>();
  const model = (name: string) =>
    new Proxy(
      {},
      {
        get: (_, op) =>
          typeof op !== 'string' || op === 'then'
            ? undefined
            : forward((c) => {
                const m = c[name] as Record<string, Call>;
                return m[op]!.bind(m);
              }),
      },
    );
  const tx = new Proxy(
    {},
    {
      get(_, prop) {
        if (typeof prop !== 'string' || prop === 'then') return undefined;
        if (prop.startsWith('$')) return forward((c) => (c[prop] as Call).bind(c));
        let m = models.get(prop);
        if (!m) models.set(prop, (m = model(prop)));
        return m;
      },
    },
  ) as TxClient;
  return {
    tx,
    end: async (ok) => {
      if (!client) return;
      outcome = ok;
      settle?.(ok);
      await running;
    },
  };
}
