import type { Client, Config, InStatement, ResultSet, Transaction, TransactionMode } from '@libsql/client';
import { PrismaLibSql } from '@prisma/adapter-libsql';
import Database from 'libsql';
import { padInLists, SQLITE_MAX_BIND_VALUES } from './in-lists.js';
import { joinedTransaction, SqliteSerial } from './sqlite-serial.js';
import type { SqliteScope } from './types.js';
import { metrics, observeQuery } from '../shared/metrics.js';

// The SQLite driver: libSQL, whose prebuilt N-API binaries come from the npm registry for every
// platform and Node.js version, so `npm install` needs no compiler and downloads nothing from
// elsewhere (issue 8; better-sqlite3 fetches its binaries from GitHub and otherwise compiles
// against the running Node's headers).
//
// The Prisma adapter (@prisma/adapter-libsql) queues the process's queries and transactions on one
// mutex. Under it, instead of @libsql/client (which opens a NEW connection after every BEGIN and
// never closes the old one: 2,000 transactions left 4,000 file descriptors and +600 MB open until
// the GC finalised them), one libSQL connection serves everything, as better-sqlite3's adapter did:
// foreign keys on (libSQL's default), busy timeout from `timeout`, WAL set by the migrator. The
// connection's turn (Prisma's calls or transaction()'s own transaction) is sqlite-serial.ts's lock.

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Arguments as @libsql/client hands them to the driver (the native binding takes no booleans). */
const toSql = (v: unknown) =>
  typeof v === 'boolean' ? (v ? 1 : 0) : v instanceof ArrayBuffer ? Buffer.from(v) : v instanceof Date ? v.valueOf() : v;

/** Values as @libsql/client returns them: safe integers as numbers (larger ones stay BigInt, exact), blobs as ArrayBuffer. */
const fromSql = (v: unknown) =>
  typeof v === 'bigint'
    ? v >= -SAFE && v <= SAFE
      ? Number(v)
      : v
    : Buffer.isBuffer(v)
      ? v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength)
      : v;

interface Prepared {
  statement: Database.Statement;
  columns: { name: string; type: string | null }[];
}

/**
 * Prepared statements by SQL text, most recently used last. Prisma sends the same few hundred
 * statements again and again, and preparing one (plus reading its columns) cost more than running
 * it. SQLite re-prepares a cached statement itself if the schema changes under it.
 */
class StatementCache {
  private readonly entries = new Map<string, Prepared>();

  constructor(
    private readonly db: Database.Database,
    private readonly max = 500,
  ) {}

  get(sql: string): Prepared {
    let entry = this.entries.get(sql);
    if (entry) {
      this.entries.delete(sql);
    } else {
      const statement = this.db.prepare(sql);
      const columns = statement.columns() as Prepared['columns'];
      if (columns.length) statement.safeIntegers(true).raw(true);
      entry = { statement, columns };
      if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(sql, entry);
    return entry;
  }
}

/** A statement of Prisma's, timed for fos_db_query_duration_seconds while metrics are on. */
function run(cache: StatementCache, stmt: InStatement): ResultSet {
  if (!metrics) return runStatement(cache, stmt);
  const start = performance.now();
  try {
    return runStatement(cache, stmt);
  } finally {
    observeQuery(start);
  }
}

function runStatement(cache: StatementCache, stmt: InStatement): ResultSet {
  const given = typeof stmt === 'string' ? { sql: stmt, args: [] } : stmt;
  if (!Array.isArray(given.args ?? [])) throw new TypeError('named SQL arguments are not used by the Prisma adapter');
  // Prisma writes a `?` per value of an IN list: one text per length without this (in-lists.ts).
  const { sql, args } = padInLists(given.sql, (given.args ?? []) as unknown[], SQLITE_MAX_BIND_VALUES);
  const { statement: prepared, columns } = cache.get(sql);
  const params = args.map(toSql);
  if (columns.length) {
    const raw = prepared.all(params) as unknown as unknown[][];
    const rows = raw.map((r) => r.map(fromSql)) as unknown as ResultSet['rows'];
    return {
      columns: columns.map((c) => c.name),
      columnTypes: columns.map((c) => c.type ?? ''),
      rows,
      rowsAffected: 0,
      lastInsertRowid: undefined,
      toJSON: () => ({}),
    };
  }
  const info = prepared.run(params);
  return {
    columns: [],
    columnTypes: [],
    rows: [],
    rowsAffected: info.changes,
    lastInsertRowid: BigInt(info.lastInsertRowid ?? 0),
    toJSON: () => ({}),
  };
}

/** The part of @libsql/client's Client the Prisma adapter uses, on one synchronous connection. */
function oneConnectionClient(db: Database.Database): Client {
  const statements = new StatementCache(db);
  const begin: Record<TransactionMode, string> = { write: 'BEGIN IMMEDIATE', read: 'BEGIN', deferred: 'BEGIN DEFERRED' };
  const client = {
    closed: false,
    protocol: 'file',
    execute: async (stmt: InStatement) => run(statements, stmt),
    executeMultiple: async (sql: string) => {
      db.exec(sql);
    },
    transaction: async (mode: TransactionMode = 'deferred') => {
      // Inside a transaction of ours (sqlite-serial.ts) Prisma's transaction joins it: no BEGIN
      // nor COMMIT of its own, the outer transaction commits or rolls back.
      const joined = joinedTransaction(db);
      if (!joined) db.exec(begin[mode]);
      const end = async () => {
        if (!joined && db.inTransaction) db.exec('ROLLBACK');
      };
      const tx = {
        execute: async (stmt: InStatement) => run(statements, stmt),
        executeMultiple: async (sql: string) => {
          db.exec(sql);
        },
        commit: async () => {
          if (!joined) db.exec('COMMIT');
        },
        rollback: end,
        close: end,
        get closed() {
          return !db.inTransaction;
        },
      };
      return tx as unknown as Transaction;
    },
    close: () => {
      client.closed = true;
      db.close();
    },
  };
  return client as unknown as Client;
}

class OneConnectionLibSql extends PrismaLibSql {
  constructor(
    private readonly file: string,
    private readonly timeout: number,
  ) {
    super({ url: `file:${file}` });
    this.serial = new SqliteSerial(() => this.connection, timeout);
  }

  /** The connection of the client connected last (the one the Prisma client uses). */
  private connection: Database.Database | undefined;
  /** Whose turn it is on the connection: Prisma's calls or a transaction of ours (sqlite-serial.ts). */
  private readonly serial: SqliteSerial;

  override createClient(config: Config): Client {
    // The shadow database of `connectToShadowDb` asks for :memory:.
    const shadow = config.url === ':memory:';
    const db = new Database(shadow ? ':memory:' : this.file, { timeout: this.timeout });
    if (!shadow) this.connection = db;
    return oneConnectionClient(db);
  }

  /**
   * The Prisma client's own connection, for the stores' prepared statements (src/db/statements.ts).
   * Only to be used inside a transaction (sqliteTransaction, or a Prisma one: the connection's turn
   * is then held), so nothing else runs on it and a statement run on it is part of that transaction.
   */
  sqliteConnection(): Database.Database | undefined {
    return this.connection;
  }

  /** A transaction on the connection without Prisma's interactive-transaction machinery (src/db/tx.ts). */
  sqliteTransaction<T>(fn: (scope: SqliteScope) => Promise<T>, opts: { maxWaitMs: number; timeoutMs: number }): Promise<T> {
    return this.serial.transaction(fn, opts);
  }

  /**
   * Prisma assumes SQLite's old limit of 999 bound values unless the adapter says otherwise, and
   * refuses (P2029) a query with more: a list page narrowed to the up to FTS_CAP (2,000) ids a
   * search index found, e.g. an order search matching 1,500 orders, failed with a 500. libSQL
   * allows SQLite's current default, 32,766 (test/unit/db.test.ts).
   */
  override async connect() {
    const adapter = this.serial.guard(await super.connect());
    return Object.assign(adapter, { getConnectionInfo: () => ({ maxBindValues: MAX_BIND_VALUES, supportsRelationJoins: false }) });
  }
}

/** SQLITE_MAX_VARIABLE_NUMBER of the libSQL build (SQLite's default since 3.32). */
export const MAX_BIND_VALUES = SQLITE_MAX_BIND_VALUES;

/** The Prisma adapter factory for a SQLite file. */
export function libsqlFactory(file: string, busyTimeoutMs: number) {
  return new OneConnectionLibSql(file, busyTimeoutMs);
}
