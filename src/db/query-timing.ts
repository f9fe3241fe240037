import type { SqlDriverAdapter, SqlQueryable } from '@prisma/driver-adapter-utils';
import { metrics, observeQuery } from '../shared/metrics.js';

// fos_db_query_duration_seconds for Prisma's statements on PostgreSQL: the driver adapter's
// connection (and each transaction it starts) gets timed queryRaw/executeRaw, patched once per
// object, so a statement costs two clock reads and one histogram observation, and nothing while
// metrics are off. On SQLite, Prisma's statements are timed in libsql.ts (the adapter's methods
// are fixed there by sqlite-serial.ts) and the stores' own in statements.ts.

type Run = (...args: unknown[]) => Promise<unknown>;

function timeMethods(q: SqlQueryable) {
  for (const name of ['queryRaw', 'executeRaw'] as const) {
    const run = (q[name] as Run).bind(q);
    (q as unknown as Record<string, Run>)[name] = (...args) => {
      if (!metrics) return run(...args);
      const start = performance.now();
      return run(...args).finally(() => observeQuery(start));
    };
  }
}

/** Times the statements of a connection the adapter factory opened (withConnectionSetup's setup). */
export async function timeQueries(conn: SqlDriverAdapter): Promise<void> {
  timeMethods(conn);
  const begin = conn.startTransaction.bind(conn);
  conn.startTransaction = async (...args: Parameters<SqlDriverAdapter['startTransaction']>) => {
    const tx = await begin(...args);
    timeMethods(tx);
    return tx;
  };
}
