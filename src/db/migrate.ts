// Applies the committed migrations (prisma/migrations/<provider>/<timestamp>_<name>/migration.sql)
// to a database, as `prisma migrate deploy` does, with no schema engine at run time: the files are
// plain SQL. Migrations are created in development with `npm run db:migration -- <name>`
// (scripts/prisma-migrations.mjs, which does use the schema engine to diff the model).
//
// Compatible with Prisma's bookkeeping, so databases migrated before (by the schema engine) keep
// working, and the other way round (test/unit/migrate.test.ts):
//  - applied migrations are rows of `_prisma_migrations` (Prisma's own DDL), checksum = SHA-256 of
//    the file; a row with no finished_at and no rolled_back_at is a failed migration, which stops
//    every later run until resolved (Prisma's P3009), and an applied file that changed is refused.
//  - each migration: a started row, the script, then finished_at and applied_steps_count = 1.
//  - a finished migration this build does not have means a newer fos migrated the database: refused
//    (DatabaseNewer, exit 8 in the CLI) by every start, `fos db migrate` and `fos db check`.
//
// Scripts run whole, split by the database itself, never by us: SQLite's own parser (libSQL's
// exec), so trigger bodies (BEGIN … END;) stay intact; PostgreSQL's simple query protocol, which
// runs a multi-statement script as one implicit transaction. On SQLite a script runs in a
// transaction too, unless it switches foreign keys off to rebuild a table (Prisma's "redefine
// table" migrations): that PRAGMA is ignored inside a transaction, and a DROP TABLE with foreign
// keys on would cascade to the rows that reference it.
//
// Concurrency: several processes may start at once on one empty database, so the check-and-apply
// runs under a lock (src/db/migrate-lock.ts): a PostgreSQL session advisory lock, or an IMMEDIATE
// transaction on a companion file `<db file>.migrate-lock` for SQLite.
//
// A migration that needs clean data (a unique index over existing rows) has a check in
// migration-checks.ts, run just before it: when the data is in the way, the run stops with a
// one-line MigrationRefused naming the rows and the fix, and records nothing for that migration.

import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDbUrl } from './client.js';
import { checkBeforeApplying } from './migration-checks.js';
import { openMigrationConnection, type MigrationConnection } from './migrate-lock.js';
import type { Db, Provider } from './types.js';
import { VERSION } from '../version.js';

export { MIGRATION_LOCK_KEY } from './migrate-lock.js';
export { MigrationRefused } from './migration-checks.js';

/**
 * The database holds migrations this build does not know: a newer fos migrated it. Starting on it
 * could write rows the newer schema forbids, so the server, `fos db migrate` and `fos db check`
 * refuse (exit 8, docs/serve.md "Upgrades").
 */
export class DatabaseNewer extends Error {
  constructor(
    readonly unknown: string[],
    newestKnown: string | undefined,
  ) {
    super(
      `this database was migrated by a newer fos: migration ${unknown.join(', ')} is applied but unknown to fos ${VERSION} ` +
        `(its newest is ${newestKnown ?? 'none'}); run the newer fos on it, or restore a backup made before that upgrade`,
    );
    this.name = 'DatabaseNewer';
  }
}

export interface MigrateOptions {
  /** Folder holding <timestamp>_<name>/migration.sql; default <package root>/prisma/migrations/<provider>. */
  migrationsDir?: string;
}

export interface Migration {
  name: string;
  sql: string;
  /** SHA-256 of the file, hex: what Prisma records in _prisma_migrations.checksum. */
  checksum: string;
}

/** Applies the pending migrations; returns the names of those it applied (empty when up to date). */
export async function migrate(target: Db | string, opts: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const db = parseDbUrl(typeof target === 'string' ? target : target.url);
  const dir = opts.migrationsDir ?? path.join(packageRoot(), 'prisma', 'migrations', db.provider);
  const migrations = await readMigrations(dir, db.provider);
  const conn = await openMigrationConnection(db);
  try {
    await conn.exec(PRISMA_MIGRATIONS_DDL[db.provider]);
    const pending = pendingMigrations(migrations, await conn.all<RecordRow>(RECORDS_SQL));
    for (const m of pending) await apply(conn, db.provider, m);
    return { applied: pending.map((m) => m.name) };
  } finally {
    await conn.close();
  }
}

/** The folder with this package's package.json: works from src/ (tests) and from dist/. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'fos') return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`package root (package.json of fos) not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

/** The migrations of a folder, in name (= timestamp) order, checked against its migration_lock.toml. */
export async function readMigrations(dir: string, provider: Provider): Promise<Migration[]> {
  if (!existsSync(dir)) throw new Error(`no migrations for ${provider}: ${dir} does not exist`);
  const lockFile = path.join(dir, 'migration_lock.toml');
  if (existsSync(lockFile)) {
    const locked = /provider\s*=\s*"([^"]+)"/.exec(await readFile(lockFile, 'utf8'))?.[1];
    if (locked && locked !== provider) throw new Error(`${dir} holds migrations for ${locked}, not ${provider}`);
  }
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

// ---------- _prisma_migrations ----------

/** The table as Prisma's schema engine creates it (so `prisma migrate` still reads it). */
const PRISMA_MIGRATIONS_DDL: Record<Provider, string> = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`,
  postgresql: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`,
};

export interface RecordRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}
export const RECORDS_SQL = 'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at';

/**
 * The migrations still to apply, in order. Refuses, as Prisma does, to go on after a failed
 * migration; and refuses an applied migration whose file changed since (committed migrations are
 * never edited). A finished migration this folder does not have means a newer release migrated the
 * database: refused (DatabaseNewer), naming it.
 */
export function pendingMigrations(migrations: Migration[], rows: RecordRow[]): Migration[] {
  const failed = rows.find((r) => r.finished_at == null && r.rolled_back_at == null);
  if (failed) {
    throw new Error(
      `migration ${failed.migration_name} failed earlier (its row in _prisma_migrations has no finished_at; see its logs column): ` +
        'repair the database, then mark the row rolled back (set rolled_back_at) or finished, and migrate again',
    );
  }
  const applied = new Map(rows.filter((r) => r.rolled_back_at == null).map((r) => [r.migration_name, r.checksum]));
  const known = new Set(migrations.map((m) => m.name));
  const unknown = [...applied.keys()].filter((name) => !known.has(name));
  if (unknown.length) throw new DatabaseNewer(unknown, migrations.at(-1)?.name);
  return migrations.filter((m) => {
    const checksum = applied.get(m.name);
    if (checksum !== undefined && checksum !== m.checksum) {
      throw new Error(
        `migration ${m.name} was applied with checksum ${checksum}, but its file now has ${m.checksum}: committed migrations must not be edited`,
      );
    }
    return checksum === undefined;
  });
}

/** True for a SQLite script that turns foreign keys off (a table rebuild): it cannot run in a transaction. */
const switchesForeignKeys = (sql: string) => /^\s*PRAGMA\s+foreign_keys\s*=/im.test(sql);

async function apply(conn: MigrationConnection, provider: Provider, m: Migration): Promise<void> {
  // Some migrations need clean data first (migration-checks.ts): refused before anything is recorded.
  await checkBeforeApplying(conn, m.name);
  const id = randomUUID();
  const now = () => (provider === 'sqlite' ? Date.now() : new Date());
  await conn.run(
    'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, 0)',
    [id, m.checksum, m.name, now()],
  );
  try {
    const inTransaction = provider === 'sqlite' && !switchesForeignKeys(m.sql);
    await conn.exec(inTransaction ? `BEGIN IMMEDIATE;\n${m.sql}\n;COMMIT;` : m.sql);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    await conn.rollback();
    await conn.run('UPDATE "_prisma_migrations" SET logs = ? WHERE id = ?', [msg, id]).catch(() => {});
    throw new Error(`migration ${m.name} failed (${provider}): ${msg}`, { cause: err });
  }
  await conn.run('UPDATE "_prisma_migrations" SET finished_at = ?, applied_steps_count = 1 WHERE id = ?', [now(), id]);
}
