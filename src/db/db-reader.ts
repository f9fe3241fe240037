import { existsSync } from 'node:fs';
import { parseDbUrl, SQLITE_BUSY_TIMEOUT_MS, type DbTarget } from './client.js';

// A plain read connection for the operator's database commands (`fos db migrate --dry-run`,
// `fos db check`): no Prisma, no migration, no lock, and nothing created. A SQLite file that does
// not exist is reported (DatabaseMissing), not made. Statements take no parameters.

export interface DbReader {
  target: DbTarget;
  all<T>(sql: string): Promise<T[]>;
  /** True when the table exists (in the URL's schema on PostgreSQL). */
  hasTable(name: string): Promise<boolean>;
  close(): Promise<void>;
}

export class DatabaseMissing extends Error {
  constructor(readonly file: string) {
    super(`no SQLite database at ${file} (give --db, or set FOS_DB / FOS_DATA_DIR)`);
    this.name = 'DatabaseMissing';
  }
}

export async function openReader(url: string): Promise<DbReader> {
  const target = parseDbUrl(url);
  if (target.provider === 'sqlite') {
    if (!existsSync(target.file)) throw new DatabaseMissing(target.file);
    const { default: Database } = await import('libsql');
    const conn = new Database(target.file, { timeout: SQLITE_BUSY_TIMEOUT_MS, readonly: true });
    return {
      target,
      all: async <T>(sql: string) => conn.prepare(sql).all() as T[],
      hasTable: async (name) => Boolean(conn.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name)),
      close: async () => void conn.close(),
    };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ ...target.pool, application_name: 'fos-db' });
  client.on('error', () => {});
  await client.connect();
  return {
    target,
    all: async <T>(sql: string) => (await client.query(sql)).rows as T[],
    hasTable: async (name) => (await client.query('SELECT to_regclass($1) IS NOT NULL AS ok', [`"${name}"`])).rows[0].ok === true,
    close: async () => void (await client.end().catch(() => {})),
  };
}
