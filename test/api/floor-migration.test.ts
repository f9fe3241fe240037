import { readdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate, packageRoot } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/types.js';
import { applyToLevel } from '../../src/domain/inventory/ledger.js';
import { freshPostgresUrl, freshSqliteUrl, migrateBefore } from '../helpers/db.js';
import { binLedgerBalanced } from './floor.fixtures.js';

// Issue 28's migration on a database made before it (SQLite, or PostgreSQL with FOS_TEST_DB=postgres):
// warehouses with stock (received, committed by open orders, set aside, on order, partly shipped)
// move to the bin model with every level unchanged, all stock in each warehouse's new default
// location, every past on_hand movement naming that bin; and the stock then ships from there.

const provider = /^postgres/.test(process.env.FOS_TEST_DB ?? '') ? 'postgresql' : 'sqlite';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Issue 28's migration (its folder's name ends so). */
const FLOOR_LOCATIONS = readdirSync(path.join(packageRoot(), 'prisma', 'migrations', provider)).find((n) =>
  n.endsWith('_floor_locations'),
)!;

async function oldWorld(db: Db) {
  const team = await db.prisma.team.create({ data: { name: 'Old DC', kind: 'FULFILLER' } });
  const now = new Date();
  const wh = [randomUUID(), randomUUID()];
  for (const [i, id] of wh.entries()) {
    await db.prisma
      .$executeRaw`INSERT INTO "warehouses" ("id", "team_id", "name", "created_at", "updated_at") VALUES (${id}, ${team.id}, ${`WH${i}`}, ${now}, ${now})`;
  }
  const products = [randomUUID(), randomUUID()];
  for (const [i, id] of products.entries()) {
    await db.prisma
      .$executeRaw`INSERT INTO "products" ("id", "team_id", "name", "sku", "measurement_unit", "weight_unit", "created_at", "updated_at")
      VALUES (${id}, ${team.id}, ${`Old ${i}`}, ${`OLD-${i}`}, 'MM', 'G', ${now}, ${now})`;
  }
  // Levels as the old ledger left them: each bucket equals the sum of its movements.
  const levels = [
    {
      p: products[0],
      w: wh[0],
      moves: [
        ['RECEIVED', 'on_hand', 20, 'LOT-X'],
        ['COMMITTED', 'committed', 6, null],
        ['FULFILLED', 'on_hand', -4, null],
        ['FULFILLED', 'committed', -4, null],
        ['ADJUSTED', 'unavailable', 2, null],
      ],
    },
    { p: products[0], w: wh[1], moves: [['ORDERED', 'on_order', 9, null]] },
    {
      p: products[1],
      w: wh[0],
      moves: [
        ['RECEIVED', 'on_hand', 3, null],
        ['COMMITTED', 'committed', 3, null],
      ],
    },
  ] as const;
  for (const l of levels) {
    const sum = (b: string) => l.moves.filter((m) => m[1] === b).reduce((n, m) => n + m[2], 0);
    await db.prisma
      .$executeRaw`INSERT INTO "inventory_levels" ("id", "product_id", "warehouse_id", "on_hand", "committed", "unavailable", "on_order", "created_at", "updated_at")
      VALUES (${randomUUID()}, ${l.p}, ${l.w}, ${sum('on_hand')}, ${sum('committed')}, ${sum('unavailable')}, ${sum('on_order')}, ${now}, ${now})`;
    for (const [kind, bucket, delta, lot] of l.moves) {
      await db.prisma.$executeRawUnsafe(
        `INSERT INTO "inventory_movements" ("id", "product_id", "sku", "warehouse_id", "bucket", "delta", "kind", "lot_code", "created_at") VALUES ($1, $2, 'OLD', $3, $4${provider === 'postgresql' ? '::"InventoryBucket"' : ''}, $5, $6${provider === 'postgresql' ? '::"InventoryMovementKind"' : ''}, $7, $8)`,
        randomUUID(),
        l.p,
        l.w,
        bucket,
        delta,
        kind,
        lot,
        now,
      );
    }
  }
  return { wh, products };
}

describe(`issue 28 migration (${provider})`, () => {
  it('keeps every level, puts all stock in the default location, and the ledger balances per bin', async () => {
    const fresh = provider === 'postgresql' ? await freshPostgresUrl() : await freshSqliteUrl();
    cleanups.push(fresh.cleanup);
    await migrateBefore(fresh.url, FLOOR_LOCATIONS); // as before issue 28
    let db = await createDb(fresh.url);
    const { wh, products } = await oldWorld(db);
    const figures = async () =>
      (await db.prisma.inventoryLevel.findMany({ orderBy: { id: 'asc' } })).map((l) => [
        l.product_id,
        l.warehouse_id,
        l.on_hand,
        l.committed,
        l.unavailable,
        l.on_order,
      ]);
    const before = await db.prisma.$queryRaw<
      unknown[]
    >`SELECT "product_id", "warehouse_id", "on_hand", "committed", "unavailable", "on_order" FROM "inventory_levels" ORDER BY "id"`;
    await db.close();

    const { applied } = await migrate(fresh.url);
    expect(applied.some((n) => n.endsWith('_floor_locations'))).toBe(true);
    db = await createDb(fresh.url);
    cleanups.push(() => db.close());
    expect((await figures()).map((r) => r.map(String))).toEqual(
      before.map((r: any) => [r.product_id, r.warehouse_id, r.on_hand, r.committed, r.unavailable, r.on_order].map(String)),
    );
    const locations = await db.prisma.location.findMany({ orderBy: { name: 'asc' } });
    expect(locations.map((l) => [l.id, l.name, l.type, l.is_default, l.active])).toEqual(
      expect.arrayContaining(wh.map((w) => [`default-${w}`, 'DEFAULT', 'PICKABLE', true, true])),
    );
    const stock = await db.prisma.locationStock.findMany({ where: { on_hand: { gt: 0 } } });
    expect(stock.map((s) => [s.product_id, s.location_id, s.lot_code, s.on_hand]).sort()).toEqual(
      [
        [products[0], `default-${wh[0]}`, '', 16],
        [products[1], `default-${wh[0]}`, '', 3],
      ].sort(),
    );
    const unplaced = await db.prisma.inventoryMovement.count({ where: { bucket: 'on_hand', location_stock_id: null } });
    expect(unplaced).toBe(0);
    await binLedgerBalanced(db, products);

    // The committed units ship from the default bin like any other, and the ledger still balances.
    await db.prisma.$transaction(async (tx) => {
      const level = await tx.inventoryLevel.findFirstOrThrow({ where: { product_id: products[0], warehouse_id: wh[0] } });
      expect(await applyToLevel(tx, level, { on_hand: -2, committed: -2 }, { kind: 'FULFILLED', placement: { pick: true } })).toBe(true);
    });
    const shipped = await db.prisma.inventoryMovement.findFirstOrThrow({ where: { kind: 'FULFILLED', bucket: 'on_hand', delta: -2 } });
    expect(shipped).toMatchObject({
      location_id: `default-${wh[0]}`,
      location_stock_id: stock.find((s) => s.product_id === products[0])!.id,
    });
    await binLedgerBalanced(db, products);
  }, 120_000);
});
