import { readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDb, isSerializationFailure, isUniqueViolation } from '../../src/db/client.js';
import { migrate, packageRoot } from '../../src/db/migrate.js';
import { freshPostgresUrl, migrateInProcesses, TEST_PG_URL } from '../helpers/db.js';

const committed = readdirSync(path.join(packageRoot(), 'prisma', 'migrations', 'postgresql'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

const drops: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(drops.map((d) => d()));
});
async function pgUrl() {
  const f = await freshPostgresUrl();
  drops.push(f.drop);
  return f.url;
}

describe('PostgreSQL database layer', () => {
  let url: string;
  beforeAll(async () => {
    url = await pgUrl();
  });

  test('migrate applies every committed migration once, then nothing', async () => {
    expect(committed.length).toBeGreaterThan(0);
    expect(await migrate(url)).toEqual({ applied: committed });
    expect(await migrate(url)).toEqual({ applied: [] });
  });

  test('create and read through prisma; unique violations and serialization failures are recognised', async () => {
    const db = await createDb(url);
    try {
      expect(db.provider).toBe('postgresql');
      const m = await db.prisma.team.create({ data: { name: 'M', kind: 'MERCHANT' } });
      const f = await db.prisma.team.create({ data: { name: 'F', kind: 'FULFILLER' } });
      expect(await db.prisma.team.findUnique({ where: { id: m.id } })).toMatchObject({ name: 'M', kind: 'MERCHANT' });

      const data = { merchant_team_id: m.id, fulfiller_team_id: f.id, rate_card: { name: 'std', shipping: { base: 1 } } };
      const d = await db.prisma.fulfillmentDelegation.create({ data });
      expect(d.rate_card).toEqual(data.rate_card);
      const dup = await db.prisma.fulfillmentDelegation.create({ data }).catch((e: unknown) => e);
      expect(dup).toMatchObject({ code: 'P2002' });
      expect(isUniqueViolation(dup)).toBe(true);
      expect(isSerializationFailure(dup)).toBe(false);
      const rawDup = await db.prisma.$executeRawUnsafe(`UPDATE teams SET id = '${m.id}' WHERE id = '${f.id}'`).catch((e: unknown) => e);
      expect(isUniqueViolation(rawDup)).toBe(true);

      // Two SERIALIZABLE transactions that read then write the same row: one must fail with 40001.
      const bump = (tag: string) =>
        db.prisma.$transaction(
          async (tx) => {
            const t = await tx.team.findUniqueOrThrow({ where: { id: m.id } });
            await new Promise((r) => setTimeout(r, 150));
            await tx.team.update({ where: { id: m.id }, data: { name: `${t.name}+${tag}` } });
          },
          { isolationLevel: 'Serializable' },
        );
      const results = await Promise.allSettled([bump('a'), bump('b')]);
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(failed).toHaveLength(1);
      expect(isSerializationFailure(failed[0]!.reason)).toBe(true);
      expect(isUniqueViolation(failed[0]!.reason)).toBe(false);
    } finally {
      await db.close();
    }
  });

  test('two concurrent migrations of one empty database: the advisory lock serializes them', async () => {
    const empty = await pgUrl();
    const results = await Promise.all([migrate(empty), migrate(empty), migrate(empty)]);
    expect(results.map((r) => r.applied).sort((a, b) => b.length - a.length)).toEqual([committed, [], []]);
    // separate processes, each with its own connections
    const other = await pgUrl();
    const procs = await migrateInProcesses(other, 3);
    const sorted = procs.map((r) => ('applied' in r ? r.applied : r)).sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length);
    expect(sorted).toEqual([committed, [], []]);
  });

  test('?schema= puts the tables and _prisma_migrations in that schema', async () => {
    const base = await pgUrl();
    const url = `${base}?schema=tenant_a`;
    expect(await migrate(url)).toEqual({ applied: committed });
    expect(await migrate(url)).toEqual({ applied: [] });
    const db = await createDb(url);
    try {
      await db.prisma.team.create({ data: { name: 'In schema', kind: 'MERCHANT' } });
    } finally {
      await db.close();
    }
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT table_schema, count(*)::int AS n FROM information_schema.tables
         WHERE table_name IN ('teams', '_prisma_migrations') GROUP BY table_schema`,
      );
      expect(rows).toEqual([{ table_schema: 'tenant_a', n: 2 }]);
      expect((await client.query('SELECT name FROM tenant_a.teams')).rows).toEqual([{ name: 'In schema' }]);
    } finally {
      await client.end();
    }
  });

  test('dropping a test database really removes it', async () => {
    const f = await freshPostgresUrl();
    await migrate(f.url);
    await f.drop();
    const client = new pg.Client({ connectionString: TEST_PG_URL });
    await client.connect();
    try {
      const name = new URL(f.url).pathname.slice(1);
      expect((await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount).toBe(0);
    } finally {
      await client.end();
    }
  });
});
