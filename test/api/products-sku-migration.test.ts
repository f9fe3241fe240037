import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { migrate, MigrationRefused, packageRoot } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/types.js';
import { receiveStock } from '../../src/domain/inventory/receive.js';
// The areas answering the ledger's hooks (a server loads them in app.ts; this file builds no app).
import '../../src/domain/subscriptions.js';
import * as teams from '../../src/domain/teams/teams.js';
import { freshPostgresUrl, freshSqliteUrl } from '../helpers/db.js';
import { runFos, serveSandbox, spawnServe } from '../helpers/serve-process.js';
import { ledgerBalanced } from './inventory.fixtures.js';

// The SKU index migration (issue 25 item 6) on a database that already has duplicates: it
// refuses, naming them, before recording anything — `fos db migrate` and `fos serve` say so in one
// line; `fos admin products dedupe` lists them, `--merge` folds them into the oldest product (its
// levels and movements added up, the ledger exact) and the migration then applies.

const postgres = /^postgres/.test(process.env.FOS_TEST_DB ?? '');
const provider = postgres ? 'postgresql' : 'sqlite';
const MIGRATION = '20261125044800_products_sku_unique_per_team';
let url: string;
let db: Db;
const cleanups: Array<() => Promise<unknown>> = [];
let box: Awaited<ReturnType<typeof serveSandbox>>;

beforeAll(async () => {
  const fresh = postgres ? await freshPostgresUrl() : await freshSqliteUrl();
  cleanups.push(fresh.cleanup);
  url = fresh.url;
  // Migrated up to the migration before this one, as a database of the previous release.
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-sku-migrations-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await cp(path.join(packageRoot(), 'prisma', 'migrations', provider), dir, { recursive: true });
  await rm(path.join(dir, MIGRATION), { recursive: true });
  await migrate(url, { migrationsDir: dir });
  db = await createDb(url);
  box = await serveSandbox();
  cleanups.push(() => rm(box.dir, { recursive: true, force: true }));
}, 120_000);
afterAll(async () => {
  await db?.close();
  for (const c of cleanups.reverse()) await c();
});

async function product(teamId: string, sku: string) {
  const p = await db.prisma.product.create({ data: { team_id: teamId, name: `P ${sku}`, sku, measurement_unit: 'MM', weight_unit: 'G' } });
  await new Promise((r) => setTimeout(r, 5)); // distinct created_at: the first one is the oldest
  return p.id;
}

describe(`SKU index migration over duplicates (${postgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('refuses naming the duplicates; dedupe --merge folds them; then it applies', async () => {
    const team = await teams.createTeam(db, { name: 'Dup DC', kind: 'FULFILLER' });
    const east = (await teams.createWarehouse(db, { team_id: team.id, name: 'East' })).id;
    const west = (await teams.createWarehouse(db, { team_id: team.id, name: 'West' })).id;
    const keep = await product(team.id, 'DUP-1');
    const twin = await product(team.id, 'dup-1');
    await product(team.id, 'Solo');
    await db.prisma.$transaction(async (tx) => {
      await receiveStock(tx, { product_id: keep, warehouse_id: east, quantity: 5 });
      await receiveStock(tx, { product_id: twin, warehouse_id: east, quantity: 3 });
      await receiveStock(tx, { product_id: twin, warehouse_id: west, quantity: 2 });
    });

    const refused = await migrate(url).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MigrationRefused);
    const message = (refused as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain(`migration ${MIGRATION} refused`);
    expect(message).toContain(`"DUP-1" (${keep}), "dup-1" (${twin})`);
    expect(message).toContain('fos admin products dedupe --merge');
    expect(await db.prisma.$queryRawUnsafe(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '${MIGRATION}'`)).toEqual([]);

    const serve = spawnServe(['--db', url, '--port', '0'], box.env, box.dir);
    const exit = await serve.exited;
    expect(exit.code).not.toBe(0);
    const lines = serve.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/refused: 1 SKU\(s\) are used by more than one product of a team/);

    const list = await runFos(['admin', 'products', 'dedupe', '--db', url], { env: box.env, timeoutMs: 60_000 });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).groups).toEqual([
      expect.objectContaining({
        team_id: team.id,
        sku_folded: 'dup-1',
        survivor_id: keep,
        products: [expect.objectContaining({ id: keep }), expect.objectContaining({ id: twin })],
      }),
    ]);
    const merge = await runFos(['admin', 'products', 'dedupe', '--merge', '--db', url], { env: box.env, timeoutMs: 60_000 });
    expect(merge.code, merge.stderr).toBe(0);
    expect(JSON.parse(merge.stdout).merged).toEqual([expect.objectContaining({ survivor_id: keep, merged_ids: [twin] })]);

    expect(await db.prisma.product.findUnique({ where: { id: twin } })).toBeNull();
    const levels = await ledgerBalanced(db, [keep]);
    expect(levels.map((l) => [l.warehouse_id, l.on_hand]).sort()).toEqual(
      [
        [east, 8],
        [west, 2],
      ].sort(),
    );

    expect((await migrate(url)).applied).toEqual([MIGRATION]);
    const again = await db.prisma.product.create({ data: { team_id: team.id, name: 'again', sku: 'Dup-1' } }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(Error);
  });
});
