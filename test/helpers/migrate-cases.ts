// The migration runner's cases, run on SQLite (test/unit/migrate.test.ts) and on PostgreSQL
// (test/pg/migrate.pg.test.ts). The reference is Prisma's schema engine (test/helpers/prisma-engine.ts),
// the runner fos used before: databases it migrated must be up to date for src/db/migrate.ts, and
// the other way round.

import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate, packageRoot } from '../../src/db/migrate.js';
import type { Provider } from '../../src/db/types.js';
import { freshPostgresUrl, freshSqliteUrl } from './db.js';
import { engineMigrate } from './prisma-engine.js';

export function migrateCases(provider: Provider) {
  const committedDir = path.join(packageRoot(), 'prisma', 'migrations', provider);
  const committed = readdirSync(committedDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    await Promise.all(cleanups.map((c) => c()));
  });
  const freshUrl = async () => {
    const f = provider === 'sqlite' ? await freshSqliteUrl() : await freshPostgresUrl();
    cleanups.push(f.cleanup);
    return f.url;
  };
  /** A copy of the committed migrations plus `extra` ({ name: sql }). */
  const folderWith = async (extra: Record<string, string>) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fos-migrations-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await cp(committedDir, dir, { recursive: true });
    for (const [name, sql] of Object.entries(extra)) {
      await mkdir(path.join(dir, name));
      await writeFile(path.join(dir, name, 'migration.sql'), sql);
    }
    return dir;
  };
  const query = async <T>(url: string, sql: string) => {
    const db = await createDb(url);
    try {
      return await db.prisma.$queryRawUnsafe<T[]>(sql);
    } finally {
      await db.close();
    }
  };

  describe(`migration runner (${provider})`, () => {
    test('a database migrated by the schema engine is up to date; a migration added later applies once', async () => {
      const url = await freshUrl();
      expect(await engineMigrate(url, committedDir)).toEqual(committed);
      expect(await migrate(url)).toEqual({ applied: [] });
      const dir = await folderWith({ '29991231000000_extra': 'CREATE TABLE "extra_t" ("id" TEXT NOT NULL PRIMARY KEY);\n' });
      expect(await migrate(url, { migrationsDir: dir })).toEqual({ applied: ['29991231000000_extra'] });
      expect(await migrate(url, { migrationsDir: dir })).toEqual({ applied: [] });
      // and what the runner recorded is what Prisma records: the engine finds nothing to do
      expect(await engineMigrate(url, dir)).toEqual([]);
      const rows = await query<{ migration_name: string; applied_steps_count: number }>(
        url,
        'SELECT migration_name, applied_steps_count FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name',
      );
      expect(rows.map((r) => [r.migration_name, Number(r.applied_steps_count)])).toEqual(
        [...committed, '29991231000000_extra'].map((n) => [n, 1]),
      );
    });

    test('a database migrated by the runner is up to date for the schema engine', async () => {
      const url = await freshUrl();
      expect(await migrate(url)).toEqual({ applied: committed });
      expect(await engineMigrate(url, committedDir)).toEqual([]);
    });

    test('a failing migration is recorded with its error and stops later runs; an edited one is refused', async () => {
      const url = await freshUrl();
      await migrate(url);
      const bad = await folderWith({
        '29991231000000_bad': 'CREATE TABLE "half_t" ("id" TEXT NOT NULL PRIMARY KEY);\nCREATE TABLE "half_t" ("id" TEXT);\n',
      });
      await expect(migrate(url, { migrationsDir: bad })).rejects.toThrow(/migration 29991231000000_bad failed .*half_t/);
      // the script ran as one transaction: its first statement was undone too
      expect(
        await query(url, `SELECT 1 FROM ${provider === 'sqlite' ? 'sqlite_master WHERE name' : 'pg_tables WHERE tablename'} = 'half_t'`),
      ).toEqual([]);
      const [row] = await query<{ logs: string; finished_at: unknown }>(
        url,
        "SELECT logs, finished_at FROM _prisma_migrations WHERE migration_name = '29991231000000_bad'",
      );
      expect(row).toMatchObject({ finished_at: null, logs: expect.stringMatching(/half_t/) });
      await expect(migrate(url)).rejects.toThrow(/29991231000000_bad failed earlier/);

      const url2 = await freshUrl();
      await migrate(url2);
      const edited = await folderWith({});
      await writeFile(path.join(edited, committed[0]!, 'migration.sql'), '-- edited\n', { flag: 'a' });
      await expect(migrate(url2, { migrationsDir: edited })).rejects.toThrow(new RegExp(`${committed[0]} was applied with checksum`));
    });
  });
}
