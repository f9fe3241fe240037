import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/types.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import { hashToken } from '../../src/domain/keys/token.js';
import { freshPostgresUrl, freshSqliteUrl } from '../helpers/db.js';
import { migrateAndBootstrapInProcesses } from '../pg/boot-processes.js';

// First start is race-free: several processes (here: separate connections) bootstrapping one
// empty database at once make exactly one team and one ADMIN key, and exactly one of them gets
// the token. Runs on SQLite, and on PostgreSQL with FOS_TEST_DB=postgres.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const onPostgres = /^postgres/.test(process.env.FOS_TEST_DB ?? '');

async function emptyDatabase({ migrated = true } = {}) {
  const fresh = onPostgres ? await freshPostgresUrl() : await freshSqliteUrl();
  cleanups.push(fresh.cleanup);
  if (migrated) await migrate(fresh.url);
  return fresh.url;
}

async function connections(url: string, n: number): Promise<Db[]> {
  const dbs = await Promise.all(Array.from({ length: n }, () => createDb(url)));
  cleanups.push(async () => void (await Promise.all(dbs.map((d) => d.close()))));
  return dbs;
}

describe('bootstrapIfEmpty under concurrency', () => {
  it.each([2, 4])('%i connections at once: one team, one ADMIN key, one winner', async (n) => {
    const url = await emptyDatabase();
    const dbs = await connections(url, n);
    const results = await Promise.all(dbs.map((db) => bootstrapIfEmpty(db)));
    const winners = results.filter((r) => r !== null);
    expect(winners).toHaveLength(1);

    const [db] = dbs;
    const teams = await db.prisma.team.findMany();
    const keys = await db.prisma.apiKey.findMany();
    expect(teams).toHaveLength(1);
    expect(teams[0]).toMatchObject({ id: winners[0]!.teamId, kind: 'FULFILLER' });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: winners[0]!.keyId, power_role: 'ADMIN', state: 'ACTIVE', team_id: teams[0].id });
    expect(keys[0].token_hash).toBe(hashToken(winners[0]!.token));
    expect(await db.prisma.systemState.count({ where: { id: 'bootstrap' } })).toBe(1);

    // A later start bootstraps nothing.
    expect(await bootstrapIfEmpty(dbs[n - 1])).toBeNull();
    expect(await db.prisma.apiKey.count()).toBe(1);
  });
});

describe('first start of several processes at once', () => {
  it('3 processes migrate and bootstrap one new database: one applies the migrations, one bootstraps', async () => {
    const url = await emptyDatabase({ migrated: false });
    const outcomes = await migrateAndBootstrapInProcesses(url, 3);
    for (const o of outcomes) expect('error' in o ? o.error : '').toBe('');
    const ok = outcomes as Array<Extract<(typeof outcomes)[number], { applied: string[] }>>;
    expect(ok.filter((o) => o.applied.length > 0)).toHaveLength(1);
    const winners = ok.filter((o) => o.bootstrap !== null);
    expect(winners).toHaveLength(1);

    const [db] = await connections(url, 1);
    expect(await db.prisma.team.count()).toBe(1);
    const keys = await db.prisma.apiKey.findMany();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: winners[0].bootstrap!.keyId, power_role: 'ADMIN' });
    expect(keys[0].token_hash).toBe(hashToken(winners[0].bootstrap!.token));
  });
});
