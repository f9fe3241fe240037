// Throw-away databases for tests.
//
//   const { url, cleanup } = await freshSqliteUrl();    // empty SQLite file in a temp dir
//   const { url, cleanup } = await freshPostgresUrl();  // empty PostgreSQL database (also `.drop`)
//   const { db, cleanup }  = await freshDb();           // created + migrated + connected Db
//   await migrateInProcesses(url, 3);                   // (db tests) N separate processes at once
//   await migrateBefore(url, '2026…_name');             // migrated as the release before that migration
//
// Each call gives a new, empty database; `cleanup()` removes it (call it in afterAll/afterEach;
// it is idempotent). Nothing is migrated except by freshDb().
// freshDb() uses SQLite unless FOS_TEST_DB=postgres, so API tests can run on both:
//   FOS_TEST_DB=postgres npx vitest run test/api
// PostgreSQL server: FOS_TEST_PG_URL (default postgres://root@127.0.0.1:5432/postgres), a role
// allowed to CREATE DATABASE; databases are named fos_test_<random>.

import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, copyFile, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb } from '../../src/db/client.js';
import { migrate, packageRoot } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/types.js';

export interface FreshUrl {
  url: string;
  /** Deletes the database. Idempotent. */
  cleanup(): Promise<void>;
}

export const TEST_PG_URL = process.env.FOS_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

/** A `file:` URL of a not-yet-existing SQLite file in a new temp directory. */
export async function freshSqliteUrl(): Promise<FreshUrl> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-test-'));
  let done: Promise<void> | undefined;
  return {
    url: `file:${path.join(dir, 'fos.db')}`,
    cleanup: () => (done ??= rm(dir, { recursive: true, force: true })),
  };
}

/** A URL of a new, empty PostgreSQL database; `drop()` (= `cleanup()`) drops it, even if connections remain. */
export async function freshPostgresUrl(template?: string): Promise<FreshUrl & { drop(): Promise<void> }> {
  const name = `fos_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  const u = new URL(TEST_PG_URL);
  u.pathname = `/${name}`;
  let done: Promise<void> | undefined;
  const drop = () => (done ??= adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  return { url: u.toString(), cleanup: drop, drop };
}

/**
 * A copy of the suite's migrated template database (test/helpers/pg-template.global.ts). Copies
 * started at once by two test processes can find the template busy for a moment: tried again.
 */
async function postgresFromTemplate(template: string): Promise<FreshUrl & { drop(): Promise<void> }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await freshPostgresUrl(template);
    } catch (err) {
      if (attempt >= 20 || !/being accessed by other users/.test(String((err as Error).message))) throw err;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

/** A fresh database of the provider chosen by FOS_TEST_DB (sqlite | postgres), migrated and connected. */
export async function freshDb(provider = process.env.FOS_TEST_DB ?? 'sqlite'): Promise<{ db: Db; cleanup(): Promise<void> }> {
  const template = process.env.FOS_TEST_PG_TEMPLATE;
  const postgres = /^postgres/.test(provider);
  const fresh = postgres ? (template ? await postgresFromTemplate(template) : await freshPostgresUrl()) : await freshSqliteUrl();
  try {
    if (postgres && !template) await migrate(fresh.url);
    else if (!postgres) await copyTemplate(fresh.url.slice('file:'.length));
    const db = await createDb(fresh.url);
    return {
      db,
      cleanup: async () => {
        await db.close();
        await fresh.cleanup();
      },
    };
  } catch (err) {
    await fresh.cleanup();
    throw err;
  }
}

/**
 * Copies the template; made again when it is gone: test runs of other checkouts on the machine
 * (other migration states) delete templates that are not theirs (a lazy-features.test.ts beforeAll
 * failed with ENOENT that way).
 */
async function copyTemplate(file: string): Promise<void> {
  try {
    await copyFile(await migratedSqliteTemplate(), file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    sqliteTemplate = undefined;
    await copyFile(await migratedSqliteTemplate(), file);
  }
}

// SQLite: a migrated template file, then a plain copy per freshDb() (the migrator's connection is
// closed, so the WAL is checkpointed into the .db file). The template is
// <tmpdir>/fos-test-template-<hash of the sqlite migrations>.db, shared by test processes and
// runs; templates of older migration states are deleted when a new one is made.
let sqliteTemplate: Promise<string> | undefined;
function migratedSqliteTemplate(): Promise<string> {
  return (sqliteTemplate ??= (async () => {
    const dir = path.join(packageRoot(), 'prisma', 'migrations', 'sqlite');
    const hash = createHash('sha256').update('runner: src/db/migrate.ts');
    for (const name of readdirSync(dir).sort()) {
      const sql = path.join(dir, name, 'migration.sql');
      if (existsSync(sql)) hash.update(name).update(readFileSync(sql));
    }
    const prefix = 'fos-test-template-';
    const template = path.join(tmpdir(), `${prefix}${hash.digest('hex').slice(0, 16)}.db`);
    if (existsSync(template)) return template;
    const work = await freshSqliteUrl();
    try {
      await migrate(work.url);
      const staged = `${template}.${process.pid}.tmp`;
      await copyFile(work.url.slice('file:'.length), staged);
      await rename(staged, template); // atomic: concurrent creators write the same content
    } finally {
      await work.cleanup();
    }
    // Older states' templates, unless made within the hour (another checkout's run may use it).
    for (const old of readdirSync(tmpdir())) {
      const file = path.join(tmpdir(), old);
      if (
        old.startsWith(prefix) &&
        old.endsWith('.db') &&
        file !== template &&
        Date.now() - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 3_600_000
      ) {
        await rm(file, { force: true });
      }
    }
    return template;
  })());
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Runs migrate(url) in `n` separate Node processes started together (src/db/migrate.ts bundled
 * with esbuild into .tmp/), to exercise the cross-process migration lock. Resolves with what
 * each process reported: `{ applied }` or `{ error }`.
 */
export async function migrateInProcesses(url: string, n: number): Promise<Array<{ applied: string[] } | { error: string }>> {
  const root = packageRoot();
  const outfile = path.join(root, '.tmp', `migrate-${process.pid}-${randomBytes(4).toString('hex')}.mjs`);
  await mkdir(path.dirname(outfile), { recursive: true });
  const { build } = await import('esbuild');
  await build({
    entryPoints: [path.join(root, 'src', 'db', 'migrate.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  const script = `import { migrate } from ${JSON.stringify(pathToFileURL(outfile).href)};
    try { console.log(JSON.stringify(await migrate(process.argv[1]))); }
    catch (e) { console.log(JSON.stringify({ error: String(e && e.message || e) })); }`;
  try {
    return await Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<{ applied: string[] } | { error: string }>((resolve, reject) =>
            execFile(process.execPath, ['--input-type=module', '-e', script, url], { cwd: root }, (err, stdout) =>
              err ? reject(err) : resolve(JSON.parse(stdout.trim().split('\n').at(-1)!)),
            ),
          ),
      ),
    );
  } finally {
    await rm(outfile, { force: true });
  }
}

/**
 * Migrates `url` with every migration of its provider before `migration` (a folder name), as a
 * database of the release before it: a migration's test then writes the old rows and migrates on.
 */
export async function migrateBefore(url: string, migration: string): Promise<void> {
  const provider = /^postgres/.test(url) ? 'postgresql' : 'sqlite';
  const src = path.join(packageRoot(), 'prisma', 'migrations', provider);
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-migrations-before-'));
  try {
    for (const n of (await readdir(src)).sort())
      if (n < migration || n === 'migration_lock.toml') await cp(path.join(src, n), path.join(dir, n), { recursive: true });
    await migrate(url, { migrationsDir: dir });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
