// The daily storage snapshot of a warehouse with 100,000 occupied locations (issue 40 item 6:
// <= 10 s): 20 merchants' stock in bins of three location types and none, with a ledger movement
// per bin and a tenth of them moved again after the cutoff, taken and billed as one run (the
// snapshot is one INSERT … SELECT; one charge per merchant and location type). SQLite in a temp
// file, and PostgreSQL in a fresh schema of FOS_BENCH_PG_URL when set.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.mjs';

export const STORAGE_TARGET_MS = 10_000;
const MERCHANTS = 20;
const dist = (p) => import(path.join(ROOT, 'dist', p));

/** `n` bins with `units` each of `productIds[i % MERCHANTS]`, their stock rows and ledger movements, in three statements. */
async function seed(db, w, productIds, typeIds, n) {
  const sqlite = db.provider === 'sqlite';
  const id = (tag) => (sqlite ? `printf('00000000-0000-7000-${tag}-%012d', i)` : `'00000000-0000-7000-${tag}-' || lpad(i::text, 12, '0')`);
  const series = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})`;
  const at = `'2026-01-01T00:00:00.000${sqlite ? '+00:00' : ''}'`;
  const ts = sqlite ? at : `CAST(${at} AS TIMESTAMP(3))`;
  const type = `CASE (i / ${MERCHANTS}) % 4 ${typeIds.map((t, k) => `WHEN ${k} THEN '${t}'`).join(' ')} ELSE NULL END`;
  const product = `CASE i % ${MERCHANTS} ${productIds.map((p, k) => `WHEN ${k} THEN '${p}'`).join(' ')} END`;
  const run = (sql) => db.prisma.$executeRawUnsafe(`${series} ${sql}`);
  await run(`INSERT INTO "locations" ("id", "team_id", "warehouse_id", "name", "location_type_id", "created_at", "updated_at")
    SELECT ${id('8001')}, '${w.team_id}', '${w.id}', 'B-' || i, ${type}, ${ts}, ${ts} FROM n`);
  await run(`INSERT INTO "location_stock" ("id", "product_id", "warehouse_id", "location_id", "on_hand", "created_at", "updated_at")
    SELECT ${id('8002')}, ${product}, '${w.id}', ${id('8001')}, 1 + i % 7, ${ts}, ${ts} FROM n`);
  await run(`INSERT INTO "inventory_movements" ("id", "product_id", "sku", "warehouse_id", "bucket", "delta", "kind", "location_id", "location_stock_id", "created_at")
    SELECT ${id('8003')}, ${product}, NULL, '${w.id}', 'on_hand', 1 + i % 7, 'RECEIVED', ${id('8001')}, ${id('8002')}, ${ts} FROM n`);
  // A tenth of the bins received one more unit after the day: the snapshot must not count it.
  const later = sqlite ? `'2026-03-02T10:00:00.000+00:00'` : `CAST('2026-03-02T10:00:00.000' AS TIMESTAMP(3))`;
  await run(`INSERT INTO "inventory_movements" ("id", "product_id", "warehouse_id", "bucket", "delta", "kind", "location_id", "location_stock_id", "created_at")
    SELECT ${id('8004')}, ${product}, '${w.id}', 'on_hand', 1, 'RECEIVED', ${id('8001')}, ${id('8002')}, ${later} FROM n WHERE i % 10 = 0`);
  await run(
    `UPDATE "location_stock" SET "on_hand" = "on_hand" + 1 WHERE "warehouse_id" = '${w.id}' AND "id" IN (SELECT ${id('8002')} FROM n WHERE i % 10 = 0)`,
  );
  if (sqlite) await db.prisma.$queryRawUnsafe('PRAGMA wal_checkpoint(TRUNCATE)');
}

async function runOn(url, locations) {
  const [{ migrate }, { createDb }, { bootstrapIfEmpty }, teams, runs] = await Promise.all([
    dist('db/migrate.js'),
    dist('db/client.js'),
    dist('domain/bootstrap.js'),
    dist('domain/teams/teams.js'),
    dist('domain/billing/storage-runs.js'),
  ]);
  await migrate(url);
  const db = await createDb(url);
  try {
    const boot = await bootstrapIfEmpty(db);
    const w = await teams.createWarehouse(db, { team_id: boot.teamId, name: 'Bench DC' });
    const typeIds = [];
    for (const name of ['Pallet', 'Shelf', 'Bin']) typeIds.push((await teams.createLocationType(db, { team_id: boot.teamId, name })).id);
    const card = {
      id: 'rc_bench',
      name: 'Bench',
      version_id: 'v_1',
      semantic_version: '1.0.0',
      storage: { rate_per_unit: { DAILY: 0.01 }, by_location_type: { [typeIds[0]]: { DAILY: 0.4 }, [typeIds[1]]: { DAILY: 0.2 } } },
    };
    const productIds = [];
    for (let k = 0; k < MERCHANTS; k++) {
      const m = await teams.createTeam(db, { name: `Bench merchant ${k}`, kind: 'MERCHANT', measurement_system: 'METRIC' });
      await teams.createDelegation(db, { merchant_team_id: m.id, fulfiller_team_id: boot.teamId, rate_card: card });
      const p = await db.prisma.product.create({
        data: {
          team_id: m.id,
          merchant_team_id: m.id,
          fulfiller_team_id: boot.teamId,
          name: `P${k}`,
          sku: `B-${k}`,
          measurement_unit: 'MM',
          weight_unit: 'G',
        },
      });
      productIds.push(p.id);
    }
    await seed(db, w, productIds, typeIds, locations);
    const t0 = performance.now();
    const {
      runs: [r],
    } = await runs.runStorageForDate(db, boot.teamId, { date: '2026-03-01', warehouse_id: w.id }, new Date('2026-03-03T00:00:00Z'));
    const snapshotMs = performance.now() - t0;
    const counted = await db.prisma.storageSnapshot.aggregate({ where: { run_id: r.run.id }, _sum: { locations: true, units: true } });
    let units = 0;
    for (let i = 0; i < locations; i++) units += 1 + (i % 7);
    if (counted._sum.locations !== locations || counted._sum.units !== units)
      throw new Error(
        `the snapshot counts ${counted._sum.locations} locations and ${counted._sum.units} units, not ${locations} and ${units}`,
      );
    return { provider: db.provider, locations, snapshotMs, snapshots: r.run.snapshot_count, charges: r.run.charge_count };
  } finally {
    await db.close();
  }
}

export async function storageBench({ locations = 100_000, pgUrl = process.env.FOS_BENCH_PG_URL } = {}) {
  const out = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-storage-'));
  try {
    out.push(await runOn(`file:${path.join(dir, 'fos.db')}`, locations));
    if (pgUrl) {
      const schema = `bench_storage_${randomUUID().slice(0, 8)}`;
      try {
        out.push(await runOn(`${pgUrl}${pgUrl.includes('?') ? '&' : '?'}schema=${schema}`, locations));
      } finally {
        const { default: pg } = await import('pg');
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await c.end();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}
