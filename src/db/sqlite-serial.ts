import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from '@prisma/driver-adapter-utils';

// @prisma/adapter-better-sqlite3 runs the whole process on ONE connection. It queues
// interactive transactions against each other (a mutex around BEGIN .. COMMIT), but a plain
// query issued while a transaction is open runs on that same connection, i.e. INSIDE the other
// request's transaction: it reads that transaction's uncommitted rows, and a write is silently
// rolled back with it. This wrapper puts plain queries in the same queue, so each one runs
// between transactions, never inside someone else's.
//
// Consequence: code inside `$transaction(async (tx) => …)` must use `tx`, never `db.prisma`
// (on SQLite that would wait for its own transaction until the transaction timeout).

type Release = () => void;

function queue() {
  let tail: Promise<void> = Promise.resolve();
  return async (): Promise<Release> => {
    let release!: Release;
    const held = new Promise<void>((r) => (release = r));
    const prev = tail;
    tail = prev.then(() => held);
    await prev;
    return release;
  };
}

function serialized(conn: SqlDriverAdapter): SqlDriverAdapter {
  const acquire = queue();
  const exclusive = (fn: (...args: unknown[]) => Promise<unknown>) => async (...args: unknown[]) => {
    const release = await acquire();
    try {
      return await fn(...args);
    } finally {
      release();
    }
  };
  const wrapTx = (tx: Transaction, release: Release): Transaction => {
    let ended = false;
    const end = () => {
      if (!ended) {
        ended = true;
        release();
      }
    };
    return new Proxy(tx, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target);
        if ((prop === 'commit' || prop === 'rollback') && typeof v === 'function') {
          return async () => {
            try {
              return await v.call(target);
            } finally {
              end();
            }
          };
        }
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  };
  return new Proxy(conn, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      if (prop === 'queryRaw' || prop === 'executeRaw' || prop === 'executeScript') return exclusive(v.bind(target));
      if (prop === 'startTransaction') {
        return async (...args: unknown[]) => {
          const release = await acquire();
          try {
            return wrapTx(await v.apply(target, args), release);
          } catch (err) {
            release();
            throw err;
          }
        };
      }
      return v.bind(target);
    },
  });
}

/** Wraps every connection the factory opens (see the header). For the Prisma client only. */
export function serializeSqliteConnections<F extends SqlDriverAdapterFactory>(factory: F): F {
  return new Proxy(factory, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (prop === 'connect' && typeof v === 'function') {
        return async () => serialized(await v.call(target));
      }
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
