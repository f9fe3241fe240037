import { dirname, join } from 'node:path';
import { UsageError } from '../../shared/exit-codes.js';
import { parseDbUrl } from '../../db/client.js';
import { defaultDbPath, defaultFilesDir } from '../data-dir.js';

/** `fos serve --backup-every/--backup-keep/--backup-to`, checked. */
export interface BackupSchedule {
  everyMs: number;
  keep: number;
  /** A directory, or s3://bucket/prefix. */
  to: string;
  /** The uploads to include (fos serve's --storage). */
  storage: string;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `6h`, `30m`, `1d`, `90s` -> milliseconds. */
export function parseDuration(value: string, flag: string): number {
  const m = /^(\d+)\s*([smhd])$/.exec(value.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[m[2]] : NaN;
  if (!ms) throw new UsageError(`${flag} takes a duration such as 6h, 30m, 1d or 90s, got "${value}"`);
  return ms;
}

interface ServeFlags {
  backupEvery?: string;
  backupKeep?: number;
  backupTo?: string;
  storage?: string;
}

/** The schedule the serve flags ask for (undefined without --backup-every); refused for PostgreSQL. */
export function backupOptions(opts: ServeFlags, db: string): BackupSchedule | undefined {
  if (!opts.backupEvery) {
    if (opts.backupTo) throw new UsageError('--backup-to needs --backup-every');
    return undefined;
  }
  const everyMs = parseDuration(opts.backupEvery, '--backup-every');
  if (parseDbUrl(db).provider !== 'sqlite') {
    throw new UsageError('--backup-every backs up SQLite; for PostgreSQL schedule pg_dump (docs/serve.md "Backups")');
  }
  if (!opts.backupKeep) throw new UsageError('--backup-keep must be at least 1');
  return {
    everyMs,
    keep: opts.backupKeep,
    to: opts.backupTo ?? join(dirname(defaultDbPath()), 'backups'),
    storage: opts.storage ?? process.env.FOS_STORAGE ?? defaultFilesDir(),
  };
}
