import { setTimeout as sleep } from 'node:timers/promises';
import { isSerializationFailure } from './client.js';
import { bindStatements } from './statements.js';
import type { Db, TxClient } from './types.js';

// The one way a write runs in a transaction. A transaction that lost a race the database reports
// as retryable (isSerializationFailure: PostgreSQL serialization failure 40001 / deadlock 40P01,
// Prisma's P2034, SQLite BUSY) is re-run whole, up to TX_POLICY.attempts times: on PostgreSQL any
// error aborts the transaction, so the only retry is of the whole function, which must therefore
// have no effect outside the database that a second run would repeat harmfully.
//
// Rules that make writes race-free on both databases (docs/conventions.md):
//  - the FIRST statement of a contended transaction is a write (a compare-and-set UPDATE). On
//    SQLite a deferred BEGIN then takes the write lock at once (waiting busy_timeout), instead of
//    reading first and failing with SQLITE_BUSY when it upgrades to a writer; on PostgreSQL that
//    UPDATE takes the row lock that serialises racing writers of the same row.
//  - rows are locked in one order everywhere (each area documents its order), so racers never deadlock.
//  - a lost race surfaces as count 0 of a conditional UPDATE and becomes a 409.

export const TX_POLICY = {
  attempts: 6,
  /** On SQLite transactions queue on the adapter's mutex: a burst needs time to drain. */
  maxWaitMs: 15_000,
  timeoutMs: 20_000,
} as const;

export interface TxOptions {
  /** Fewer or more tries than TX_POLICY.attempts (1 = no retry). */
  attempts?: number;
  /** Domain-specific retryable errors, e.g. a generated number taken by a concurrent insert. */
  retryOn?: (err: unknown) => boolean;
}

export async function transaction<T>(db: Db, fn: (tx: TxClient) => Promise<T>, opts: TxOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? TX_POLICY.attempts;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.prisma.$transaction(
        (tx) => {
          bindStatements(db, tx); // the stores' prepared statements run in this transaction (statements.ts)
          return fn(tx);
        },
        { maxWait: TX_POLICY.maxWaitMs, timeout: TX_POLICY.timeoutMs },
      );
    } catch (err) {
      const retry = isSerializationFailure(err) || (opts.retryOn?.(err) ?? false);
      if (!retry || attempt >= attempts) throw err;
      await sleep(10 * attempt + Math.floor(Math.random() * 20));
    }
  }
}
