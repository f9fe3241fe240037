import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';
import { createKey } from '../../src/domain/keys/keys.js';

// Merchant products (spec 4.3, record 2.4): merchant keys only, their team's products.

const FIELDS = [
  'id',
  'name',
  'sku',
  'description',
  'type',
  'image_url',
  'length',
  'width',
  'height',
  'weight',
  'measurement_unit',
  'weight_unit',
  'cost_price',
  'cost_currency',
  'customs_description',
  'customs_value',
  'customs_value_currency',
  'country_of_origin',
  'hs_code',
  'first_article_inspection_completed_at',
  'team_id',
  'config',
].sort();

let t: TestApp;
let ops: string;
let m: { teamId: string; token: string }; // METRIC merchant delegated to the bootstrap fulfiller, tier-4 ADMIN key
let imperial: { teamId: string; token: string };
let other: { teamId: string; token: string };

beforeAll(async () => {
  t = await testApp();
  ops = (await t.key({ tier: 4 })).token;
  const metric = await t.merchant({ measurement_system: 'METRIC' });
  m = { teamId: metric.teamId, token: (await t.key({ teamId: metric.teamId, tier: 4 })).token };
  imperial = await t.merchant({ measurement_system: 'IMPERIAL' });
  const o = await t.merchant();
  other = { teamId: o.teamId, token: (await t.key({ teamId: o.teamId, tier: 4 })).token };
});
afterAll(() => t?.close());

const create = (body: object, token = m.token) => t.call('POST', '/v1/merchant/products', { token, body });
const patch = (id: string, body: object, token = m.token) => t.call('PATCH', `/v1/merchant/products/${id}`, { token, body });
const get = (id: string, token = m.token) => t.call('GET', `/v1/merchant/products/${id}`, { token });
const list = (query: Record<string, string | number> = {}, token = m.token) => t.call('GET', '/v1/merchant/products', { token, query });
async function made(body: object, token = m.token) {
  const res = await create(body, token);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
function expectInvalid(res: { statusCode: number; json(): any }, path: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().type).toBe('urn:fos:error:validation-failed');
  expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
}

describe('create and get', () => {
  it('creates with exactly the 2.4 fields, owned by the merchant team, fulfiller from its delegation', async () => {
    const p = await made({ name: 'Tote Bag', type: 'STANDARD', sku: 'TB-1', cost_price: 2, cost_currency: 'USD' });
    expect(Object.keys(p).sort()).toEqual(FIELDS);
    expect(p).toMatchObject({
      name: 'Tote Bag',
      sku: 'TB-1',
      type: 'STANDARD',
      team_id: m.teamId,
      measurement_unit: 'MM',
      weight_unit: 'G',
      cost_price: 2,
      cost_currency: 'USD',
      first_article_inspection_completed_at: null,
      config: {
        replenishment_source_strategy: 'FIFO',
        replenishment_increment_level: null,
        replenishment_maximum_level: null,
        replenishment_minimum_level: null,
      },
    });
    const row = await t.db.prisma.product.findUniqueOrThrow({ where: { id: p.id } });
    expect(row).toMatchObject({ team_id: m.teamId, merchant_team_id: m.teamId, fulfiller_team_id: t.teamId });
    const fetched = await get(p.id);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual(p);
  });

  it("defaults units to the team's system (IMPERIAL -> IN/LB) and lets explicit values override", async () => {
    const i = await made({ name: 'Imperial', type: 'STANDARD' }, imperial.token);
    expect(i).toMatchObject({ measurement_unit: 'IN', weight_unit: 'LB', team_id: imperial.teamId });
    const o = await made({ name: 'Override', type: 'STANDARD', measurement_unit: 'MM', weight_unit: 'G' }, imperial.token);
    expect(o).toMatchObject({ measurement_unit: 'MM', weight_unit: 'G' });
    const half = await made({ name: 'Half', type: 'STANDARD', measurement_unit: 'IN' });
    expect(half).toMatchObject({ measurement_unit: 'IN', weight_unit: 'G' });
  });

  it('leaves fulfiller_team_id empty without exactly one delegation', async () => {
    const lone = await teams.createTeam(t.db, { name: 'Lone merchant', kind: 'MERCHANT' });
    const key = await createKey(t.db, lone.id, { name: 'k', power_role: 'ADMIN' }, null);
    const p = await made({ name: 'Lonely', type: 'STANDARD' }, key.token);
    expect((await t.db.prisma.product.findUniqueOrThrow({ where: { id: p.id } })).fulfiller_team_id).toBeNull();
    const second = await teams.createTeam(t.db, { name: 'Second 3PL', kind: 'FULFILLER' });
    await teams.createDelegation(t.db, { merchant_team_id: other.teamId, fulfiller_team_id: second.id });
    const q = await made({ name: 'Two fulfillers', type: 'STANDARD' }, other.token);
    expect((await t.db.prisma.product.findUniqueOrThrow({ where: { id: q.id } })).fulfiller_team_id).toBeNull();
  });

  it.each([
    ['an unknown field', { name: 'A', type: 'STANDARD', colour: 'red' }, 'body.colour'],
    ['an ops-only field', { name: 'A', type: 'STANDARD', barcode: '123' }, 'body.barcode'],
    [
      'the inspection time',
      { name: 'A', type: 'STANDARD', first_article_inspection_completed_at: '2026-01-01T00:00:00Z' },
      'body.first_article_inspection_completed_at',
    ],
    [
      'merchant_team_id',
      { name: 'A', type: 'STANDARD', merchant_team_id: '00000000-0000-7000-8000-000000000000' },
      'body.merchant_team_id',
    ],
    ['a missing type', { name: 'A' }, 'body.type'],
    ['an unknown type', { name: 'A', type: 'KIT' }, 'body.type'],
    ['a string weight', { name: 'A', type: 'STANDARD', weight: 'heavy' }, 'body.weight'],
    ['an unknown weight_unit', { name: 'A', type: 'STANDARD', weight_unit: 'OZ' }, 'body.weight_unit'],
    [
      'an unknown strategy',
      { name: 'A', type: 'STANDARD', config: { replenishment_source_strategy: 'FEFO' } },
      'body.config.replenishment_source_strategy',
    ],
  ])('rejects %s, writing nothing', async (_label, body, path) => {
    const before = await t.db.prisma.product.count();
    expectInvalid(await create(body), path);
    expect(await t.db.prisma.product.count()).toBe(before);
  });
});

describe('access', () => {
  let p: { id: string };
  beforeAll(async () => {
    p = await made({ name: 'Access test', type: 'STANDARD' });
  });

  it('refuses fulfiller keys with 403 on every operation', async () => {
    for (const [method, url, body] of [
      ['GET', '/v1/merchant/products', undefined],
      ['GET', `/v1/merchant/products/${p.id}`, undefined],
      ['POST', '/v1/merchant/products', { name: 'F', type: 'STANDARD' }],
      ['PATCH', `/v1/merchant/products/${p.id}`, { name: 'F' }],
    ] as const) {
      const res = await t.call(method, url, { token: ops, body });
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('urn:fos:error:forbidden');
    }
    expect((await t.db.prisma.product.findUniqueOrThrow({ where: { id: p.id } })).name).toBe('Access test');
  });

  it('needs READ_PRODUCTS to read and WRITE_PRODUCTS to write', async () => {
    const noRead = await t.key({ teamId: m.teamId, permissions: ['READ_VENDORS'] });
    expect((await list({}, noRead.token)).statusCode).toBe(403);
    expect((await get(p.id, noRead.token)).statusCode).toBe(403);
    const readOnly = await t.key({ teamId: m.teamId, permissions: ['READ_PRODUCTS'] });
    expect((await list({}, readOnly.token)).statusCode).toBe(200);
    const before = await t.db.prisma.product.count();
    expect((await create({ name: 'Nope', type: 'STANDARD' }, readOnly.token)).statusCode).toBe(403);
    expect((await patch(p.id, { name: 'Nope' }, readOnly.token)).statusCode).toBe(403);
    expect(await t.db.prisma.product.count()).toBe(before);
  });

  it("answers 404 for another merchant's product and for the fulfiller's own", async () => {
    const theirs = await made({ name: 'Theirs', type: 'STANDARD' }, other.token);
    const fulfillers = (await t.call('POST', '/v1/ops/products', { token: ops, body: { name: 'Ops only', type: 'STANDARD' } })).json();
    for (const id of [theirs.id, fulfillers.id]) {
      expect((await get(id)).statusCode).toBe(404);
      const res = await patch(id, { name: 'Taken' });
      expect(res.statusCode).toBe(404);
      expect(res.json().type).toBe('urn:fos:error:not-found');
    }
    expect((await t.db.prisma.product.findUniqueOrThrow({ where: { id: theirs.id } })).name).toBe('Theirs');
    expectInvalid(await get('123'), 'params.product_id');
  });
});

describe('list', () => {
  let mine: string[];
  beforeAll(async () => {
    const fresh = await t.merchant();
    m = { teamId: fresh.teamId, token: (await t.key({ teamId: fresh.teamId, tier: 4 })).token };
    const rows = [
      { name: 'Alpha Shirt', sku: 'SH-A' },
      { name: 'Beta Shirt', sku: 'SH-B' },
      { name: 'Gamma Cap', sku: 'cap-g' },
    ];
    mine = [];
    for (const r of rows) mine.push((await made({ ...r, type: 'STANDARD' })).id);
    // A barcode (set on the ops side) is not searchable from the merchant side.
    await t.call('PATCH', `/v1/ops/products/${mine[2]}`, { token: ops, body: { barcode: 'SHIRT-LOOKALIKE' } });
    for (const [i, id] of mine.entries()) {
      await t.db.prisma.product.update({
        where: { id },
        data: { created_at: new Date(Date.UTC(2026, 0, 1 + i)), updated_at: new Date(Date.UTC(2026, 1, 10 - i)) },
      });
    }
    await made({ name: 'Alpha Shirt clone', type: 'STANDARD' }, other.token);
  });
  const names = async (query: Record<string, string | number> = {}) => {
    const res = await list(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.map((p: { name: string }) => p.name);
  };

  it("lists only the team's products, newest first, with 2.4 fields and 2.1 meta", async () => {
    const res = await list();
    expect(res.json().data.map((p: any) => p.name)).toEqual(['Gamma Cap', 'Beta Shirt', 'Alpha Shirt']);
    for (const p of res.json().data) expect(Object.keys(p).sort()).toEqual(FIELDS);
    expect(res.json().meta).toEqual({
      page: 0,
      page_size: 20,
      start_index: 1,
      end_index: 3,
      has_next_page: false,
      next_cursor: null,
      has_previous_page: false,
    });
  });

  it('searches name or SKU case-insensitively, not barcode', async () => {
    expect(await names({ search: 'SHIRT' })).toEqual(['Beta Shirt', 'Alpha Shirt']);
    expect(await names({ search: 'CAP-G' })).toEqual(['Gamma Cap']);
    expect(await names({ search: 'sh-b' })).toEqual(['Beta Shirt']);
    expect(await names({ search: 'lookalike' })).toEqual([]);
  });

  it('orders and pages', async () => {
    expect(await names({ order: 'asc' })).toEqual(['Alpha Shirt', 'Beta Shirt', 'Gamma Cap']);
    expect(await names({ order_by: 'updated_at' })).toEqual(['Alpha Shirt', 'Beta Shirt', 'Gamma Cap']);
    const page = (await list({ limit: 2, page: 1, order: 'asc' })).json();
    expect(page.data.map((p: any) => p.name)).toEqual(['Gamma Cap']);
    expect(page.meta).toEqual({
      page: 1,
      page_size: 2,
      start_index: 3,
      end_index: 3,
      has_next_page: false,
      next_cursor: null,
      has_previous_page: true,
    });
    expectInvalid(await list({ limit: 0 }), 'query.limit');
    expectInvalid(await list({ limit: 101 }), 'query.limit');
    expectInvalid(await list({ order_by: 'name' }), 'query.order_by');
    expectInvalid(await list({ type: 'STANDARD' }), 'query.type');
  });
});

describe('update', () => {
  it('patches partially and applies the component rule', async () => {
    const part1 = await made({ name: 'Part 1', type: 'STANDARD', sku: 'MP-1' });
    const part2 = await made({ name: 'Part 2', type: 'STANDARD', sku: 'MP-2' });
    const kit = await made({
      name: 'Kit',
      type: 'VIRTUAL_BUNDLE',
      description: 'Two parts',
      bundle_components: [{ component_product_sku: 'MP-1', component_quantity: 2 }],
    });
    const components = () => t.db.prisma.productComponent.findMany({ where: { parent_product_id: kit.id } });
    expect((await components()).map((c) => [c.component_product_id, c.component_quantity])).toEqual([[part1.id, 2]]);

    const renamed = await patch(kit.id, { name: 'Kit v2', weight: 12 });
    expect(renamed.statusCode).toBe(200);
    expect(Object.keys(renamed.json()).sort()).toEqual(FIELDS);
    expect(renamed.json()).toMatchObject({ name: 'Kit v2', weight: 12, description: 'Two parts' });
    expect(await components()).toHaveLength(1); // omitted: kept

    await patch(kit.id, { bundle_components: [{ component_product_id: part2.id, component_quantity: 3 }] });
    expect((await components()).map((c) => [c.component_product_id, c.component_quantity])).toEqual([[part2.id, 3]]); // replaced

    await patch(kit.id, { bundle_components: [] });
    expect(await components()).toHaveLength(0); // removed

    const foreign = await made({ name: 'Foreign part', type: 'STANDARD' }, other.token);
    const res = await patch(kit.id, { name: 'Kit v3', bundle_components: [{ component_product_id: foreign.id }] });
    expect(res.statusCode).toBe(404);
    expect((await get(kit.id)).json().name).toBe('Kit v2');
  });

  it('rejects ops-only and read-only fields', async () => {
    const p = await made({ name: 'Strict', type: 'STANDARD' });
    expectInvalid(await patch(p.id, { barcode: 'x' }), 'body.barcode');
    expectInvalid(await patch(p.id, { team_id: other.teamId }), 'body.team_id');
    expectInvalid(await patch(p.id, { name: null }), 'body.name');
  });
});
