import Database from 'libsql';
import { parseDbUrl, SQLITE_BUSY_TIMEOUT_MS } from './client.js';
import { dialectOf, type Dialect } from './dialect.js';
import { padInLists, SQLITE_MAX_BIND_VALUES } from './in-lists.js';
import { sqliteArg } from './statements.js';
import type { Db } from './types.js';

// How a store runs a hand-written read outside a transaction (issue 29 target 2: list pages at
// 0.7x a hand-written server): prepared SQL through the driver, rows as plain objects the store
// types; no Prisma runtime, no row objects or Date conversions it does not ask for.
//
//  - SQLite: a connection of its own on the same file, read-only, each statement prepared once
//    and kept by its text. Not the Prisma client's connection: between the statements of an
//    interactive transaction that connection is inside the transaction, and a read there would
//    see its uncommitted writes. In WAL mode a second connection reads the last commit without
//    waiting for the writer.
//  - PostgreSQL: the statement's text (numbered once per text by the dialect) on the raw driver,
//    on the pool under Prisma's driver adapter (Db#pgQuery, pg-tx.ts: rows as Prisma's raw query
//    returns them), which takes a connection per statement as a read would anyway.

export interface Reads {
  readonly dialect: Dialect;
  /** Rows of a SELECT written with `?` placeholders; Date arguments are written as the Prisma adapters write them. */
  all<T>(sql: string, params: readonly unknown[]): Promise<T[]>;
}

const MAX_PREPARED = 200;
const reads = new WeakMap<Db, Reads>();

function sqliteReads(db: Db, dialect: Dialect): Reads {
  let conn: Database.Database | undefined;
  const prepared = new Map<string, Database.Statement>();
  // The connection closes with the Db (createDb's close is wrapped once, here, rather than
  // every Db knowing about this module).
  const close = db.close;
  db.close = async () => {
    conn?.close();
    conn = undefined;
    await close();
  };
  const statement = (sql: string) => {
    let st = prepared.get(sql);
    if (!st) {
      if (!conn) {
        conn = new Database((parseDbUrl(db.url) as { file: string }).file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
        conn.pragma('query_only = ON');
      }
      if (prepared.size >= MAX_PREPARED) prepared.delete(prepared.keys().next().value!);
      prepared.set(sql, (st = conn.prepare(sql)));
    }
    return st;
  };
  return {
    dialect,
    all: async <T>(sql: string, params: readonly unknown[]) => {
      const padded = padInLists(sql, params, SQLITE_MAX_BIND_VALUES); // one text per IN list length otherwise
      return statement(padded.sql).all(padded.args.map(sqliteArg)) as T[];
    },
  };
}

/** The reads of `db` (one read connection per Db on SQLite, opened on first use). */
export function readsOf(db: Db): Reads {
  let r = reads.get(db);
  if (!r) {
    const dialect = dialectOf(db.provider);
    r =
      db.provider === 'sqlite'
        ? sqliteReads(db, dialect)
        : {
            dialect,
            all: <T>(sql: string, params: readonly unknown[]) =>
              db.pgQuery ? db.pgQuery<T>(dialect.text(sql), params) : db.prisma.$queryRawUnsafe<T[]>(dialect.text(sql), ...params),
          };
    reads.set(db, r);
  }
  return r;
}
