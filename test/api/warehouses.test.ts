import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';
import { loadDemo } from '../../src/server/demo/demo.js';

// GET /v1/ops/warehouses (+ /{id}): the team's warehouses by name; `name` filters exactly (the
// CLI resolves `--warehouse <name>` with it). `id_prefix` on every list: the CLI's short ids.

let t: TestApp;
let token: string;
let main: { id: string };
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  await loadDemo(t.db);
  await t.key({ permissions: ['READ_INVENTORY'] }); // a role, for /v1/roles
  main = await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Main', city: 'Leeds', country: 'GB' });
  await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Twin' });
  await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Twin' });
});
afterAll(() => t?.close());

const FIELDS = ['address1', 'city', 'country', 'created_at', 'id', 'label_format', 'name', 'state', 'time_zone', 'updated_at', 'zip'];

describe('warehouses', () => {
  it("lists the team's warehouses by name with every field, and gets one", async () => {
    const res = await t.call('GET', '/v1/ops/warehouses', { token });
    expect(res.statusCode, res.body).toBe(200);
    const names = res.json().data.map((w: any) => w.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['Main', 'Twin', 'Twin']));
    const one = res.json().data.find((w: any) => w.id === main.id);
    expect(Object.keys(one).sort()).toEqual(FIELDS);
    expect(one).toMatchObject({ name: 'Main', city: 'Leeds', country: 'GB', label_format: 'PDF', time_zone: 'UTC', zip: null });
    const got = await t.call('GET', `/v1/ops/warehouses/${main.id}`, { token });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(one);
  });

  it('filters by exact name: one, two of the same name, none for a different case', async () => {
    const by = async (name: string) => (await t.call('GET', '/v1/ops/warehouses', { token, query: { name } })).json().data;
    expect((await by('Main')).map((w: any) => w.id)).toEqual([main.id]);
    expect(await by('Twin')).toHaveLength(2);
    expect(await by('main')).toEqual([]);
    expect(await by('Mai')).toEqual([]);
  });

  it("hides other teams' warehouses (404) and refuses bad input (400) and merchant keys", async () => {
    const other = await teams.createTeam(t.db, { name: 'Other fulfiller', kind: 'FULFILLER', measurement_system: 'METRIC' });
    const theirs = await teams.createWarehouse(t.db, { team_id: other.id, name: 'Main' });
    expect((await t.call('GET', `/v1/ops/warehouses/${theirs.id}`, { token })).statusCode).toBe(404);
    const listed = (await t.call('GET', '/v1/ops/warehouses', { token, query: { name: 'Main' } })).json().data;
    expect(listed.map((w: any) => w.id)).toEqual([main.id]);
    expect((await t.call('GET', '/v1/ops/warehouses/nope', { token })).statusCode).toBe(400);
    expect((await t.call('GET', '/v1/ops/warehouses', { token, query: { colour: 'red' } })).statusCode).toBe(400);
    const merchant = await t.merchant();
    expect((await t.call('GET', '/v1/ops/warehouses', { token: merchant.token })).statusCode).toBe(403);
    expect((await t.call('GET', '/v1/ops/warehouses', { token: null })).statusCode).toBe(401);
  });
});

describe('id_prefix on lists', () => {
  const LISTS = [
    '/v1/ops/warehouses',
    '/v1/ops/products',
    '/v1/ops/orders',
    '/v1/ops/orders/list',
    '/v1/ops/draft-orders',
    '/v1/ops/fulfillment-orders',
    '/v1/ops/purchase-orders',
    '/v1/ops/inventory/movements',
    '/v1/keys',
    '/v1/roles',
    '/v1/ops/carrier-rates',
  ];
  it.each(LISTS)('%s keeps only the ids starting with the prefix', async (path) => {
    const all = (await t.call('GET', path, { token, query: { limit: 100 } })).json().data as { id: string }[];
    expect(all.length, path).toBeGreaterThan(0);
    const target = all[all.length - 1].id;
    for (const n of [4, 13, 18, 36]) {
      const prefix = target.slice(0, n);
      const res = await t.call('GET', path, { token, query: { id_prefix: prefix.toUpperCase(), limit: 100 } });
      expect(res.statusCode, res.body).toBe(200);
      const ids = res.json().data.map((r: { id: string }) => r.id);
      expect(ids).toContain(target);
      expect(ids.every((id: string) => id.startsWith(prefix))).toBe(true);
      expect(ids).toEqual(all.filter((r) => r.id.startsWith(prefix)).map((r) => r.id));
    }
    const none = await t.call('GET', path, { token, query: { id_prefix: 'ffff-ffff' } });
    expect(none.json().data).toEqual([]);
  });

  it('refuses a prefix that is not hex (400)', async () => {
    for (const bad of ['xyz1', '01a', "0'1--"]) {
      const res = await t.call('GET', '/v1/ops/products', { token, query: { id_prefix: bad } });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errors[0].path).toMatch(/id_prefix/);
    }
  });
});
