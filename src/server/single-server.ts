import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { hostname } from 'node:os';

// One `fos serve` per SQLite file while rate-limit counters live in process memory (issue 7
// item 10): a second process on the same file would give every key a second allowance. The
// first server holds `<db file>.serve.lock` (created exclusively; it names the pid, host and
// URL); a second one refuses to start and says who holds it. A lock left by a crashed server
// (its pid is gone) is taken over. Shared counters (--rate-limit-store database: one upsert per
// request in the file itself; or --redis) take no lock, and neither does PostgreSQL.

export interface LockHolder {
  pid: number;
  host: string;
  url?: string;
  started_at: string;
}

export class ServerLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: LockHolder,
  ) {
    super(
      `another fos serve (pid ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ''}${holder.url ? `, ${holder.url}` : ''}) ` +
        `is already serving this SQLite database; one server per SQLite file, because rate limits are counted in its memory. ` +
        `Stop it, use another --db, or start every server on this file with --rate-limit-store database (shared counters). Lock file: ${lockFile}`,
    );
    this.name = 'ServerLockedError';
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export interface ServerLock {
  /** Records the URL once listening (for the message a second server prints). */
  setUrl(url: string): void;
  release(): void;
}

export function acquireServerLock(dbFile: string): ServerLock {
  const lockFile = `${dbFile}.serve.lock`;
  // The lock comes before the database exists: on a first start (`npm start`, a new --db path)
  // its directory may not exist yet either.
  mkdirSync(path.dirname(lockFile), { recursive: true });
  const mine: LockHolder = { pid: process.pid, host: hostname(), started_at: new Date().toISOString() };
  const write = (flags: 'wx' | 'w') => {
    const fd = openSync(lockFile, flags);
    try {
      writeSync(fd, `${JSON.stringify(mine)}\n`);
    } finally {
      closeSync(fd);
    }
  };
  for (let attempt = 0; ; attempt++) {
    try {
      write('wx');
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      let holder: LockHolder | undefined;
      try {
        holder = JSON.parse(readFileSync(lockFile, 'utf8')) as LockHolder;
      } catch {
        holder = undefined; // unreadable or half-written: treated as stale
      }
      if (holder && Number.isInteger(holder.pid) && (holder.host !== mine.host || alive(holder.pid)))
        throw new ServerLockedError(lockFile, holder);
      unlinkSync(lockFile); // the holder crashed: take over
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try {
      const now = JSON.parse(readFileSync(lockFile, 'utf8')) as LockHolder;
      if (now.pid === mine.pid && now.host === mine.host) unlinkSync(lockFile);
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return {
    setUrl(url) {
      mine.url = url;
      write('w');
    },
    release,
  };
}
