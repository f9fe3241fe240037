import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';
import { createKey } from '../../src/domain/keys/keys.js';

// Ops products (spec 4.2, record 2.3): create, get, update, units, the component rule, field
// sets, permissions, reach and validation.

let t: TestApp;
let ops: string; // ADMIN key of the bootstrap (METRIC) fulfiller team, tier 4
let metric: { teamId: string; token: string };
let imperial: { teamId: string; token: string };

const BASE = [
  'id',
  'name',
  'sku',
  'description',
  'barcode',
  'mpn',
  'manufacturer',
  'image_url',
  'type',
  'team_id',
  'team_name',
  'fulfiller_team_id',
  'fulfiller_team_name',
  'merchant_team_id',
  'merchant_team_name',
  'length',
  'width',
  'height',
  'weight',
  'measurement_unit',
  'weight_unit',
  'cost_price',
  'cost_currency',
  'customs_value',
  'customs_value_currency',
  'customs_description',
  'country_of_origin',
  'hs_code',
  'printed_commodity_identifier',
  'eccn',
  'is_hazmat',
  'lot_tracked',
  'category',
  'subcategory',
  'pick_fee_override',
  'first_article_inspection_completed_at',
  'config',
  'increment_level',
  'maximum_level',
  'minimum_level',
  'available',
  'on_hand',
  'committed',
  'unavailable',
  'on_order',
  'inventory_by_warehouse',
  'virtual_bundle_component_count',
  'product_listing_variant_count',
  'created_at',
  'updated_at',
];
const CHILDREN = ['virtual_bundle_products', 'assembly_products', 'product_listing_variants'];
const ACTIONS = ['supported_actions'];
const keys = (o: object) => Object.keys(o).sort();
const sorted = (...lists: string[][]) => lists.flat().sort();

beforeAll(async () => {
  t = await testApp();
  ops = (await t.key({ tier: 4 })).token;
  metric = await t.merchant({ measurement_system: 'METRIC' });
  imperial = await t.merchant({ measurement_system: 'IMPERIAL' });
});
afterAll(() => t?.close());

const create = (body: object, token = ops) => t.call('POST', '/v1/ops/products', { token, body });
const patch = (id: string, body: object, token = ops) => t.call('PATCH', `/v1/ops/products/${id}`, { token, body });
const get = (id: string, token = ops) => t.call('GET', `/v1/ops/products/${id}`, { token });
const count = () => t.db.prisma.product.count();

async function made(body: object) {
  const res = await create(body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

function expectInvalid(res: { statusCode: number; json(): any }, path: string) {
  expect(res.statusCode).toBe(400);
  const body = res.json();
  expect(body.type).toBe('urn:fos:error:validation-failed');
  expect(body.errors.map((e: { path: string }) => e.path)).toContain(path);
}

describe('create', () => {
  it("needs only name and type; units default to the fulfiller team's METRIC system", async () => {
    const res = await create({ name: 'Blue Mug', type: 'STANDARD' });
    expect(res.statusCode).toBe(201);
    const p = res.json();
    expect(keys(p)).toEqual(sorted(BASE, CHILDREN));
    expect(p).toMatchObject({
      name: 'Blue Mug',
      type: 'STANDARD',
      measurement_unit: 'MM',
      weight_unit: 'G',
      team_id: t.teamId,
      fulfiller_team_id: t.teamId,
      merchant_team_id: null,
      merchant_team_name: null,
      is_hazmat: false,
      sku: null,
      available: 0,
      on_hand: 0,
      inventory_by_warehouse: [],
      virtual_bundle_component_count: 0,
      virtual_bundle_products: [],
      assembly_products: [],
      product_listing_variants: [],
      config: { replenishment_source_strategy: 'FIFO', replenishment_increment_level: null },
    });
    expect(p.team_name).toBe(p.fulfiller_team_name);
    expect(p.team_name).toEqual(expect.any(String));
    expect(p.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.created_at).toMatch(/Z$/);
    expect(p.product_listing_variant_count).toEqual({
      SHOPIFY: 0,
      AMAZON: 0,
      BIGCOMMERCE: 0,
      MANUAL: 0,
      WOOCOMMERCE: 0,
      EBAY: 0,
      ETSY: 0,
    });
  });

  it('lists records with the 2.3 fields minus the three child arrays', async () => {
    const res = await t.call('GET', '/v1/ops/products', { token: ops });
    expect(res.statusCode).toBe(200);
    expect(keys(res.json())).toEqual(['data', 'meta']);
    expect(res.json().data.length).toBeGreaterThan(0);
    for (const p of res.json().data) expect(keys(p)).toEqual(sorted(BASE, ACTIONS));
  });

  it("creates for a delegated merchant with the merchant team's units (METRIC and IMPERIAL)", async () => {
    const m = await made({ name: 'Metric thing', type: 'STANDARD', merchant_team_id: metric.teamId });
    expect(m).toMatchObject({
      team_id: metric.teamId,
      merchant_team_id: metric.teamId,
      fulfiller_team_id: t.teamId,
      measurement_unit: 'MM',
      weight_unit: 'G',
    });
    expect(m.merchant_team_name).toMatch(/^Merchant /);
    expect(m.team_name).toBe(m.merchant_team_name);
    const i = await made({ name: 'Imperial thing', type: 'STANDARD', merchant_team_id: imperial.teamId });
    expect(i).toMatchObject({ team_id: imperial.teamId, measurement_unit: 'IN', weight_unit: 'LB' });
  });

  it('lets explicit units override the team defaults', async () => {
    const p = await made({
      name: 'Override',
      type: 'STANDARD',
      merchant_team_id: imperial.teamId,
      measurement_unit: 'MM',
      weight_unit: 'G',
    });
    expect(p).toMatchObject({ measurement_unit: 'MM', weight_unit: 'G' });
    const q = await made({ name: 'Half override', type: 'STANDARD', merchant_team_id: imperial.teamId, weight_unit: 'G' });
    expect(q).toMatchObject({ measurement_unit: 'IN', weight_unit: 'G' });
  });

  it('uses IMPERIAL units for products of an IMPERIAL fulfiller team', async () => {
    const team = await teams.createTeam(t.db, { name: 'Imperial 3PL', kind: 'FULFILLER', measurement_system: 'IMPERIAL' });
    const key = await createKey(t.db, team.id, { name: 'k', power_role: 'ADMIN' }, null);
    const res = await create({ name: 'Crate', type: 'STANDARD' }, key.token);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ team_id: team.id, measurement_unit: 'IN', weight_unit: 'LB' });
  });

  it('answers 404 for a merchant team not delegated to the caller, writing nothing', async () => {
    const other = await teams.createTeam(t.db, { name: 'Stranger', kind: 'MERCHANT' });
    const before = await count();
    const res = await create({ name: 'X', type: 'STANDARD', merchant_team_id: other.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().type).toBe('urn:fos:error:not-found');
    expect(await count()).toBe(before);
  });

  it('stores every writable field and returns it', async () => {
    const body = {
      name: 'Full Product',
      type: 'STANDARD',
      sku: 'FULL-1',
      description: 'All fields',
      barcode: '0123456789012',
      mpn: 'MPN-1',
      manufacturer: 'Acme',
      image_url: 'https://img.example/full.png',
      length: 10.5,
      width: 20,
      height: 30,
      weight: 400.25,
      measurement_unit: 'IN',
      weight_unit: 'LB',
      cost_price: 3.5,
      cost_currency: 'USD',
      customs_value: 7.25,
      customs_value_currency: 'EUR',
      customs_description: 'Mug',
      country_of_origin: 'PT',
      hs_code: '6912.00',
      printed_commodity_identifier: 'PCI',
      eccn: 'EAR99',
      is_hazmat: true,
      category: 'Kitchen',
      subcategory: 'Mugs',
      pick_fee_override: 0.45,
      first_article_inspection_completed_at: '2026-01-02T03:04:05.000Z',
      config: {
        replenishment_source_strategy: 'FIFO',
        replenishment_increment_level: 6,
        replenishment_maximum_level: 60,
        replenishment_minimum_level: 12,
      },
      increment_level: 1,
      maximum_level: 100,
      minimum_level: 5,
    };
    const created = await made(body);
    const { config, ...flat } = body;
    expect(created).toMatchObject(flat);
    expect(created.config).toEqual(config);
    const fetched = (await get(created.id)).json();
    expect(fetched).toMatchObject(flat);
    expect(keys(fetched)).toEqual(sorted(BASE, CHILDREN, ACTIONS));
    expect(fetched.supported_actions).toEqual([{ action: 'VIEW_PRODUCT' }]);
    const row = await t.db.prisma.product.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.search_text).toBe('full product\nfull-1\n0123456789012');
  });

  it.each([
    ['an unknown field', { name: 'A', type: 'STANDARD', colour: 'red' }, 'body.colour'],
    ['a missing name', { type: 'STANDARD' }, 'body.name'],
    ['a missing type', { name: 'A' }, 'body.type'],
    ['an empty name', { name: '', type: 'STANDARD' }, 'body.name'],
    ['an unknown type', { name: 'A', type: 'GIFT_CARD' }, 'body.type'],
    ['a wrongly typed number', { name: 'A', type: 'STANDARD', length: '10' }, 'body.length'],
    ['a negative weight', { name: 'A', type: 'STANDARD', weight: -1 }, 'body.weight'],
    ['a wrongly typed boolean', { name: 'A', type: 'STANDARD', is_hazmat: 'yes' }, 'body.is_hazmat'],
    ['an unknown measurement_unit', { name: 'A', type: 'STANDARD', measurement_unit: 'CM' }, 'body.measurement_unit'],
    ['an unknown weight_unit', { name: 'A', type: 'STANDARD', weight_unit: 'KG' }, 'body.weight_unit'],
    [
      'an unknown replenishment strategy',
      { name: 'A', type: 'STANDARD', config: { replenishment_source_strategy: 'LIFO' } },
      'body.config.replenishment_source_strategy',
    ],
    ['an unknown config member', { name: 'A', type: 'STANDARD', config: { colour: 1 } }, 'body.config.colour'],
    [
      'a bad timestamp',
      { name: 'A', type: 'STANDARD', first_article_inspection_completed_at: 'yesterday' },
      'body.first_article_inspection_completed_at',
    ],
    ['a malformed merchant_team_id', { name: 'A', type: 'STANDARD', merchant_team_id: 'nope' }, 'body.merchant_team_id'],
    [
      'a component without product',
      { name: 'A', type: 'VIRTUAL_BUNDLE', bundle_components: [{ component_quantity: 1 }] },
      'body.bundle_components.0',
    ],
    [
      'a zero component quantity',
      { name: 'A', type: 'VIRTUAL_BUNDLE', bundle_components: [{ component_product_sku: 'X', component_quantity: 0 }] },
      'body.bundle_components.0.component_quantity',
    ],
  ])('rejects %s with validation-failed naming the field, writing nothing', async (_label, body, path) => {
    const before = await count();
    expectInvalid(await create(body), path);
    expect(await count()).toBe(before);
  });
});

describe('permissions and reach', () => {
  let product: { id: string };
  beforeAll(async () => {
    product = await made({ name: 'Guarded', type: 'STANDARD', sku: 'GUARD-1' });
  });

  it('needs READ_PRODUCTS to read: a MEMBER key with only WRITE_ORDERS gets 403', async () => {
    const { token } = await t.key({ permissions: ['WRITE_ORDERS'] });
    for (const url of ['/v1/ops/products', `/v1/ops/products/${product.id}`]) {
      const res = await t.call('GET', url, { token });
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('urn:fos:error:forbidden');
      expect(res.json().detail).toContain('READ_PRODUCTS');
    }
  });

  it('needs WRITE_PRODUCTS to write: a READ_PRODUCTS-only key reads but cannot create or update', async () => {
    const { token } = await t.key({ permissions: ['READ_PRODUCTS'] });
    expect((await t.call('GET', '/v1/ops/products', { token })).statusCode).toBe(200);
    expect((await get(product.id, token)).statusCode).toBe(200);
    const before = await count();
    const res = await create({ name: 'Sneaky', type: 'STANDARD' }, token);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toContain('WRITE_PRODUCTS');
    expect(await count()).toBe(before);
    expect(await t.db.prisma.product.count({ where: { name: 'Sneaky' } })).toBe(0);
    expect((await patch(product.id, { name: 'Renamed' }, token)).statusCode).toBe(403);
    expect((await t.db.prisma.product.findUniqueOrThrow({ where: { id: product.id } })).name).toBe('Guarded');
  });

  it('refuses merchant keys on /ops with 403', async () => {
    for (const [method, url, body] of [
      ['GET', '/v1/ops/products', undefined],
      ['GET', `/v1/ops/products/${product.id}`, undefined],
      ['POST', '/v1/ops/products', { name: 'M', type: 'STANDARD' }],
      ['PATCH', `/v1/ops/products/${product.id}`, { name: 'M' }],
    ] as const) {
      const res = await t.call(method, url, { token: metric.token, body });
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('urn:fos:error:forbidden');
    }
  });

  it("answers 404 for another fulfiller team's product, on read and update", async () => {
    const team = await teams.createTeam(t.db, { name: 'Other 3PL', kind: 'FULFILLER' });
    const key = await createKey(t.db, team.id, { name: 'k', power_role: 'ADMIN' }, null);
    const theirs = (await create({ name: 'Theirs', type: 'STANDARD' }, key.token)).json();
    expect((await get(theirs.id)).statusCode).toBe(404);
    const res = await patch(theirs.id, { name: 'Mine now' });
    expect(res.statusCode).toBe(404);
    expect(res.json().type).toBe('urn:fos:error:not-found');
    expect((await t.db.prisma.product.findUniqueOrThrow({ where: { id: theirs.id } })).name).toBe('Theirs');
    expect((await get(product.id, key.token)).statusCode).toBe(404);
  });

  it('reaches products a delegated merchant created, but not those of undelegated merchants', async () => {
    const mine = await t.call('POST', '/v1/merchant/products', { token: metric.token, body: { name: 'From merchant', type: 'STANDARD' } });
    expect(mine.statusCode).toBe(201);
    const seen = await get(mine.json().id);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ team_id: metric.teamId, merchant_team_id: metric.teamId, fulfiller_team_id: t.teamId });
    const lone = await teams.createTeam(t.db, { name: 'Lone merchant', kind: 'MERCHANT' });
    const loneKey = await createKey(t.db, lone.id, { name: 'k', power_role: 'ADMIN' }, null);
    const theirs = await t.call('POST', '/v1/merchant/products', { token: loneKey.token, body: { name: 'Lone', type: 'STANDARD' } });
    expect((await get(theirs.json().id)).statusCode).toBe(404);
  });

  it('validates product_id as a UUID (400) and answers 404 for an unknown one', async () => {
    expectInvalid(await get('not-a-uuid'), 'params.product_id');
    expectInvalid(await patch('not-a-uuid', { name: 'x' }), 'params.product_id');
    const res = await get('00000000-0000-7000-8000-000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toMatch(/Product 00000000-0000-7000-8000-000000000000 was not found/);
  });
});

describe('update', () => {
  it('changes only the fields sent, clears with null, merges config, keeps search in sync', async () => {
    const p = await made({
      name: 'Patchable',
      type: 'STANDARD',
      sku: 'PATCH-OLD',
      barcode: 'BC-1',
      mpn: 'M-1',
      config: { replenishment_minimum_level: 3 },
    });
    const res = await patch(p.id, { sku: 'Patch-New', mpn: null, config: { replenishment_maximum_level: 9 } });
    expect(res.statusCode).toBe(200);
    const u = res.json();
    expect(keys(u)).toEqual(sorted(BASE, CHILDREN));
    expect(u).toMatchObject({ name: 'Patchable', sku: 'Patch-New', barcode: 'BC-1', mpn: null, measurement_unit: 'MM' });
    expect(u.config).toEqual({
      replenishment_source_strategy: 'FIFO',
      replenishment_increment_level: null,
      replenishment_maximum_level: 9,
      replenishment_minimum_level: 3,
    });
    expect(new Date(u.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(p.updated_at).getTime());
    const row = await t.db.prisma.product.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.search_text).toBe('patchable\npatch-new\nbc-1');
    expect(row.name_sku_search_text).toBe('patchable\npatch-new');
    const reset = (await patch(p.id, { config: null })).json();
    expect(reset.config).toEqual({
      replenishment_source_strategy: 'FIFO',
      replenishment_increment_level: null,
      replenishment_maximum_level: null,
      replenishment_minimum_level: null,
    });
  });

  it('can change type and units, and records an inspection', async () => {
    const p = await made({ name: 'Morph', type: 'STANDARD' });
    const u = (
      await patch(p.id, {
        type: 'ASSEMBLY',
        measurement_unit: 'IN',
        weight_unit: 'LB',
        first_article_inspection_completed_at: '2026-03-01T00:00:00Z',
      })
    ).json();
    expect(u).toMatchObject({
      type: 'ASSEMBLY',
      measurement_unit: 'IN',
      weight_unit: 'LB',
      first_article_inspection_completed_at: '2026-03-01T00:00:00.000Z',
    });
  });

  it.each([
    ['a null name', { name: null }, 'body.name'],
    ['a null type', { type: null }, 'body.type'],
    ['an unknown unit', { measurement_unit: 'FT' }, 'body.measurement_unit'],
    ['merchant_team_id (create only)', { merchant_team_id: '00000000-0000-7000-8000-000000000000' }, 'body.merchant_team_id'],
    ['a read-only field', { on_hand: 5 }, 'body.on_hand'],
  ])('rejects %s', async (_label, body, path) => {
    const p = await made({ name: 'Strict', type: 'STANDARD' });
    expectInvalid(await patch(p.id, body), path);
    expect((await t.db.prisma.product.findUniqueOrThrow({ where: { id: p.id } })).name).toBe('Strict');
  });

  it('answers an empty body with the unchanged product', async () => {
    const p = await made({ name: 'Still', type: 'STANDARD' });
    const res = await patch(p.id, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Still', updated_at: p.updated_at });
  });
});
