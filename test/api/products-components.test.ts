import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';
import { createKey } from '../../src/domain/keys/keys.js';

// Ops product components (spec 4.2): bundle_components / assembly_components on create, the
// update rule (omitted keeps, [] removes all, an array replaces all), references and races.

let t: TestApp;
let ops: string;
let metric: { teamId: string; token: string };

const COMPONENT = [
  'id',
  'virtual_bundle_product_id',
  'component_product_id',
  'component_product_sku',
  'component_product_name',
  'component_product_image_url',
  'component_quantity',
  'created_at',
  'updated_at',
];
const keys = (o: object) => Object.keys(o).sort();

beforeAll(async () => {
  t = await testApp();
  ops = (await t.key({ tier: 4 })).token;
  metric = await t.merchant({ measurement_system: 'METRIC' });
});
afterAll(() => t?.close());

const create = (body: object, token = ops) => t.call('POST', '/v1/ops/products', { token, body });
const patch = (id: string, body: object, token = ops) => t.call('PATCH', `/v1/ops/products/${id}`, { token, body });
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

describe('components', () => {
  let a: any, b: any, c: any;
  beforeAll(async () => {
    a = await made({ name: 'Part A', type: 'STANDARD', sku: 'PART-A', image_url: 'https://img.example/a.png' });
    b = await made({ name: 'Part B', type: 'STANDARD', sku: 'PART-B' });
    c = await made({ name: 'Part C', type: 'STANDARD', sku: 'PART-C' });
  });
  const rows = (id: string, kind: 'VIRTUAL_BUNDLE' | 'ASSEMBLY') =>
    t.db.prisma.productComponent.findMany({ where: { parent_product_id: id, kind }, orderBy: { component_product_id: 'asc' } });

  it("creates with components by id or SKU and shows them with the spec's fields", async () => {
    const bundle = await made({
      name: 'Gift set',
      type: 'VIRTUAL_BUNDLE',
      bundle_components: [{ component_product_id: a.id, component_quantity: 2 }, { component_product_sku: 'PART-B' }],
      assembly_components: [{ component_product_sku: 'PART-C', component_quantity: 0.5 }],
    });
    expect(bundle.virtual_bundle_component_count).toBe(2);
    expect(bundle.virtual_bundle_products).toHaveLength(2);
    expect(keys(bundle.virtual_bundle_products[0])).toEqual([...COMPONENT].sort());
    const byComponent = Object.fromEntries(bundle.virtual_bundle_products.map((x: any) => [x.component_product_id, x]));
    expect(byComponent[a.id]).toMatchObject({
      virtual_bundle_product_id: bundle.id,
      component_product_sku: 'PART-A',
      component_product_name: 'Part A',
      component_product_image_url: 'https://img.example/a.png',
      component_quantity: 2,
    });
    expect(byComponent[b.id]).toMatchObject({ component_quantity: 1, component_product_image_url: null });
    expect(bundle.assembly_products).toHaveLength(1);
    expect(keys(bundle.assembly_products[0])).toEqual(
      COMPONENT.map((k) => (k === 'virtual_bundle_product_id' ? 'assembly_product_id' : k)).sort(),
    );
    expect(bundle.assembly_products[0]).toMatchObject({
      assembly_product_id: bundle.id,
      component_product_id: c.id,
      component_quantity: 0.5,
    });
    const listed = (await t.call('GET', '/v1/ops/products', { token: ops, query: { search: 'gift set' } })).json().data[0];
    expect(listed.virtual_bundle_component_count).toBe(2);
  });

  it('applies the update rule: omitted keeps, an array replaces, [] removes all', async () => {
    const bundle = await made({
      name: 'Rule bundle',
      type: 'VIRTUAL_BUNDLE',
      bundle_components: [
        { component_product_id: a.id, component_quantity: 1 },
        { component_product_id: b.id, component_quantity: 1 },
      ],
      assembly_components: [{ component_product_id: c.id, component_quantity: 3 }],
    });
    const original = await rows(bundle.id, 'VIRTUAL_BUNDLE');

    // omitted: both lists kept, row ids unchanged
    const kept = (await patch(bundle.id, { name: 'Rule bundle 2' })).json();
    expect(kept.virtual_bundle_products).toHaveLength(2);
    expect(kept.assembly_products).toHaveLength(1);
    expect((await rows(bundle.id, 'VIRTUAL_BUNDLE')).map((r) => r.id)).toEqual(original.map((r) => r.id));

    // array: replaces the whole bundle list (A kept with new quantity, B dropped, C added); assembly untouched
    const replaced = await patch(bundle.id, {
      bundle_components: [
        { component_product_id: a.id, component_quantity: 5 },
        { component_product_sku: 'PART-C', component_quantity: 2 },
      ],
    });
    expect(replaced.statusCode).toBe(200);
    const now = await rows(bundle.id, 'VIRTUAL_BUNDLE');
    expect(now.map((r) => [r.component_product_id, r.component_quantity]).sort()).toEqual(
      [
        [a.id, 5],
        [c.id, 2],
      ].sort(),
    );
    expect(now.find((r) => r.component_product_id === a.id)!.id).toBe(original.find((r) => r.component_product_id === a.id)!.id);
    expect(replaced.json().virtual_bundle_component_count).toBe(2);
    expect(await rows(bundle.id, 'ASSEMBLY')).toHaveLength(1);

    // []: removes all of that list only
    const emptied = (await patch(bundle.id, { bundle_components: [] })).json();
    expect(emptied.virtual_bundle_products).toEqual([]);
    expect(emptied.virtual_bundle_component_count).toBe(0);
    expect(await rows(bundle.id, 'VIRTUAL_BUNDLE')).toHaveLength(0);
    expect(emptied.assembly_products).toHaveLength(1);
    expect((await patch(bundle.id, { assembly_components: [] })).json().assembly_products).toEqual([]);
    expect(await t.db.prisma.productComponent.count({ where: { parent_product_id: bundle.id } })).toBe(0);
  });

  it('rejects self, repeated, cyclic and unknown-SKU components, rolling back the whole update', async () => {
    const outer = await made({ name: 'Outer', type: 'VIRTUAL_BUNDLE', bundle_components: [{ component_product_id: a.id }] });
    const inner = await made({ name: 'Inner', type: 'VIRTUAL_BUNDLE', bundle_components: [{ component_product_id: outer.id }] });
    const cases: [object, string][] = [
      [{ bundle_components: [{ component_product_id: outer.id }] }, 'body.bundle_components.0'],
      [{ bundle_components: [{ component_product_id: b.id }, { component_product_sku: 'PART-B' }] }, 'body.bundle_components.1'],
      [{ bundle_components: [{ component_product_id: inner.id }] }, 'body.bundle_components'],
      [{ bundle_components: [{ component_product_sku: 'NO-SUCH-SKU' }] }, 'body.bundle_components.0.component_product_sku'],
      [
        { bundle_components: [{ component_product_id: a.id, component_product_sku: 'PART-B' }] },
        'body.bundle_components.0.component_product_sku',
      ],
    ];
    for (const [body, path] of cases) expectInvalid(await patch(outer.id, { name: 'Changed', ...body }), path);
    const row = await t.db.prisma.product.findUniqueOrThrow({ where: { id: outer.id } });
    expect(row.name).toBe('Outer');
    expect((await rows(outer.id, 'VIRTUAL_BUNDLE')).map((r) => r.component_product_id)).toEqual([a.id]);
  });

  it('answers 404 for components outside reach and 400 for another team in reach', async () => {
    const team = await teams.createTeam(t.db, { name: 'Far 3PL', kind: 'FULFILLER' });
    const key = await createKey(t.db, team.id, { name: 'k', power_role: 'ADMIN' }, null);
    const far = (await create({ name: 'Far', type: 'STANDARD' }, key.token)).json();
    const before = await count();
    const res = await create({ name: 'Bad bundle', type: 'VIRTUAL_BUNDLE', bundle_components: [{ component_product_id: far.id }] });
    expect(res.statusCode).toBe(404);
    expect(await count()).toBe(before);
    const merchantProduct = await made({ name: 'Merchant part', type: 'STANDARD', merchant_team_id: metric.teamId });
    expectInvalid(
      await create({
        name: 'Mixed bundle',
        type: 'VIRTUAL_BUNDLE',
        bundle_components: [{ component_product_id: merchantProduct.id }],
      }),
      'body.bundle_components.0.component_product_id',
    );
    const ok = await create({
      name: 'Merchant bundle',
      type: 'VIRTUAL_BUNDLE',
      merchant_team_id: metric.teamId,
      bundle_components: [{ component_product_id: merchantProduct.id, component_quantity: 4 }],
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().virtual_bundle_products[0]).toMatchObject({ component_product_id: merchantProduct.id, component_quantity: 4 });
  });
});

describe('races', () => {
  it('serializes parallel component replacements: the list ends as exactly one request sent it', async () => {
    const parts = [];
    for (let i = 0; i < 4; i++) parts.push(await made({ name: `Race part ${i}`, type: 'STANDARD' }));
    const bundle = await made({ name: 'Race bundle', type: 'VIRTUAL_BUNDLE' });
    const lists = parts.map((_, i) => [
      { component_product_id: parts[i].id, component_quantity: i + 1 },
      { component_product_id: parts[(i + 1) % 4].id, component_quantity: 10 + i },
    ]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const results = await Promise.all(
      [...lists, ...lists].map((list) =>
        fetch(`http://127.0.0.1:${port}/v1/ops/products/${bundle.id}`, {
          method: 'PATCH',
          headers: { 'x-access-token': ops, 'content-type': 'application/json' },
          body: JSON.stringify({ bundle_components: list }),
        }),
      ),
    );
    // The first write locks the product row, so the replacements queue up instead of failing.
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const rows = await t.db.prisma.productComponent.findMany({ where: { parent_product_id: bundle.id, kind: 'VIRTUAL_BUNDLE' } });
    const final = rows.map((r) => `${r.component_product_id}:${r.component_quantity}`).sort();
    const candidates = lists.map((l) => l.map((c) => `${c.component_product_id}:${c.component_quantity}`).sort());
    expect(candidates).toContainEqual(final);
  });
});
