// The daily storage schedule of a real `fos serve` process, driven from outside by FOS_NOW: a
// warehouse at UTC-8 with a merchant's stock gets March 1 taken at start when FOS_NOW is just past
// its local midnight; restarted three days later it back-fills the days it missed, and a day after
// that it adds that day alone (one run and one charge per day).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { bootstrapIfEmpty } from '../../src/domain/bootstrap.js';
import { spawnServe, useServeSandbox } from '../helpers/serve-process.js';
import { stockBins, storageMerchant, storageWarehouse } from '../helpers/storage-seed.js';
import { until } from '../helpers/until.js';
import { ensureCliBundle } from './helpers/spawn.js';

const box = useServeSandbox();
const card = {
  id: 'rc_serve',
  name: 'Serve card',
  version_id: 'v_1',
  semantic_version: '1.0.0',
  storage: { rate_per_unit: { DAILY: 0.5 } },
};

async function seeded(file: string) {
  await migrate(file);
  const db = await createDb(file);
  try {
    const boot = (await bootstrapIfEmpty(db))!;
    const w = await storageWarehouse(db, boot.teamId, 'Etc/GMT+8');
    const m = await storageMerchant(db, boot.teamId, card);
    await stockBins(db, w, m.teamId, { count: 2, units: 3, at: new Date('2026-01-01T00:00:00Z') });
  } finally {
    await db.close();
  }
}

async function serveUntil(file: string, now: string, runs: number) {
  const db = await createDb(file);
  try {
    const s = box.track(await spawnServe(['--db', file, '--port', '0'], { ...box.env, FOS_NOW: now }, box.dir).started);
    await until(async () => (await db.prisma.storageRun.count()) >= runs, `${runs} storage runs`, 60_000);
    s.child.kill('SIGTERM');
    await s.exited;
    return await db.prisma.storageRun.findMany({ orderBy: { date: 'asc' } });
  } finally {
    await db.close();
  }
}

describe('fos serve with FOS_NOW: daily storage', () => {
  it("takes a UTC-8 warehouse's day after its local midnight, back-fills after a restart, never twice", async () => {
    await ensureCliBundle();
    const file = path.join(box.dir, 'fos.db');
    await seeded(file);
    const first = await serveUntil(file, '2026-03-02T08:00:05Z', 1); // 00:00:05 on March 2 at UTC-8
    expect(first.map((r) => [r.date, r.source, r.snapshot_count, r.charge_count])).toEqual([['2026-03-01', 'SCHEDULE', 1, 1]]);
    const later = await serveUntil(file, '2026-03-05T09:00:00Z', 4);
    expect(later.map((r) => r.date)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']);
    const next = await serveUntil(file, '2026-03-06T09:00:00Z', 5); // a day on: March 5 alone is added
    expect(next.map((r) => r.date)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']);
    const db = await createDb(file);
    try {
      const charges = await db.prisma.charge.findMany({ where: { category: 'STORAGE' } });
      expect(charges.map((c) => c.calculated_amount)).toEqual([3, 3, 3, 3, 3]); // 6 units x 0.50
    } finally {
      await db.close();
    }
  }, 180_000);
});
