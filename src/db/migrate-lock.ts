// The migrator's own connection, holding the cross-process migration lock while it is open:
//  - PostgreSQL: a session-level advisory lock, pg_advisory_lock(MIGRATION_LOCK_KEY), on a plain
//    `pg` client (not a pool, whose connections change from query to query) that also runs the
//    migrations. Advisory locks are per database, so separate databases on one server do not wait
//    on each other; the lock goes with the session (a crashed process cannot leave it held).
//  - SQLite: an IMMEDIATE transaction on a companion file `<db file>.migrate-lock`, polled without
//    blocking the event loop. A separate file, so that holding it blocks no reader or writer of the
//    database itself (a running server keeps working while another process finds nothing to do).
//    The OS drops the lock with the process; the empty lock file stays and is harmless.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SQLITE_BUSY_TIMEOUT_MS, type DbTarget } from './client.js';

/** pg_advisory_lock key for migrations (arbitrary constant: "fos" + "mig"). */
export const MIGRATION_LOCK_KEY = 0x666f736d6967n;
/** How long a second migrator waits for the first before giving up. */
const LOCK_WAIT_MS = 5 * 60_000;

/** What the runner needs of a database; statements take `?` placeholders on both providers. */
export interface MigrationConnection {
  /** Runs a script of several statements, split by the database itself. */
  exec(script: string): Promise<void>;
  run(sql: string, params: unknown[]): Promise<void>;
  all<T>(sql: string): Promise<T[]>;
  /** Ends a transaction a failed script left open (nothing when none is). */
  rollback(): Promise<void>;
  /** Releases the lock and closes. */
  close(): Promise<void>;
}

export function openMigrationConnection(db: DbTarget): Promise<MigrationConnection> {
  return db.provider === 'sqlite' ? openSqlite(db.file) : openPostgres(db);
}

async function openPostgres(db: Extract<DbTarget, { provider: 'postgresql' }>): Promise<MigrationConnection> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ ...db.pool, application_name: 'fos-migrate' });
  client.on('error', () => {});
  await client.connect();
  const key = MIGRATION_LOCK_KEY.toString();
  try {
    await client.query(`SET lock_timeout = ${LOCK_WAIT_MS}`);
    await client.query('SELECT pg_advisory_lock($1)', [key]);
    if (db.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${db.schema}"`);
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    exec: async (script) => void (await client.query(script)), // no parameters: the simple query protocol
    run: async (sql, params) => void (await client.query(numbered(sql), params)),
    all: async <T>(sql: string) => (await client.query(sql)).rows as T[],
    rollback: async () => void (await client.query('ROLLBACK').catch(() => {})),
    close: async () => {
      try {
        await client.query('SELECT pg_advisory_unlock($1)', [key]);
      } finally {
        await client.end().catch(() => {});
      }
    },
  };
}

async function openSqlite(file: string): Promise<MigrationConnection> {
  mkdirSync(path.dirname(file), { recursive: true });
  const { default: Database } = await import('libsql');
  const lock = new Database(`${file}.migrate-lock`, { timeout: 0 });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    try {
      lock.exec('BEGIN IMMEDIATE');
      break;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_BUSY') || Date.now() > deadline) {
        lock.close();
        throw err;
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }
  let conn: InstanceType<typeof Database>;
  try {
    conn = new Database(file, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    conn.pragma('journal_mode = WAL'); // a property of the file: set once, while nobody else migrates
  } catch (err) {
    lock.close();
    throw err;
  }
  return {
    exec: async (script) => void conn.exec(script),
    run: async (sql, params) => void conn.prepare(sql).run(params),
    all: async <T>(sql: string) => conn.prepare(sql).all() as T[],
    rollback: async () => {
      if (conn.inTransaction) conn.exec('ROLLBACK');
    },
    close: async () => {
      try {
        conn.prepare('PRAGMA wal_checkpoint(PASSIVE)').all(); // so a copy of the .db alone is migrated
        conn.close();
      } finally {
        lock.exec('ROLLBACK');
        lock.close();
      }
    },
  };
}
