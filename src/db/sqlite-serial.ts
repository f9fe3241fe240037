import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlDriverAdapter, Transaction } from '@prisma/driver-adapter-utils';
import type Database from 'libsql';
import type { SqliteScope } from './types.js';

// One SQLite connection serves the whole process (libsql.ts), so whatever uses it takes turns:
// Prisma's queries and transactions, and the stores' own transactions (issue 29: a write's
// transaction without Prisma's interactive-transaction machinery, src/db/tx.ts). The turn is
// this lock, taken around every entry of the Prisma adapter and by sqliteTransaction(); the
// adapter's own mutex stays beneath it. Inside a transaction of ours (an AsyncLocalStorage
// scope), the adapter is entered without the lock: it is ours already; a Prisma interactive
// transaction started there joins ours (the client's BEGIN and COMMIT are skipped,
// joinedTransaction()), so Prisma's calls inside it run in the same transaction.

/**
 * The file's write lock, taken without blocking the process. Another process on the same file
 * (a second `fos serve`) may hold it; a BEGIN IMMEDIATE under SQLite's busy timeout would then
 * wait inside the synchronous driver, freezing this process's event loop (every request, not only
 * the writer) and sleeping SQLite's growing backoff (up to 100 ms) after the lock was free: two
 * servers on one file fulfilled fewer orders at 16 concurrent packers than at 4. So BEGIN
 * IMMEDIATE is tried with the busy timeout at 0 and, while another process holds the lock, tried
 * again after a short jittered pause with the connection's turn given back meanwhile (this
 * process's reads go on), until the busy timeout has passed; then its SQLITE_BUSY is thrown, as
 * the blocking wait would have (transaction() retries it).
 */
const isBusy = (err: unknown) => String((err as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY');
const pause = (attempt: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, 1 + Math.floor(Math.random() * 2 ** Math.min(attempt, 3))));

/** BEGIN IMMEDIATE without waiting: true when begun, false when another connection holds the write lock. */
function tryBeginImmediate(conn: Database.Database, busyTimeoutMs: number, last: boolean): boolean {
  conn.exec('PRAGMA busy_timeout = 0');
  try {
    conn.exec('BEGIN IMMEDIATE');
    return true;
  } catch (err) {
    if (last || !isBusy(err)) throw err;
    return false;
  } finally {
    conn.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  }
}

/** A FIFO lock; a waiter may give up after maxWaitMs (as Prisma's maxWait: P2028, a 503). */
class Lock {
  private locked = false;
  private readonly waiting: Array<() => void> = [];

  acquire(maxWaitMs?: number): Promise<void> | undefined {
    if (!this.locked) {
      this.locked = true;
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const timer =
        maxWaitMs === undefined
          ? undefined
          : setTimeout(() => {
              this.waiting.splice(this.waiting.indexOf(grant), 1);
              reject(
                Object.assign(new Error('Unable to start a transaction in the given time (the database is busy).'), { code: 'P2028' }),
              );
            }, maxWaitMs);
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiting.push(grant);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.locked = false;
  }
}

const scopes = new AsyncLocalStorage<SqliteScope>();
const ownScope = (conn: Database.Database) => {
  const s = scopes.getStore();
  return s?.open && s.conn === conn ? s : undefined;
};

/** True when a Prisma transaction is being started inside a transaction of ours on `conn`: it joins it. */
export const joinedTransaction = (conn: Database.Database) => ownScope(conn) !== undefined;

export class SqliteSerial {
  private readonly lock = new Lock();

  constructor(
    private readonly conn: () => Database.Database | undefined,
    /** The connection's busy timeout: how long a transaction tries for the write lock (above). */
    private readonly busyTimeoutMs: number,
  ) {}

  /** BEGIN IMMEDIATE with the turn held (see tryBeginImmediate); rejects without the turn. */
  private async beginImmediate(conn: Database.Database): Promise<void> {
    const deadline = Date.now() + this.busyTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        if (tryBeginImmediate(conn, this.busyTimeoutMs, Date.now() >= deadline)) return;
      } catch (err) {
        this.lock.release();
        throw err;
      }
      this.lock.release();
      await pause(attempt);
      const wait = this.lock.acquire();
      if (wait) await wait;
    }
  }

  private async serial<T>(fn: () => Promise<T>): Promise<T> {
    const wait = this.lock.acquire();
    if (wait) await wait;
    try {
      return await fn();
    } finally {
      this.lock.release();
    }
  }

  /** Puts every entry of the Prisma adapter behind the lock (none inside a transaction of ours). */
  guard<A extends SqlDriverAdapter>(adapter: A): A {
    const ours = () => {
      const c = this.conn();
      return c !== undefined && ownScope(c) !== undefined;
    };
    for (const name of ['queryRaw', 'executeRaw', 'executeScript'] as const) {
      const fn = adapter[name].bind(adapter) as (arg: never) => Promise<unknown>;
      Object.defineProperty(adapter, name, { value: (arg: never) => (ours() ? fn(arg) : this.serial(() => fn(arg))) });
    }
    const start = adapter.startTransaction.bind(adapter);
    Object.defineProperty(adapter, 'startTransaction', {
      value: async (...args: Parameters<A['startTransaction']>) => {
        if (ours()) return start(...args);
        const wait = this.lock.acquire();
        if (wait) await wait;
        let tx: Transaction;
        try {
          tx = await start(...args);
        } catch (err) {
          this.lock.release();
          throw err;
        }
        let done = false;
        const end = (fn: () => Promise<void>) => async () => {
          try {
            await fn();
          } finally {
            if (!done) this.lock.release();
            done = true;
          }
        };
        return Object.assign(tx, { commit: end(tx.commit.bind(tx)), rollback: end(tx.rollback.bind(tx)) });
      },
    });
    return adapter;
  }

  /**
   * Runs `fn` in a transaction on the connection (BEGIN IMMEDIATE: the write lock at once), its
   * turn taken first (waiting up to maxWaitMs). After timeoutMs it is rolled back and the turn
   * given up, so a stuck caller cannot hold the database: its later statements fail
   * (statements.ts checks the scope) and a retry may follow.
   */
  async transaction<T>(fn: (scope: SqliteScope) => Promise<T>, opts: { maxWaitMs: number; timeoutMs: number }): Promise<T> {
    const conn = this.conn();
    if (!conn) throw new Error('sqliteTransaction: the database is not connected');
    if (ownScope(conn)) throw new Error('sqliteTransaction: a transaction inside a transaction');
    const wait = this.lock.acquire(opts.maxWaitMs);
    if (wait) await wait;
    await this.beginImmediate(conn);
    const scope: SqliteScope = { conn, open: true };
    const finish = (sql: 'COMMIT' | 'ROLLBACK') => {
      if (!scope.open) return;
      scope.open = false;
      clearTimeout(timer);
      try {
        if (sql === 'COMMIT' && !conn.inTransaction) throw new Error('sqliteTransaction: SQLite ended the transaction before COMMIT');
        if (conn.inTransaction) conn.exec(sql);
      } catch (err) {
        if (conn.inTransaction) conn.exec('ROLLBACK'); // a failed COMMIT leaves the transaction open
        throw err;
      } finally {
        this.lock.release();
      }
    };
    const timer = setTimeout(() => {
      try {
        finish('ROLLBACK');
      } catch {
        // the connection is unusable either way; the caller's next statement says so
      }
    }, opts.timeoutMs);
    let out: T;
    try {
      out = await scopes.run(scope, fn, scope);
    } catch (err) {
      finish('ROLLBACK');
      throw err;
    }
    if (!scope.open) throw Object.assign(new Error('Transaction already closed: it ran out of time.'), { code: 'P2028' });
    finish('COMMIT');
    return out;
  }
}
