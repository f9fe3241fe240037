import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlDriverAdapter, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import { Decimal } from '@prisma/client/runtime/client';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { metrics, observeQuery } from '../shared/metrics.js';
import { lastInstantText } from './dialect.js';

// PostgreSQL: a write's transaction on the raw driver (issue 36), as SQLite's is (sqlite-serial.ts).
// Prisma's interactive transaction cost CPU at its start and end, and every statement of the stores
// through its client (`$queryRawUnsafe`) went through Prisma's request pipeline (argument
// serialisation, its engine, the result's deserialisation): ~0.3 ms each, 50-odd per fulfillment.
// Here transaction() (tx.ts) takes a pg client from the pool under the Prisma client's driver
// adapter, sends BEGIN, runs the stores' statements on it (`client.query`, statements.ts), and
// COMMITs or ROLLBACKs. A Prisma call on the transaction's `tx` starts, at its first use, a Prisma
// interactive transaction that JOINS ours: the adapter's startTransaction, called inside joinPg(),
// answers with a transaction on our client that sends no BEGIN, COMMIT nor ROLLBACK of its own
// (captureTransactions), so Prisma's calls run in the same transaction, queued on the same client.
// Values go in and come out as Prisma's raw queries pass and return them (pgArg, PARSERS), so a
// store reads the same rows either way.

/** A transaction of ours in progress: its pg client, open until it commits, rolls back or times out. */
export interface PgSlot {
  client: PoolClient;
  open: boolean;
  /** Statements (values written in) sent with the COMMIT, in its round trip (pgAtCommit). */
  atCommit: string[];
}

const joining = new AsyncLocalStorage<PgSlot>();

/** Runs `start` (which starts a Prisma interactive transaction) so that it joins the transaction of `slot`. */
export const joinPg = <T>(slot: PgSlot, start: () => Promise<T>): Promise<T> => joining.run(slot, start);

const closedError = () => Object.assign(new Error('Transaction already closed: it ran out of time.'), { code: 'P2028' });

/** Wraps the adapter connection's startTransaction: one started inside joinPg() joins that transaction of ours. */
export function captureTransactions(conn: SqlDriverAdapter): void {
  const begin = conn.startTransaction.bind(conn);
  const queryable = Object.getPrototypeOf(conn) as SqlDriverAdapter;
  conn.startTransaction = async (...args: Parameters<SqlDriverAdapter['startTransaction']>) => {
    const slot = joining.getStore();
    if (!slot) return begin(...args);
    // The adapter's own query methods on our client (its PgQueryable reads `this.client`).
    const joined = Object.create(conn) as Transaction & { client: PoolClient };
    joined.client = slot.client;
    for (const name of ['queryRaw', 'executeRaw'] as const) {
      const run = (queryable[name] as (q: SqlQuery) => Promise<never>).bind(joined);
      joined[name] = async (q: SqlQuery) => {
        if (!slot.open) throw closedError();
        const start = metrics ? performance.now() : 0;
        try {
          return await run(q);
        } finally {
          if (start) observeQuery(start);
        }
      };
    }
    // usePhantomQuery: Prisma ends it by commit()/rollback() alone, which leave the end to ours.
    return Object.assign(joined, { options: { usePhantomQuery: true }, commit: async () => {}, rollback: async () => {} });
  };
}

/**
 * Runs `fn` in a transaction on a client of `pool` (waiting up to the pool's connection timeout
 * for one: P2028, a 503). After timeoutMs it is rolled back and the client given back, so a stuck
 * caller cannot hold a connection: its later statements fail (the slot is closed) and a retry may
 * follow. A failed ROLLBACK or COMMIT destroys the client instead of returning it to the pool.
 */
export async function pgTransaction<T>(pool: Pool, fn: (slot: PgSlot) => Promise<T>, opts: { timeoutMs: number }): Promise<T> {
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    throw Object.assign(new Error(`Unable to start a transaction in the given time: ${(err as Error).message}`), {
      code: 'P2028',
      cause: err,
    });
  }
  // A checked-out client's 'error' (the server ended the connection) must not go unheard (it
  // would end the process); the statement in flight fails with it, and finish() destroys the client.
  const onError = () => undefined;
  client.on('error', onError);
  const slot: PgSlot = { client, open: true, atCommit: [] };
  let ending: Promise<void> | undefined;
  const finish = (sql: 'COMMIT' | 'ROLLBACK') =>
    (ending ??= (async () => {
      slot.open = false;
      clearTimeout(timer);
      try {
        // A statement left for the commit fails it (the transaction is then aborted and the
        // client destroyed): no COMMIT without it.
        await client.query(sql === 'COMMIT' && slot.atCommit.length ? [...slot.atCommit, sql].join(';\n') : sql);
        client.release();
      } catch (err) {
        client.release(err as Error);
        throw err;
      } finally {
        client.off('error', onError);
      }
    })());
  const timer = setTimeout(() => void finish('ROLLBACK').catch(() => undefined), opts.timeoutMs);
  let out: T;
  try {
    await client.query('BEGIN');
    out = await fn(slot);
  } catch (err) {
    await finish('ROLLBACK').catch(() => undefined);
    throw err;
  }
  if (!slot.open) throw closedError();
  await finish('COMMIT');
  return out;
}

/** The pool the adapter connection queries through (outside transactions). */
export const poolOf = (conn: SqlDriverAdapter): Pool | undefined =>
  (conn as unknown as { underlyingDriver?: () => Pool }).underlyingDriver?.();

// ---------- values as Prisma's raw queries pass and return them ----------

const pad = (n: number, z = 2) => String(n).padStart(z, '0');

/** A Date as the Prisma adapter sends it: UTC wall time, TIMESTAMP(3) columns have no zone. */
const dateTime = lastInstantText((d) => {
  const ms = d.getUTCMilliseconds();
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${ms ? `.${pad(ms, 3)}` : ''}`
  );
});

/** An argument as Prisma's raw query sends it (an array as a PostgreSQL array, another object as its JSON text). */
export function pgArg(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (v instanceof Date) return dateTime(v);
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(pgArg);
  if (typeof v === 'object' && !ArrayBuffer.isView(v)) return JSON.stringify(v);
  return v;
}

/**
 * A TIMESTAMP column's text as a UTC instant. PostgreSQL writes a TIMESTAMP(3) as
 * "YYYY-MM-DD HH:MM:SS" with ".f" to ".fff" when it has milliseconds: read by its digits (building
 * an ISO string for the Date parser was a top entry of a PostgreSQL fulfillment's own CPU); any
 * other text (a zone, more digits, a year before 100 or past 9999, BC) by the parser, as before.
 */
export function utc(text: string): Date {
  const n = text.length;
  if ((n === 19 || (n >= 21 && n <= 23 && text.charCodeAt(19) === 46)) && text.charCodeAt(10) === 32) {
    const year = Number(text.slice(0, 4));
    const ms = n === 19 ? 0 : Number(text.slice(20)) * 10 ** (23 - n);
    const t = Date.UTC(
      year,
      Number(text.slice(5, 7)) - 1,
      Number(text.slice(8, 10)),
      Number(text.slice(11, 13)),
      Number(text.slice(14, 16)),
      Number(text.slice(17, 19)),
      ms,
    );
    if (year >= 100 && Number.isInteger(t)) return new Date(t);
  }
  return parsedUtc(text);
}
const parsedUtc = (text: string) => new Date(`${text.replace(' ', 'T')}${/[+-]\d\d(:?\d\d)?$/.test(text) ? '' : 'Z'}`);
const zoned = (text: string) => new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));

/** Column types whose value Prisma's raw query returns otherwise than pg's defaults (by type oid). */
const PARSERS: Record<number, (text: string) => unknown> = {
  20: (t) => BigInt(t), // int8
  1114: utc, // timestamp: UTC wall time (as written by dateTime)
  1184: zoned, // timestamptz
  1082: (t) => new Date(`${t}T00:00:00Z`), // date
  1700: (t) => new Decimal(t), // numeric
  17: (t) => {
    const b = pgTypes!.getTypeParser(17, 'text') as (t: string) => Buffer; // bytea, as a plain Uint8Array
    const buf = b(t);
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  },
};

type TypeParsers = { getTypeParser(oid: number, format?: string): unknown };
let pgTypes: TypeParsers | undefined;
/**
 * The pool's clients' type parsers (client.ts pgAdapterFactory): pgQuery's rows, parsed with
 * PARSERS. Prisma's adapter passes parsers of its own with each of its queries.
 */
export const pgTypeParsers = {
  getTypeParser: (oid: number, format?: string) => (format !== 'binary' && PARSERS[oid]) || pgTypes!.getTypeParser(oid, format),
};

/** Loads pg's own type parsers once (pg is loaded only on PostgreSQL). */
export async function loadPgTypes(): Promise<void> {
  pgTypes ??= (await import('pg')).default.types as unknown as TypeParsers;
}

/**
 * pg's escapeLiteral (pg/lib/utils.js), the same text: quotes and backslashes doubled, ` E'…'`
 * with a backslash. Its loop appends one character at a time, a new string per character: a
 * JSON payload of a few kilobytes left as many thousand strings for the collector.
 */
export function escapeLiteral(s: string): string {
  const quoted = `'${s.replaceAll("'", "''")}'`;
  return s.includes('\\') ? ` E${quoted.replaceAll('\\', '\\\\')}` : quoted;
}

/** A value as an SQL literal, or undefined for one that has none here (bytes). */
function literal(v: unknown): string | undefined {
  const x = pgArg(v);
  if (x === null) return 'NULL';
  if (typeof x === 'number') return Number.isFinite(x) ? String(x) : undefined;
  if (typeof x === 'boolean') return x ? 'TRUE' : 'FALSE';
  if (typeof x === 'string') return escapeLiteral(x);
  return undefined;
}

/**
 * Leaves `sql` (`?` placeholders, none in its text otherwise) with `params` written in as
 * literals to be sent with the transaction's COMMIT, in the same round trip: a write whose result
 * nobody reads (the audit record) costs no wait of its own. False when a value has no literal here
 * (the caller runs it at once instead).
 */
export function pgAtCommit(slot: PgSlot, sql: string, params: readonly unknown[]): boolean {
  const parts = sql.split('?');
  if (parts.length !== params.length + 1) return false;
  let text = parts[0]!;
  for (let i = 0; i < params.length; i++) {
    const lit = literal(params[i]);
    if (lit === undefined) return false;
    text += lit + parts[i + 1];
  }
  slot.atCommit.push(text);
  return true;
}

/**
 * `text` (placeholders $1…) with `params`, on `client` (a transaction's connection, or the pool).
 * pg's own promise, not one more of an async function around it (a promise per statement for
 * the collector), unless it is timed.
 */
export function pgQuery(client: PoolClient | Pool, text: string, params: readonly unknown[]): Promise<QueryResult> {
  const start = metrics ? performance.now() : 0;
  let sent: Promise<QueryResult>;
  try {
    sent = send(client, text, params.map(pgArg));
  } catch (err) {
    return Promise.reject(err as Error);
  }
  return start ? sent.finally(() => observeQuery(start)) : sent; // fos_db_query_duration_seconds
}

function send(client: PoolClient | Pool, text: string, values: unknown[]): Promise<QueryResult> {
  // Text and values, not a QueryConfig: pg copies a config object property by property (its
  // descriptors) per query. The rows are parsed with the pool's parsers, pgTypeParsers.
  // pg writes a statement's five messages (parse, bind, describe, execute, sync) one socket write
  // each; corked, they leave in one write (a transaction's client is idle here, so it sends at once).
  const stream = (client as { connection?: { stream?: { cork?(): void; uncork(): void } } }).connection?.stream;
  if (!stream?.cork) return client.query(text, values);
  stream.cork();
  try {
    return client.query(text, values);
  } finally {
    stream.uncork();
  }
}
