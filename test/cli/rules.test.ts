// `fos rules create|list|test|apply` through the spawned `bin/fos.js` against a real server: a rule
// from a JSON file (a bad one refused naming the path, exit 2), a dry run on a hypothetical order
// and on a stored one (nothing written), then applied to the order, whose trace `fos orders get` shows;
// a YAML rule, its history, and export/import round-tripping the list.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { fixtureWarehouse, fulfillmentFixture } from '../helpers/fixtures.js';
import { tempConfigDir } from './helpers/cli.js';
import { cliServer } from './helpers/server.js';
import { ensureCliBundle, spawnFos } from './helpers/spawn.js';

let t: TestApp;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  await ensureCliBundle();
  const s = await cliServer();
  t = s.t;
  env = { ...s.env, FOS_CONFIG_DIR: await tempConfigDir() };
  dir = await mkdtemp(path.join(tmpdir(), 'fos-rules-'));
}, 300_000);
afterAll(() => t?.close());

async function file(name: string, body: unknown) {
  const p = path.join(dir, name);
  await writeFile(p, JSON.stringify(body));
  return p;
}

describe('fos rules (spawned)', () => {
  it('create from a file (bad one refused with its path), test without writing, apply, trace in fos orders get', async () => {
    const bad = await spawnFos(
      [
        'rules',
        'create',
        '--file',
        await file('bad.json', { name: 'x', conditions: { colour: ['red'] }, actions: { carrier_id: 'usps' } }),
      ],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('body.conditions.colour');

    const rule = {
      name: 'Oregon ships USPS',
      conditions: { any: [{ state: ['OR'] }, { skus_any: ['GIFT'] }] },
      actions: { carrier_id: 'usps', service_id: 'usps_ground_advantage', add_tags: ['auto'] },
    };
    const created = await spawnFos(['rules', 'create', '--file', await file('rule.json', rule), '--json', 'id,position,version'], env);
    expect(created.code, created.stderr).toBe(0);
    const r = JSON.parse(created.stdout);
    expect(r).toMatchObject({ position: 1, version: 1 });
    const list = await spawnFos(['rules', 'list', '--json', 'name'], env);
    expect(JSON.parse(list.stdout)).toEqual([{ name: 'Oregon ships USPS' }]);

    const hypo = await file('order.json', { shipping_address: { country: 'US', state: 'WA' }, line_items: [{ sku: 'GIFT', quantity: 1 }] });
    const dry = await spawnFos(['rules', 'test', '--order-file', hypo, '--json'], env);
    expect(dry.code, dry.stderr).toBe(0);
    const d = JSON.parse(dry.stdout);
    expect(d.decisions).toEqual([
      expect.objectContaining({ rule_id: r.id, version: 1, set: expect.objectContaining({ carrier_id: 'usps' }) }),
    ]);
    expect(d.result).toMatchObject({ carrier_id: 'usps', tags: ['auto'] });

    const warehouse = await fixtureWarehouse(t);
    const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED', warehouseId: warehouse });
    await t.db.prisma.order.update({ where: { id: f.order.id }, data: { shipping_address: { country: 'US', state: 'OR', zip: '97201' } } });
    const stored = await spawnFos(['rules', 'test', f.order.id, '--json', 'decisions.rule_name'], env);
    expect(stored.code, stored.stderr).toBe(0);
    expect(JSON.parse(stored.stdout)).toEqual({ decisions: [{ rule_name: 'Oregon ships USPS' }] });
    expect((await t.db.prisma.order.findUniqueOrThrow({ where: { id: f.order.id } })).automation_trace).toBeNull();

    const applied = await spawnFos(['rules', 'apply', '--order', f.order.id, '--json', 'carrier_id,tags'], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout)).toEqual({ carrier_id: 'usps', tags: ['auto'] });
    const got = await spawnFos(['orders', 'get', f.order.id, '--json', 'automation_trace'], env);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout).automation_trace.decisions[0]).toMatchObject({ rule_id: r.id, version: 1, set: { carrier_id: 'usps' } });

    const all = await spawnFos(['rules', 'apply', '--all-open', '--json'], env);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).orders).toBeGreaterThanOrEqual(1);
    const neither = await spawnFos(['rules', 'apply'], env);
    expect(neither.code).toBe(2);
  }, 240_000);

  it('YAML: create from a YAML file, history of its versions, export then import round-trips', async () => {
    const yamlRule = path.join(dir, 'rule.yaml');
    await writeFile(
      yamlRule,
      [
        'name: Heavy goes UPS',
        'conditions:',
        '  weight: { gte: 5000 }',
        '  residential: true',
        'actions:',
        '  carrier_id: ups',
        '  delivery_confirmation: SIGNATURE',
        '  insurance_amount: 200',
        '',
      ].join('\n'),
    );
    const created = await spawnFos(['rules', 'create', '--file', yamlRule, '--json', 'id,actions'], env);
    expect(created.code, created.stderr).toBe(0);
    const r = JSON.parse(created.stdout);
    expect(r.actions).toEqual({ carrier_id: 'ups', delivery_confirmation: 'SIGNATURE', insurance_amount: 200 });
    const upd = await spawnFos(['rules', 'update', r.id, '-F', 'enabled=false'], env);
    expect(upd.code, upd.stderr).toBe(0);
    const hist = await spawnFos(['rules', 'history', r.id, '--json', 'change,version,before.enabled,after.enabled'], env);
    expect(hist.code, hist.stderr).toBe(0);
    expect(JSON.parse(hist.stdout)).toEqual([
      { change: 'UPDATED', version: 2, before: { enabled: true }, after: { enabled: false } },
      { change: 'CREATED', version: 1, before: null, after: { enabled: true } },
    ]);

    const out = path.join(dir, 'all.yaml');
    const exported = await spawnFos(['rules', 'export', '--file', out], env);
    expect(exported.code, exported.stderr).toBe(0);
    const before = JSON.parse((await spawnFos(['rules', 'list', '--json', 'name,enabled,conditions,actions'], env)).stdout);
    const text = await readFile(out, 'utf8');
    expect(text).toContain('name: Heavy goes UPS');
    for (const { id } of JSON.parse((await spawnFos(['rules', 'list', '--json', 'id'], env)).stdout)) {
      expect((await spawnFos(['rules', 'delete', id, '--yes'], env)).code).toBe(0);
    }
    const imported = await spawnFos(['rules', 'import', '--file', out, '--json', 'created'], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ created: before.length });
    const after = JSON.parse((await spawnFos(['rules', 'list', '--json', 'name,enabled,conditions,actions'], env)).stdout);
    expect(after).toEqual(before);
    // The JSON form reads back the same.
    const asJson = path.join(dir, 'all.json');
    expect((await spawnFos(['rules', 'export', '--file', asJson], env)).code).toBe(0);
    expect(JSON.parse(await readFile(asJson, 'utf8')).rules.map((x: any) => x.name)).toEqual(before.map((x: any) => x.name));
    const broken = path.join(dir, 'broken.yaml');
    await writeFile(broken, 'rules:\n  - name: x\n    conditions: { colour: [red] }\n    actions: { carrier_id: usps }\n');
    const bad = await spawnFos(['rules', 'import', '--file', broken], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('body.conditions.colour');
  }, 240_000);

  it('a rule file names the warehouse and the merchant by name: sent as their ids; an unknown name creates nothing', async () => {
    const warehouse = (await t.db.prisma.warehouse.create({ data: { team_id: t.teamId, name: 'Cold Store' } })).id;
    const merchant = await t.merchant();
    const merchantName = (await t.db.prisma.team.findUniqueOrThrow({ where: { id: merchant.teamId } })).name;
    const rule = {
      name: 'Perishables from the cold store',
      merchant_team_id: merchantName,
      conditions: { tags_any: ['perishable'], merchant_team_id: [merchantName] },
      actions: { warehouse_id: 'Cold Store', warehouse_only: true },
    };
    for (let run = 0; run < 2; run++) {
      const made = await spawnFos(
        ['rules', 'create', '--file', await file('named.json', rule), '--json', 'id,merchant_team_id,conditions,actions'],
        env,
      );
      expect(made.code, made.stderr).toBe(0);
      expect(JSON.parse(made.stdout)).toMatchObject({
        merchant_team_id: merchant.teamId,
        conditions: { tags_any: ['perishable'], merchant_team_id: [merchant.teamId] },
        actions: { warehouse_id: warehouse, warehouse_only: true },
      });
      const id = JSON.parse(made.stdout).id;
      const moved = await spawnFos(
        ['rules', 'update', id, '--file', await file('move.json', { actions: { warehouse_id: 'Cold Store' } }), '--json', 'actions'],
        env,
      );
      expect(moved.code, moved.stderr).toBe(0);
      expect(JSON.parse(moved.stdout).actions.warehouse_id).toBe(warehouse);
    }
    const count = await t.db.prisma.automationRule.count();
    const unknown = path.join(dir, 'unknown.yaml');
    await writeFile(
      unknown,
      `- { name: a, conditions: { country: [CA] }, actions: { priority: HIGH } }\n- { name: b, conditions: { country: [CA] }, actions: { warehouse_id: Nowhere } }\n`,
    );
    const refused = await spawnFos(['rules', 'import', '--file', unknown], env);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('no warehouse is named "Nowhere"');
    expect(await t.db.prisma.automationRule.count()).toBe(count);
  }, 120_000);
});
