import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlDriverAdapter, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import { Decimal } from '@prisma/client/runtime/client';
import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { metrics, observeQuery } from '../shared/metrics.js';

// PostgreSQL: the stores' statements on the pg connection of the transaction they belong to
// (issue 36). Through the transaction's Prisma client (`$queryRawUnsafe`) every statement went
// through Prisma's request pipeline (argument serialisation, its engine, the result's
// deserialisation): ~0.3 ms of CPU each, 50-odd per fulfillment. Here a statement is one
// `client.query` on the very connection Prisma's interactive transaction holds, so it is part of
// that transaction (same BEGIN, same COMMIT or ROLLBACK, same row locks) and nothing else runs
// on the connection meanwhile: Prisma's calls in the transaction queue on the same client.
//
// The connection is found when the driver adapter starts the transaction (captureTransactions,
// wired in client.ts): transaction() (tx.ts) starts Prisma's transaction inside a slot of this
// AsyncLocalStorage, and the adapter's startTransaction, called on that async path, fills it.
// Values go in and come out as Prisma's raw queries pass and return them (pgArg, PARSERS), so a
// store reads the same rows either way.

/** The pg connection of a transaction being started or running; open until Prisma ends it. */
export interface PgSlot {
  client?: PoolClient;
  open: boolean;
}

const starting = new AsyncLocalStorage<PgSlot>();

/** Runs `start` (which starts a Prisma interactive transaction) with `slot` to be filled by the adapter. */
export const inPgSlot = <T>(slot: PgSlot, start: () => Promise<T>): Promise<T> => starting.run(slot, start);

const ends = /^\s*(COMMIT|ROLLBACK)\b/i;

/**
 * Wraps the adapter connection's startTransaction: a transaction started inside a slot hands it
 * its pg client; the slot closes as Prisma sends COMMIT or ROLLBACK (a timed-out transaction
 * too), before the client goes back to the pool, so a late statement fails instead of running on
 * a connection that serves someone else.
 */
export function captureTransactions(conn: SqlDriverAdapter): void {
  const begin = conn.startTransaction.bind(conn);
  conn.startTransaction = async (...args: Parameters<SqlDriverAdapter['startTransaction']>) => {
    const tx = await begin(...args);
    const slot = starting.getStore();
    const client = (tx as unknown as { client?: PoolClient }).client;
    if (!slot || slot.client || !client) return tx;
    slot.client = client;
    slot.open = true;
    const close = () => {
      slot.open = false;
    };
    const executeRaw = tx.executeRaw.bind(tx);
    tx.executeRaw = (q: SqlQuery) => {
      if (ends.test(q.sql)) close();
      return executeRaw(q);
    };
    for (const name of ['commit', 'rollback'] as const) {
      const end = (tx[name] as Transaction['commit']).bind(tx);
      tx[name] = () => (close(), end());
    }
    return tx;
  };
}

/** The pool the adapter connection queries through (outside transactions). */
export const poolOf = (conn: SqlDriverAdapter): Pool | undefined =>
  (conn as unknown as { underlyingDriver?: () => Pool }).underlyingDriver?.();

// ---------- values as Prisma's raw queries pass and return them ----------

const pad = (n: number, z = 2) => String(n).padStart(z, '0');

/** A Date as the Prisma adapter sends it: UTC wall time, TIMESTAMP(3) columns have no zone. */
function dateTime(d: Date): string {
  const ms = d.getUTCMilliseconds();
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${ms ? `.${pad(ms, 3)}` : ''}`
  );
}

/** An argument as Prisma's raw query sends it (an array as a PostgreSQL array, another object as its JSON text). */
export function pgArg(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (v instanceof Date) return dateTime(v);
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(pgArg);
  if (typeof v === 'object' && !ArrayBuffer.isView(v)) return JSON.stringify(v);
  return v;
}

const utc = (text: string) => new Date(`${text.replace(' ', 'T')}${/[+-]\d\d(:?\d\d)?$/.test(text) ? '' : 'Z'}`);
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
const types = {
  getTypeParser: (oid: number, format?: string) => (format !== 'binary' && PARSERS[oid]) || pgTypes!.getTypeParser(oid, format),
};

/** Loads pg's own type parsers once (pg is loaded only on PostgreSQL). */
export async function loadPgTypes(): Promise<void> {
  pgTypes ??= (await import('pg')).default.types as unknown as TypeParsers;
}

/** `text` (placeholders $1…) with `params`, on `client` (a transaction's connection, or the pool). */
export async function pgQuery(client: PoolClient | Pool, text: string, params: readonly unknown[]): Promise<QueryResult> {
  const start = metrics ? performance.now() : 0;
  const query: QueryConfig = { text, values: params.map(pgArg), types } as QueryConfig;
  try {
    return await client.query(query);
  } finally {
    if (start) observeQuery(start); // fos_db_query_duration_seconds
  }
}
