import { Sql } from '@prisma/client/runtime/client';
import { dialectOf, lastInstantText, type Dialect } from './dialect.js';
import { padInLists, SQLITE_MAX_BIND_VALUES } from './in-lists.js';
import { metrics, observeQuery } from '../shared/metrics.js';
import { pgAtCommit, pgQuery, type PgSlot } from './pg-tx.js';
import type { Db, Provider, SqliteConnection, SqliteScope, TxClient } from './types.js';

// How a store runs its hand-written statements inside a write transaction: prepared SQL through
// the driver, rows as plain objects the store types (issue 29: the hot paths at a few times the
// floor; the measurements and why this way are in docs/performance.md, "The hot path's driver").
//
//  - SQLite: on the Prisma client's own libSQL connection, each statement prepared once and kept
//    by its text. transaction() runs its own BEGIN IMMEDIATE/COMMIT there with the connection's
//    turn held (sqlite-serial.ts; in a bare Prisma transaction the adapter's mutex is held), so
//    nothing else runs on that connection and a statement run here is part of the transaction.
//    No Prisma runtime per statement.
//  - PostgreSQL: on the pg client of transaction()'s own transaction (pg-tx.ts), the statement's
//    text numbered once per text by the dialect; values in and out as Prisma's raw queries pass
//    and return them. In any other transaction (a bare `$transaction`) through its Prisma client,
//    `$queryRawUnsafe`.
//
// Arguments: Date, boolean, string, number, null. A Date is written as the Prisma adapters write
// it (SQLite: ISO text with +00:00), so rows written here and through Prisma compare and sort alike.

export interface Statements {
  readonly dialect: Dialect;
  /** Rows of a statement that returns rows (SELECT, or a write with RETURNING). */
  all<T>(sql: string, params: readonly unknown[]): Promise<T[]>;
  /** A write without RETURNING: the number of rows it changed. */
  run(sql: string, params: readonly unknown[]): Promise<number>;
  /**
   * A write whose outcome nobody reads, made as part of the commit: on PostgreSQL sent with the
   * COMMIT in one round trip (pg-tx.ts), so a failure fails the commit; elsewhere run at once.
   */
  runAtCommit?(sql: string, params: readonly unknown[]): Promise<void>;
}

type Statement = ReturnType<SqliteConnection['prepare']>;
interface Prepared {
  statement: Statement;
  /** Null for a statement without columns; else types each row as Prisma types a model's. */
  typed: ((row: Record<string, unknown>) => Record<string, unknown>) | null;
}
const prepared = new WeakMap<SqliteConnection, Map<string, Prepared>>();
const MAX_PREPARED = 300;

/**
 * Rows typed by their columns' declared types, as Prisma reads them: DATETIME -> Date, JSONB ->
 * the parsed value, BOOLEAN -> boolean (SQLite has the declared type of a table's column even in
 * RETURNING; an expression has none and comes back as SQLite gives it).
 */
function typerOf(statement: Statement): Prepared['typed'] {
  const columns = statement.columns() as Array<{ name: string; type: string | null }>;
  if (!columns.length) return null;
  const convert: Array<[string, (v: unknown) => unknown]> = [];
  for (const c of columns) {
    const type = (c.type ?? '').toUpperCase();
    if (type === 'DATETIME') convert.push([c.name, (v) => new Date(v as string)]);
    else if (type === 'JSONB' || type === 'JSON') convert.push([c.name, (v) => (typeof v === 'string' ? JSON.parse(v) : v)]);
    else if (type === 'BOOLEAN') convert.push([c.name, (v) => v === 1 || v === true]);
  }
  return (row) => {
    for (const [name, fn] of convert) if (row[name] !== null && row[name] !== undefined) row[name] = fn(row[name]);
    return row;
  };
}

function statementOf(conn: SqliteConnection, sql: string): Prepared {
  let cache = prepared.get(conn);
  if (!cache) prepared.set(conn, (cache = new Map()));
  let st = cache.get(sql);
  if (!st) {
    if (cache.size >= MAX_PREPARED) cache.delete(cache.keys().next().value!);
    const statement = conn.prepare(sql);
    st = { statement, typed: typerOf(statement) };
    cache.set(sql, st);
  }
  return st;
}

/** An argument as the SQLite statements bind it (a Date as the Prisma adapter writes it). */
export const sqliteArg = (v: unknown) =>
  v instanceof Date ? dateText(v) : typeof v === 'boolean' ? (v ? 1 : 0) : v === undefined ? null : v;

// As the Prisma adapter writes a Date (an invalid date throws here, as before).
const dateText = lastInstantText((d) => d.toISOString().replace('Z', '+00:00'));

/** The transaction ran out of time (sqlite-serial.ts rolled it back): nothing more may run in it. */
const closed = () => Object.assign(new Error('Transaction already closed: it ran out of time.'), { code: 'P2028' });

function sqliteStatements(conn: SqliteConnection, dialect: Dialect, scope?: SqliteScope): Statements {
  return {
    dialect,
    all: async <T>(sql: string, params: readonly unknown[]) => {
      if (scope && !scope.open) throw closed();
      const start = metrics ? performance.now() : 0;
      const padded = padInLists(sql, params, SQLITE_MAX_BIND_VALUES); // one text per IN list length otherwise
      const { statement, typed } = statementOf(conn, padded.sql);
      const rows = statement.all(padded.args.map(sqliteArg)) as Record<string, unknown>[];
      if (start) observeQuery(start); // fos_db_query_duration_seconds (Prisma's statements: query-timing.ts)
      return (typed ? rows.map(typed) : rows) as T[];
    },
    run: async (sql, params) => {
      if (scope && !scope.open) throw closed();
      const start = metrics ? performance.now() : 0;
      const padded = padInLists(sql, params, SQLITE_MAX_BIND_VALUES);
      const changes = statementOf(conn, padded.sql).statement.run(padded.args.map(sqliteArg)).changes;
      if (start) observeQuery(start);
      return changes;
    },
  };
}

function prismaStatements(tx: TxClient, dialect: Dialect): Statements {
  return {
    dialect,
    all: <T>(sql: string, params: readonly unknown[]) => tx.$queryRawUnsafe<T[]>(dialect.text(sql), ...params),
    run: (sql, params) => tx.$executeRawUnsafe(dialect.text(sql), ...params),
  };
}

function pgStatements(slot: PgSlot, dialect: Dialect): Statements {
  const { client } = slot;
  return {
    dialect,
    all: async <T>(sql: string, params: readonly unknown[]) => {
      if (!slot.open) throw closed();
      return (await pgQuery(client, dialect.text(sql), params)).rows as T[];
    },
    run: async (sql, params) => {
      if (!slot.open) throw closed();
      return (await pgQuery(client, dialect.text(sql), params)).rowCount ?? 0;
    },
    runAtCommit: async (sql, params) => {
      if (!slot.open) throw closed();
      if (!pgAtCommit(slot, sql, params)) await pgQuery(client, dialect.text(sql), params);
    },
  };
}

const ofTx = new WeakMap<TxClient, Statements>();

/**
 * Called by transaction() (tx.ts) for each transaction it starts, so its stores find the
 * statements by `tx` alone; `scope`: SQLite's transaction of our own (sqlite-serial.ts), or the
 * pg connection of a PostgreSQL one (pg-tx.ts).
 */
export function bindStatements(db: Db, tx: TxClient, scope?: SqliteScope | PgSlot): void {
  const dialect = dialectOf(db.provider);
  if (scope && 'client' in scope) {
    ofTx.set(tx, pgStatements(scope, dialect));
    return;
  }
  const conn = (scope && 'conn' in scope ? scope.conn : undefined) ?? db.sqliteConnection?.();
  ofTx.set(tx, conn ? sqliteStatements(conn, dialect, scope as SqliteScope | undefined) : prismaStatements(tx, dialect));
}

/** The statements of a transaction started by transaction() (src/db/tx.ts), undefined for any other. */
export const boundStatements = (tx: TxClient): Statements | undefined => ofTx.get(tx);

/** Statements whose SQL is the same on both databases: they need no dialect. */
export type PortableStatements = Omit<Statements, 'dialect'>;

/**
 * Prisma's raw query with `?` placeholders: Prisma writes them in its provider's form (a `Sql`
 * object of the text's pieces and the values), so no dialect is needed. The text must have no
 * literal `?`.
 */
function portablePrismaStatements(tx: TxClient): PortableStatements {
  const query = (sql: string, params: readonly unknown[]) => new Sql(sql.split('?'), params as never[]);
  return {
    all: <T>(sql: string, params: readonly unknown[]) => tx.$queryRaw<T[]>(query(sql, params)),
    run: (sql, params) => tx.$executeRaw(query(sql, params)),
  };
}

/**
 * For a store whose statements read the same on both databases (the inventory ledger's, called
 * from every area): the statements of a transaction() (src/db/tx.ts), or, in any other Prisma
 * transaction (a bare `$transaction`), Prisma's raw query.
 */
export const portableStatementsOf = (tx: TxClient): PortableStatements => ofTx.get(tx) ?? portablePrismaStatements(tx);

/**
 * The statements of a transaction started by transaction() (src/db/tx.ts). A transaction started
 * otherwise (a bare `$transaction`) runs them through Prisma, which needs its provider.
 */
export function statementsOf(tx: TxClient, provider?: Provider): Statements {
  const bound = ofTx.get(tx);
  if (bound) return bound;
  if (!provider) throw new Error('statementsOf: not a transaction() of src/db/tx.ts, and no provider given');
  return prismaStatements(tx, dialectOf(provider));
}

/**
 * PostgreSQL: the row locks of `table` where `where` (with `?` placeholders), taken in id order
 * (dialect.lockRowsInOrder) before a multi-row write, so racers never deadlock; nothing where one
 * writer holds the database (SQLite).
 */
export async function lockInOrder(st: Statements, table: string, where: string, params: readonly unknown[]): Promise<void> {
  const sql = st.dialect.lockRowsInOrder(table, where);
  if (sql) await st.all(sql, params);
}

/**
 * The statements of any transaction: a transaction() (src/db/tx.ts)'s own, or, in a bare Prisma
 * `$transaction`, Prisma's raw query in the dialect of the client's provider (Prisma keeps it on
 * every client, the transaction's included).
 */
export const anyStatementsOf = (tx: TxClient): Statements =>
  ofTx.get(tx) ?? prismaStatements(tx, dialectOf((tx as unknown as { _activeProvider: Provider })._activeProvider));
