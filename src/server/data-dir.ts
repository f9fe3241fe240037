import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where `fos serve` keeps its embedded SQLite file when --db is not given. */
export function defaultDbPath(): string {
  if (process.env.FOS_DATA_DIR) return join(process.env.FOS_DATA_DIR, 'fos.db');
  const base = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'fos', 'fos.db');
}

/**
 * The demo's own database (`fos serve --demo` without --db, issue 35): beside the default one,
 * never it, so a demo never leaves "Acme Outdoor" in the database real use relies on.
 */
export const defaultDemoDbPath = () => join(dirname(defaultDbPath()), 'demo.db');

/** --db flag, then FOS_DB, then the data directory. */
export const resolveDbUrl = (flag?: string) => flag || process.env.FOS_DB || defaultDbPath();

/** Where uploaded files are kept when --files-dir is not given: beside the default database. */
export function defaultFilesDir(): string {
  return join(dirname(defaultDbPath()), 'files');
}

/** The demo's uploads, apart from real ones. */
export const defaultDemoFilesDir = () => join(dirname(defaultDbPath()), 'demo-files');
