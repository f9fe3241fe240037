import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import type { Db } from '../../src/db/types.js';
import { runDueStorage } from '../../src/domain/billing/storage-runs.js';
import { twoAppsOn } from '../helpers/app-replicas.js';
import { freshPostgresUrl, freshSqliteUrl } from '../helpers/db.js';
import { locationType, stockBins, storageMerchant, storageWarehouse } from '../helpers/storage-seed.js';

// Two replicas on one database (two in-process apps, each with its own pool; SQLite, and
// PostgreSQL with FOS_TEST_DB=postgres) taking the same storage day at once: operators' runs
// through both apps and the schedule on two connections give one run, one snapshot per merchant
// and location type, one charge each.

const world = twoAppsOn(process.env.FOS_TEST_DB === 'postgres' ? freshPostgresUrl : freshSqliteUrl);
const card = (storage: unknown) => ({ id: 'rc_rep', name: 'Replica card', version_id: 'v_9', semantic_version: '2.0.0', storage });
const JAN = new Date('2026-01-01T00:00:00Z');
let other: Db;

beforeAll(async () => {
  other = await createDb(world().w.db.url);
});
afterAll(async () => {
  await other?.close();
});

describe('daily storage on two replicas', () => {
  it("operators' runs of one day through both apps at once bill it once", async () => {
    const { w, r } = world();
    const wh = await storageWarehouse(w.db, w.teamId);
    const pallet = await locationType(w.db, w.teamId, 'Pallet');
    const m = await storageMerchant(
      w.db,
      w.teamId,
      card({ by_location_type: { [pallet.id]: { DAILY: 2 } }, rate_per_unit: { DAILY: 0.1 } }),
    );
    await stockBins(w.db, wh, m.teamId, { count: 5, units: 4, typeId: pallet.id, at: JAN });
    await stockBins(w.db, wh, m.teamId, { count: 2, units: 3, at: JAN });

    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        r.send(i, 'POST', '/ops/billing/storage-runs', { date: '2026-04-01', warehouse_id: wh.id }, w.token),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const runs = answers.map((a) => a.body.runs[0]);
    expect(runs.filter((x) => x.created)).toHaveLength(1);
    expect(new Set(runs.map((x) => x.run_id)).size).toBe(1);
    for (const x of runs) expect(x).toMatchObject({ snapshot_count: 2, charge_count: 2, amount: 10.6 }); // 5 x 2 + 6 x 0.10

    expect(await w.db.prisma.storageRun.count({ where: { warehouse_id: wh.id } })).toBe(1);
    expect(await w.db.prisma.storageSnapshot.count({ where: { warehouse_id: wh.id } })).toBe(2);
    const charges = await w.db.prisma.charge.findMany({ where: { category: 'STORAGE', warehouse_id: wh.id } });
    expect(charges.map((c) => c.calculated_amount).sort()).toEqual([0.6, 10]);
  });

  it('the schedule on two connections at once takes each missed day once', async () => {
    const { w } = world();
    const wh = await storageWarehouse(w.db, w.teamId, 'America/New_York');
    const m = await storageMerchant(w.db, w.teamId, card({ rate_per_unit: { DAILY: 0.5 } }));
    await stockBins(w.db, wh, m.teamId, { count: 3, units: 2, at: JAN });
    // Seed the warehouse's last run so the schedule back-fills May 2–6 (New York's days).
    await w.db.prisma.storageRun.create({
      data: {
        team_id: w.teamId,
        warehouse_id: wh.id,
        date: '2026-05-01',
        time_zone: 'America/New_York',
        cutoff_at: new Date('2026-05-02T04:00:00Z'),
        source: 'API',
      },
    });
    const now = new Date('2026-05-07T04:30:00Z'); // 00:30 on May 7 in New York
    const results = await Promise.all([runDueStorage(w.db, now), runDueStorage(other, now), runDueStorage(other, now)]);
    const mine = results.flat().filter((x) => x.warehouse_id === wh.id);
    expect(mine.map((x) => x.date).sort()).toEqual(['2026-05-02', '2026-05-03', '2026-05-04', '2026-05-05', '2026-05-06']);
    const snaps = await w.db.prisma.storageSnapshot.findMany({ where: { warehouse_id: wh.id }, orderBy: { date: 'asc' } });
    expect(snaps.map((s) => [s.date, s.units, s.locations])).toEqual(
      ['2026-05-02', '2026-05-03', '2026-05-04', '2026-05-05', '2026-05-06'].map((d) => [d, 6, 3]),
    );
    const charges = await w.db.prisma.charge.findMany({ where: { category: 'STORAGE', warehouse_id: wh.id } });
    expect(charges).toHaveLength(5);
    expect(new Set(charges.map((c) => c.id))).toEqual(new Set(snaps.map((s) => s.charge_id)));
    expect(charges.every((c) => c.calculated_amount === 3)).toBe(true);
  });
});
