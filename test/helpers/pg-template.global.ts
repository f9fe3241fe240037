import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../src/db/migrate.js';

// The PostgreSQL suite's global set-up (vitest.pg.config.ts): one database migrated once per run,
// which freshDb() copies with CREATE DATABASE … TEMPLATE (~0.5 s) instead of running every
// migration again for each test file (~3.4 s of the server's time each, 150 files). Its name
// reaches the test processes as FOS_TEST_PG_TEMPLATE; it is dropped when the run ends.

const TEST_PG_URL = process.env.FOS_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function setup(): Promise<() => Promise<void>> {
  const name = `fos_test_template_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE "${name}"`);
  const u = new URL(TEST_PG_URL);
  u.pathname = `/${name}`;
  try {
    await migrate(u.toString());
  } catch (err) {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    throw err;
  }
  process.env.FOS_TEST_PG_TEMPLATE = name;
  return () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
