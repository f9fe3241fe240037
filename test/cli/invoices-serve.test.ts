// The period close of a real `fos serve` process, driven from outside by FOS_NOW: a database with
// January's charges, served with FOS_NOW=2026-02-01T00:00:05Z, gets January's draft from the close
// that runs at start; restarted, it makes no second one. An unparsable FOS_NOW stops the start.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import * as teams from '../../src/domain/teams/teams.js';
import { spawnServe, useServeSandbox } from '../helpers/serve-process.js';
import { ensureCliBundle } from './helpers/spawn.js';

const box = useServeSandbox();

async function seeded(file: string) {
  await migrate(file);
  const db = await createDb(file);
  try {
    const boot = (await bootstrapIfEmpty(db))!;
    const merchant = await teams.createTeam(db, { name: 'Merchant', kind: 'MERCHANT' });
    await teams.createDelegation(db, { merchant_team_id: merchant.id, fulfiller_team_id: boot.teamId });
    await db.prisma.charge.createMany({
      data: ['2026-01-02T00:00:00Z', '2026-01-31T12:00:00Z', '2026-02-03T00:00:00Z'].map((at) => ({
        name: 'storage',
        category: 'STORAGE',
        quantity: 1,
        calculated_amount: 5,
        original_amount: 5,
        merchant_team_id: merchant.id,
        fulfiller_team_id: boot.teamId,
        created_at: new Date(at),
      })),
    });
  } finally {
    await db.close();
  }
}

async function invoicesIn(file: string) {
  const db = await createDb(file);
  try {
    return await db.prisma.invoice.findMany();
  } finally {
    await db.close();
  }
}

/** Waits for the close that runs at start (it logs each draft it makes) — bounded, not a sleep. */
async function untilDraft(file: string) {
  for (let i = 0; i < 150; i++) {
    const found = await invoicesIn(file);
    if (found.length) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  return [];
}

describe('fos serve with FOS_NOW', () => {
  it('closes the month that ended at FOS_NOW, once across restarts', async () => {
    await ensureCliBundle();
    const file = path.join(box.dir, 'fos.db');
    await seeded(file);
    const env = { ...box.env, FOS_NOW: '2026-02-01T00:00:05Z' };
    const first = box.track(await spawnServe(['--db', file, '--port', '0'], env, box.dir).started);
    const made = await untilDraft(file);
    first.child.kill('SIGTERM');
    await first.exited;
    expect(made.map((i) => [i.status, i.period_start, i.period_end, i.source, i.charge_count, i.total])).toEqual([
      ['DRAFT', '2026-01-01', '2026-01-31', 'SCHEDULE', 2, 10],
    ]);
    const second = box.track(await spawnServe(['--db', file, '--port', '0'], env, box.dir).started);
    second.child.kill('SIGTERM');
    await second.exited;
    expect(await invoicesIn(file)).toHaveLength(1);
  }, 120_000);

  it('refuses to start on an FOS_NOW that is not a time', async () => {
    const file = path.join(box.dir, 'bad.db');
    const s = spawnServe(['--db', file, '--port', '0'], { ...box.env, FOS_NOW: 'next tuesday' }, box.dir);
    const { code } = await s.exited;
    expect(code).not.toBe(0);
    expect(s.stderr()).toContain('FOS_NOW=next tuesday is not an ISO 8601 time');
  }, 60_000);
});
