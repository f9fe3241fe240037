// Names and short ids, through the spawned `bin/fos.js` (each command run twice in a row) and on
// a pseudo-terminal 80 columns wide: `fos warehouses`, `--warehouse <name>`, ids as the short
// prefixes tables show, and the columns a list exists for.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemo } from '../../src/server/demo/demo.js';
import * as teams from '../../src/domain/teams/teams.js';
import type { TestApp } from '../helpers/app.js';
import { tempConfigDir } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, ptyFos, spawnFos, type Spawned } from './helpers/spawn.js';

let t: TestApp;
let env: Record<string, string>;
let portland: string;
let twins: string[];

beforeAll(async () => {
  await ensureCliBundle();
  const s = await cliServer();
  t = s.t;
  env = { ...s.env, FOS_CONFIG_DIR: await tempConfigDir() };
  await loadDemo(t.db);
  portland = (await t.db.prisma.warehouse.findFirstOrThrow({ where: { name: 'Portland DC' } })).id;
  twins = [];
  for (let i = 0; i < 2; i++) twins.push((await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Twin' })).id);
}, 300_000);
afterAll(() => t?.close());

/** Runs the same command twice (the second run uses what the first left behind) and returns both. */
async function twice(args: string[]): Promise<[Spawned, Spawned]> {
  const first = await spawnFos(args, env);
  const second = await spawnFos(args, env);
  expect(second.code).toBe(first.code);
  return [first, second];
}

describe('warehouses by name (spawned)', () => {
  it('lists and gets warehouses by name; --warehouse takes the name', async () => {
    for (const r of await twice(['warehouses', 'list', '--json', 'id,name'])) {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(expect.arrayContaining([{ id: portland, name: 'Portland DC' }]));
    }
    for (const r of await twice(['warehouses', 'get', 'Portland DC', '--json', 'id,name,city'])) {
      expect(JSON.parse(r.stdout)).toEqual({ id: portland, name: 'Portland DC', city: 'Portland' });
    }
    for (const r of await twice(['inventory', 'list', '--warehouse', 'Portland DC', '--json', 'warehouse_id'])) {
      const rows = JSON.parse(r.stdout);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((l: { warehouse_id: string }) => l.warehouse_id === portland)).toBe(true);
    }
    const po = await spawnFos(
      ['purchase-orders', 'create', '--warehouse', 'Portland DC', '--reference', 'BY-NAME', 'ACME-STOVE=3', '--json', 'warehouse_id'],
      env,
    );
    expect(po.code, po.stderr).toBe(0);
    expect(JSON.parse(po.stdout)).toEqual({ warehouse_id: portland });
  });

  it('refuses an ambiguous name listing the candidates (exit 2), and an unknown one (exit 4)', async () => {
    for (const r of await twice(['inventory', 'list', '--warehouse', 'Twin'])) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: 2 warehouses are named "Twin": /);
      for (const id of twins) expect(r.stderr).toContain(id);
      expect(r.stdout).toBe('');
    }
    for (const r of await twice(['warehouses', 'get', 'portland dc'])) {
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('no warehouse is named "portland dc" (names match exactly; fos warehouses list shows them)');
    }
  });
});

describe('short ids at 80 columns (pseudo-terminal)', () => {
  it('orders list shows unique pasteable prefixes that orders get takes; an ambiguous prefix is refused', async () => {
    const full = JSON.parse((await spawnFos(['orders', 'list', '--json', 'id'], env)).stdout).map((o: { id: string }) => o.id);
    const r = await ptyFos(['orders', 'list'], env);
    expect(r.code).toBe(0);
    const lines = r.out
      .trimEnd()
      .split('\n')
      .filter((l) => !l.startsWith('('));
    expect(lines[0]).toMatch(/^ID\s+ORDER_NUMBER\s+MERCHANT_TEAM_NAME\s+STATUS/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    // Text columns may narrow (a customer's name ends in "…"); ids never do: they are pasted.
    const shown = lines
      .slice(1)
      .filter((l) => /^[0-9a-f]/.test(l))
      .map((l) => l.split(/\s+/)[0]);
    for (const s of shown) expect(s).toMatch(/^[0-9a-f-]+$/);
    expect(shown).toHaveLength(full.length);
    expect(shown[0].length).toBeLessThan(36);
    for (const [i, s] of shown.entries()) {
      expect(full.filter((id: string) => id.startsWith(s))).toEqual([full[i]]);
    }
    for (const g of await twice(['orders', 'get', shown[1], '--json', 'id'])) {
      expect(g.code, g.stderr).toBe(0);
      expect(JSON.parse(g.stdout)).toEqual({ id: full[1] });
    }
    const common = shown[0].slice(0, 6);
    for (const g of await twice(['orders', 'get', common])) {
      expect(g.code).toBe(2);
      expect(g.stderr).toMatch(
        new RegExp(`^error: id prefix ${common} is ambiguous: \\d+ orders match; type more of the id\\n  [0-9a-f-]{36}  #`),
      );
    }
    const none = await spawnFos(['purchase-orders', 'get', 'ffffffff-ff'], env);
    expect(none.code).toBe(4);
    expect(none.stderr).toContain('no purchase order has reference ffffffff-ff (and no purchase order id starts with it)');
  });

  it('inventory movements keeps time, bucket, delta, kind and reason; receipts show what came damaged', async () => {
    const adjust = await spawnFos(
      ['inventory', 'adjust', '--warehouse', 'Portland DC', '--reason', 'FOUND', 'ACME-STOVE:2', '--json', 'id'],
      env,
    );
    expect(adjust.code, adjust.stderr).toBe(0);
    const m = await ptyFos(['inventory', 'movements', '--limit', '5'], env);
    expect(m.code).toBe(0);
    const lines = m.out.trimEnd().split('\n');
    const head = lines.findIndex((l) => l.startsWith('CREATED_AT'));
    expect(lines[head]).toMatch(/^CREATED_AT\s+SKU\s+BUCKET\s+DELTA\s+KIND\s+REASON$/);
    expect(lines[head + 1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\dZ\s+ACME-STOVE\s+on_hand\s+2\s+ADJUSTED\s+FOUND$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);

    const po = JSON.parse(
      (await spawnFos(['purchase-orders', 'create', '--warehouse', 'Portland DC', 'ACME-STOVE=10', '--json', 'id'], env)).stdout,
    ).id;
    const recv = await spawnFos(
      ['purchase-orders', 'receive', po.slice(0, 13), 'ACME-STOVE=7', '--damaged', 'ACME-STOVE=3', '--json', 'units'],
      env,
    );
    expect(recv.code, recv.stderr).toBe(0);
    expect(JSON.parse(recv.stdout)).toEqual({ units: 10 });
    const shown = await ptyFos(['purchase-orders', 'get', po.slice(0, 13)], env);
    expect(shown.code).toBe(0);
    expect(shown.out, shown.out).toMatch(/^ {2}(ID\s+)?SKU\s+QUANTITY\s+QUANTITY_RECEIVED\s+QUANTITY_DAMAGED/m);
    expect(shown.out).toMatch(/^ {2}(\S+\s+)?ACME-STOVE\s+10\s+10\s+3$/m);
  });
});

describe('merchants by name (spawned)', () => {
  it('--merchant takes the name among the merchants delegated (case ignored) or an id prefix; the lists name them; a PO its reference', async () => {
    const acme = (await t.db.prisma.team.findFirstOrThrow({ where: { name: 'Acme Outdoor', kind: 'MERCHANT' } })).id;
    for (const merchant of ['Acme Outdoor', 'acme outdoor', acme.slice(0, 13)]) {
      for (const r of await twice(['charges', 'list', '--merchant', merchant, '--limit', '5', '--json', 'merchant_team_id'])) {
        expect(r.code, r.stderr).toBe(0);
        const rows = JSON.parse(r.stdout);
        expect(rows.length).toBe(5);
        expect(rows.every((c: { merchant_team_id: string }) => c.merchant_team_id === acme)).toBe(true);
      }
    }
    for (const r of await twice(['invoices', 'list', '--merchant', 'Acme Outdoor', '--json', 'merchant_team_id'])) {
      expect(JSON.parse(r.stdout)).toEqual([{ merchant_team_id: acme }]);
    }
    // A key that may not read the merchants (no READ_CHARGES) is told to pass the id; the id works.
    const floor = await t.key({ permissions: ['READ_INVENTORY', 'READ_ORDERS'] });
    const floorEnv = { ...env, FOS_API_KEY: floor.token };
    const denied = await spawnFos(['purchase-orders', 'list', '--merchant', 'Acme Outdoor'], floorEnv);
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain('cannot look up the merchant "Acme Outdoor": this key may not read the merchants');
    const byId = await spawnFos(['purchase-orders', 'list', '--merchant', acme, '--json', 'reference'], floorEnv);
    expect(byId.code, byId.stderr).toBe(0);
    expect(JSON.parse(byId.stdout).length).toBeGreaterThan(0);
    for (const r of await twice(['charges', 'list', '--merchant', 'Nobody'])) {
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('no merchant has name Nobody (fos delegations list shows them)');
    }
    // A purchase order by its reference, the PO number on the dock's paperwork.
    for (const r of await twice(['purchase-orders', 'get', 'OPENING-CMH', '--json', 'reference,merchant_team_id'])) {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ reference: 'OPENING-CMH', merchant_team_id: acme });
    }
    const noPo = await spawnFos(['purchase-orders', 'receive', 'PO-NONE', 'ACME-STOVE=1'], env);
    expect(noPo.code).toBe(4);
    expect(noPo.stderr).toContain('no purchase order has reference PO-NONE');
    for (const r of await twice(['delegations', 'list', '--json', 'merchant_team_id,merchant_team_name,rate_card_name'])) {
      expect(JSON.parse(r.stdout)).toEqual([
        { merchant_team_id: acme, merchant_team_name: 'Acme Outdoor', rate_card_name: 'Acme Outdoor 3PL' },
      ]);
    }
  });
});

// Last: its bin move would add a reference column to the movements table above.
describe('--warehouse by name everywhere (spawned)', () => {
  it('every other --warehouse takes the name too: locations, bins, moves, carriers', async () => {
    const ok = async (args: string[]) => {
      const r = await spawnFos([...args, '--json'], env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return JSON.parse(r.stdout);
    };
    const W = ['--warehouse', 'Portland DC'];
    expect(await ok(['locations', 'create', 'BY-NAME-1', ...W])).toMatchObject({ warehouse_id: portland, name: 'BY-NAME-1' });
    const bins = await ok(['locations', 'list', ...W]);
    expect(bins.map((l: { name: string }) => l.name)).toContain('BY-NAME-1');
    expect(bins.every((l: { warehouse_id: string }) => l.warehouse_id === portland)).toBe(true);
    const csv = path.join(env.FOS_CONFIG_DIR, 'bins.csv');
    writeFileSync(csv, 'name,type\nBY-NAME-2,PICKABLE\n');
    expect(await ok(['locations', 'import', csv, ...W, '--dry-run'])).toMatchObject({ warehouse_id: portland, rows: 1, dry_run: true });
    const stock = await ok(['inventory', 'locations', ...W]);
    expect(stock.length).toBeGreaterThan(0);
    expect(stock.every((l: { warehouse_id: string }) => l.warehouse_id === portland)).toBe(true);
    const move = await ok(['inventory', 'move', ...W, '--from', 'DEFAULT', '--to', 'BY-NAME-1', 'ACME-STOVE=1']);
    expect(move).toMatchObject({ warehouse_id: portland, to_location_name: 'BY-NAME-1', lines: [{ sku: 'ACME-STOVE', quantity: 1 }] });
    expect(await ok(['carriers', 'connect', 'table', '--warehouse', `Portland DC,${twins[0]}`])).toMatchObject({
      warehouse_ids: [portland, twins[0]],
    });
    // fulfillment-orders move <fulfillment-order-id> <warehouse>: a short id and a name.
    const fo = await t.db.prisma.fulfillmentOrder.findFirstOrThrow({
      where: { status: 'ACCEPTED', warehouse_id: (await t.db.prisma.warehouse.findFirstOrThrow({ where: { name: 'Columbus DC' } })).id },
      include: { line_items: true },
    });
    const needed = fo.line_items.map((l) => `${l.sku}:${l.quantity}`);
    await ok(['inventory', 'adjust', ...W, '--reason', 'FOUND', ...needed]);
    expect(await ok(['fulfillment-orders', 'move', fo.id.slice(0, 28), 'Portland DC'])).toMatchObject({
      moved: { id: fo.id, warehouse_name: 'Portland DC' },
    });
    // Flags naming products, orders and fulfillment orders take the short ids tables show.
    const product = await t.db.prisma.product.findFirstOrThrow({ where: { sku: 'ACME-STOVE' } });
    const levels = await ok(['inventory', 'list', '--product', product.id.slice(0, 28)]);
    expect(new Set(levels.map((l: { sku: string }) => l.sku))).toEqual(new Set(['ACME-STOVE']));
    const ofOrder = await ok(['fulfillment-orders', 'list', '--order-id', fo.order_id.slice(0, 28)]);
    expect(ofOrder.map((f: { id: string }) => f.id)).toContain(fo.id);
    const box = await ok([
      'packages',
      'create',
      '--fulfillment-order',
      fo.id.slice(0, 28),
      '--item',
      `sku=${fo.line_items[0].sku},quantity=1`,
    ]);
    expect(box).toMatchObject({ fulfillment_order_id: fo.id });
    const twin = await spawnFos(['locations', 'list', '--warehouse', 'Twin'], env);
    expect(twin.code).toBe(2);
    expect(twin.stderr).toMatch(/^error: 2 warehouses are named "Twin": /);
  });
});
