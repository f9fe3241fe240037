// Throw-away databases for tests.
//
//   const { url, cleanup } = await freshSqliteUrl();    // empty SQLite file in a temp dir
//   const { url, cleanup } = await freshPostgresUrl();  // empty PostgreSQL database (also `.drop`)
//   const { db, cleanup }  = await freshDb();           // created + migrated + connected Db
//
// Each call gives a new, empty database; `cleanup()` removes it (call it in afterAll/afterEach;
// it is idempotent). Nothing is migrated except by freshDb().
// freshDb() uses SQLite unless FOS_TEST_DB=postgres, so API tests can run on both:
//   FOS_TEST_DB=postgres npx vitest run test/api
// PostgreSQL server: FOS_TEST_PG_URL (default postgres://root@127.0.0.1:5432/postgres), a role
// allowed to CREATE DATABASE; databases are named fos_test_<random>.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
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
export async function freshPostgresUrl(): Promise<FreshUrl & { drop(): Promise<void> }> {
  const name = `fos_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const u = new URL(TEST_PG_URL);
  u.pathname = `/${name}`;
  let done: Promise<void> | undefined;
  const drop = () => (done ??= adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  return { url: u.toString(), cleanup: drop, drop };
}

/** A fresh database of the provider chosen by FOS_TEST_DB (sqlite | postgres), migrated and connected. */
export async function freshDb(provider = process.env.FOS_TEST_DB ?? 'sqlite'): Promise<{ db: Db; cleanup(): Promise<void> }> {
  const fresh = /^postgres/.test(provider) ? await freshPostgresUrl() : await freshSqliteUrl();
  try {
    await migrate(fresh.url);
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

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
