import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/types.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import { hashToken } from '../../src/domain/keys/token.js';
import { freshPostgresUrl } from '../helpers/db.js';
import { migrateAndBootstrapInProcesses, type BootOutcome } from './boot-processes.js';

// Replicas starting together on one new PostgreSQL database: exactly one applies the
// migrations (advisory lock) and exactly one bootstraps (unique system_state row).

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function emptyDatabase() {
  const fresh = await freshPostgresUrl();
  cleanups.push(fresh.drop);
  return fresh.url;
}

async function expectOneTeamOneAdmin(url: string, winner: { teamId: string; keyId: string; token: string }) {
  const db = await createDb(url);
  try {
    const teams = await db.prisma.team.findMany();
    expect(teams.map((t) => t.id)).toEqual([winner.teamId]);
    const keys = await db.prisma.apiKey.findMany();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: winner.keyId, team_id: winner.teamId, power_role: 'ADMIN', state: 'ACTIVE' });
    expect(keys[0].token_hash).toBe(hashToken(winner.token));
  } finally {
    await db.close();
  }
}

describe('bootstrap on PostgreSQL', () => {
  it('two connections bootstrapping one empty database at once: one team, one ADMIN key', async () => {
    const url = await emptyDatabase();
    await migrate(url);
    const dbs: Db[] = [await createDb(url), await createDb(url)];
    try {
      // Each connection runs its own transaction, as two replicas would.
      const results = await Promise.all(dbs.map((db) => bootstrapIfEmpty(db)));
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      await expectOneTeamOneAdmin(url, winners[0]!);
    } finally {
      await Promise.all(dbs.map((d) => d.close()));
    }
  });

  it('three processes migrate and bootstrap one new database at once', async () => {
    const url = await emptyDatabase();
    const outcomes = await migrateAndBootstrapInProcesses(url, 3);
    for (const o of outcomes) expect('error' in o ? o.error : '').toBe('');
    const ok = outcomes as Array<Exclude<BootOutcome, { error: string }>>;
    expect(ok.filter((o) => o.applied.length > 0)).toHaveLength(1);
    const winners = ok.filter((o) => o.bootstrap !== null);
    expect(winners).toHaveLength(1);
    await expectOneTeamOneAdmin(url, winners[0].bootstrap!);
  });
});
