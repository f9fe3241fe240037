import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { SQLITE_BUSY_TIMEOUT_MS } from '../../db/client.js';

// The SQLite side of backups: a consistent copy of a live database, and the checks a restore
// makes. `VACUUM INTO` runs in one read transaction on a connection of its own: in WAL mode the
// server keeps writing meanwhile, and the copy holds exactly the transactions committed before it
// began (compacted, with no -wal to carry along).

export type RefusalKind = 'postgresql' | 'exists' | 'missing' | 'live' | 'invalid';

/** A backup or restore that cannot go ahead; `kind` picks the exit code (docs/cli.md "Exit codes"). */
export class BackupRefused extends Error {
  constructor(
    readonly kind: RefusalKind,
    message = 'fos db backup/restore copy a SQLite database: for PostgreSQL use pg_dump and pg_restore (docs/serve.md "Backups"), then `fos db check`',
  ) {
    super(message);
    this.name = 'BackupRefused';
  }
}

/** Copies the database at `file` to `dest` (which must not exist); returns the migrations it holds. */
export async function snapshotSqlite(file: string, dest: string): Promise<string[]> {
  const { default: Database } = await import('libsql');
  const conn = new Database(file, { readonly: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    conn.prepare('VACUUM INTO ?').run(dest);
  } finally {
    conn.close();
  }
  const copy = new Database(dest, { readonly: true });
  try {
    const has = copy.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get();
    if (!has) return [];
    const rows = copy
      .prepare(
        'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name',
      )
      .all() as { migration_name: string }[];
    return rows.map((r) => r.migration_name);
  } finally {
    copy.close();
  }
}

/** null when the file passes PRAGMA integrity_check, else its first complaint. */
export async function sqliteIntegrity(file: string): Promise<string | null> {
  const { default: Database } = await import('libsql');
  try {
    const conn = new Database(file, { readonly: true });
    try {
      const [row] = conn.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
      return row?.integrity_check === 'ok' ? null : (row?.integrity_check ?? 'no answer');
    } finally {
      conn.close();
    }
  } catch (err) {
    return (err as Error).message;
  }
}

/** Names the running server holding `<db>.serve.lock` (single-server.ts), or null. */
export function isLive(dbFile: string): string | null {
  const lockFile = `${dbFile}.serve.lock`;
  if (!existsSync(lockFile)) return null;
  try {
    const holder = JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number; host: string; url?: string };
    if (holder.host !== hostname()) return `pid ${holder.pid} on ${holder.host}`;
    process.kill(holder.pid, 0);
    return `pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''}`;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? 'a process of another user' : null;
  }
}
