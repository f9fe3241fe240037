import { existsSync, renameSync, rmSync } from 'node:fs';
import { parseDbUrl } from '../db/client.js';
import { UsageError } from '../shared/exit-codes.js';

// Starting a SQLite database over (`fos serve --reset`, and every `--demo` start on the demo's
// own database; issue 35). Called by startServer once it holds the file's server lock, so no
// other fos serve has the file open. The file goes with its WAL, shared-memory and journal
// files: a database file without its log may be missing committed writes.

/** discard: delete (the throwaway demo database); move-aside: keep the old one as <file>.<time>.bak. */
export type ResetMode = 'discard' | 'move-aside';

const companions = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];

/** Refuses --reset on PostgreSQL before anything starts: fos does not drop a shared database. */
export function checkResettable(dbUrl: string): void {
  if (parseDbUrl(dbUrl).provider !== 'sqlite') {
    throw new UsageError('--reset starts a SQLite file over; for PostgreSQL, drop and create the database yourself (dropdb/createdb)');
  }
}

/** Starts the file over; returns where the old database was moved, if it was. */
export function resetSqliteFile(dbUrl: string, mode: ResetMode): string | undefined {
  const target = parseDbUrl(dbUrl);
  if (target.provider !== 'sqlite' || target.file === ':memory:') return undefined;
  const file = target.file;
  if (mode === 'discard' || !existsSync(file)) {
    for (const f of companions(file)) rmSync(f, { force: true });
    return undefined;
  }
  const aside = `${file}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
  for (const f of companions(file)) if (existsSync(f)) renameSync(f, aside + f.slice(file.length));
  return aside;
}
