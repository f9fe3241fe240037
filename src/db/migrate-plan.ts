import path from 'node:path';
import { openReader, type DbReader } from './db-reader.js';
import { packageRoot, pendingMigrations, readMigrations, RECORDS_SQL, type Migration, type RecordRow } from './migrate.js';
import type { Provider } from './types.js';

// `fos db migrate --dry-run`: what a start (or `fos db migrate`) would apply, read without
// changing anything: the same bookkeeping rules as migrate() (a failed migration, an edited one or
// one from a newer fos refuse), then each pending migration with a summary of what it does and
// its SQL. A SQLite file that does not exist yet would get every migration.

export interface PlannedMigration {
  name: string;
  /** One line per statement that changes the schema or rewrites rows, e.g. `create table "order_tags"`. */
  does: string[];
  sql: string;
}

export interface MigrationPlan {
  provider: Provider;
  /** How many migrations the database has already. */
  applied: number;
  pending: PlannedMigration[];
}

const STATEMENT =
  /^\s*(CREATE\s+(?:UNIQUE\s+)?INDEX|CREATE\s+VIRTUAL\s+TABLE|CREATE\s+TABLE|CREATE\s+TRIGGER|CREATE\s+TYPE|ALTER\s+TABLE|ALTER\s+TYPE|DROP\s+TABLE|DROP\s+INDEX|DROP\s+TRIGGER|INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:IF\s+(?:NOT\s+)?EXISTS\s+)?("[^"]+"|\w+)(?:\s+ON\s+("[^"]+"|\w+))?/gim;

/** What a migration does, statement by statement (schema changes and row rewrites). */
export function describeMigration(sql: string): string[] {
  const does: string[] = [];
  for (const m of sql.matchAll(STATEMENT)) {
    const verb = m[1].replace(/\s+/g, ' ').toLowerCase();
    const target = m[3] ? `${m[2]} on ${m[3]}` : m[2];
    const line = verb === 'update' ? `rewrite rows of ${target}` : `${verb} ${target}`;
    if (!does.includes(line)) does.push(line);
  }
  return does;
}

async function appliedRows(reader: DbReader): Promise<RecordRow[]> {
  return (await reader.hasTable('_prisma_migrations')) ? reader.all<RecordRow>(RECORDS_SQL) : [];
}

/** The migrations a start would apply to the database at `url`, changing nothing. */
export async function planMigrations(url: string, migrationsDir?: string): Promise<MigrationPlan> {
  const reader = await openReader(url).catch((err) => {
    if ((err as Error).name === 'DatabaseMissing') return null;
    throw err;
  });
  const provider: Provider = reader?.target.provider ?? 'sqlite';
  try {
    const all = await readMigrations(migrationsDir ?? path.join(packageRoot(), 'prisma', 'migrations', provider), provider);
    const rows = reader ? await appliedRows(reader) : [];
    const pending: Migration[] = pendingMigrations(all, rows);
    return {
      provider,
      applied: all.length - pending.length,
      pending: pending.map((m) => ({ name: m.name, does: describeMigration(m.sql), sql: m.sql })),
    };
  } finally {
    await reader?.close();
  }
}
