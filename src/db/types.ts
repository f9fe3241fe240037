// The one place the rest of the code takes Prisma types from.
//
// scripts/prisma-gen.mjs generates two clients from prisma/schema.prisma, one per provider
// (src/generated/sqlite, src/generated/postgresql). They have the same model API, so all code is
// typed against the SQLite one; src/db/client.ts casts the PostgreSQL client to it.
//
//   import type { PrismaClient, Prisma, Team } from '../db/types.js';   // types only
//   import { TeamKind } from '../db/types.js';                         // enum values (plain objects)
//
// Never import a client from src/generated/* directly: createDb() loads the right one lazily.

export type * from '../generated/sqlite/client.js';
// Enum value objects (`TeamKind.MERCHANT`) are plain constants, identical for both providers;
// enums.js has no imports, so this does not load the SQLite client.
export * from '../generated/sqlite/enums.js';

import type { Prisma, PrismaClient } from '../generated/sqlite/client.js';

export type Provider = 'sqlite' | 'postgresql';

/** A transaction of sqliteTransaction() in progress (open until it commits, rolls back or times out). */
export interface SqliteScope {
  readonly conn: SqliteConnection;
  open: boolean;
}

/** libSQL's synchronous connection (the better-sqlite3 API). */
export type SqliteConnection = import('libsql').Database;

/** A connected database. Create with createDb() from src/db/client.ts. */
export interface Db {
  /** The Prisma client (typed as the SQLite client; the PostgreSQL one has the same API). */
  prisma: PrismaClient;
  provider: Provider;
  /** Normalized URL: `file:/abs/path.db` for SQLite, the URL as given for PostgreSQL. */
  url: string;
  /**
   * SQLite: the Prisma client's one connection, for the stores' prepared statements inside a
   * Prisma transaction (src/db/statements.ts); undefined on PostgreSQL.
   */
  sqliteConnection?: () => SqliteConnection | undefined;
  /**
   * SQLite: a transaction on that connection without Prisma's interactive-transaction machinery,
   * the connection's turn taken (src/db/sqlite-serial.ts); used by transaction() (src/db/tx.ts).
   */
  sqliteTransaction?: <T>(fn: (scope: SqliteScope) => Promise<T>, opts: { maxWaitMs: number; timeoutMs: number }) => Promise<T>;
  /**
   * PostgreSQL: one statement (placeholders $1…) on the pool under the Prisma client's driver
   * adapter, outside any transaction, on the raw driver: values in and rows out as Prisma's raw
   * queries pass and return them (pg-tx.ts). pgTransaction: a transaction of ours on a client of
   * that pool, without Prisma's interactive-transaction machinery (used by transaction(), tx.ts).
   * Undefined on SQLite.
   */
  pgTransaction?: <T>(fn: (slot: import('./pg-tx.js').PgSlot) => Promise<T>, opts: { timeoutMs: number }) => Promise<T>;
  pgQuery?: <T>(text: string, params: readonly unknown[]) => Promise<T[]>;
  /** Disconnects the client (closes the SQLite file / ends the pg pool). */
  close(): Promise<void>;
  /** The application's clock (epoch ms), set by buildApp from AppConfig.clock; unset: Date.now (src/domain/clock.ts). */
  clock?: () => number;
}

/** Prisma transaction client, as passed to `prisma.$transaction(async (tx) => …)`. */
export type TxClient = Prisma.TransactionClient;
