import type { Db, TxClient } from '../../db/types.js';
import { isSerializationFailure } from '../../db/client.js';

// One transaction, re-run when it lost a race the database reports as retryable (PostgreSQL
// deadlock / serialization failure, SQLite busy). `retryOn` adds domain-specific cases, such as
// a generated order number taken by a concurrent conversion. On PostgreSQL any error aborts the
// transaction, so retrying means re-running the whole function.

export interface TxOptions {
  attempts?: number;
  retryOn?: (err: unknown) => boolean;
}

export async function inTransaction<T>(db: Db, fn: (tx: TxClient) => Promise<T>, opts: TxOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? 6;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.prisma.$transaction(fn, { maxWait: 10_000, timeout: 20_000 });
    } catch (err) {
      const retry = isSerializationFailure(err) || (opts.retryOn?.(err) ?? false);
      if (!retry || attempt >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
    }
  }
}
