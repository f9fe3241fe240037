import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';
import { createKey } from '../../src/domain/keys/keys.js';
import { buildApp } from '../../src/server/app.js';
import type { Db } from '../../src/db/types.js';

// GET /v1/ops/products query parameters (spec 4.2), inventory and listing-variant counts.
// Stock levels, shops and variants have no API here, so they are seeded through db.prisma.

let t: TestApp;
let ops: string;
let merchant: { teamId: string; token: string };
let otherTeamId: string;
const wh: Record<'alpha' | 'bravo' | 'foreign', string> = {} as never;
const P: Record<'red' | 'blue' | 'green' | 'yellow' | 'foreign', any> = {} as never;

async function made(body: object, token = ops) {
  const res = await t.call('POST', '/v1/ops/products', { token, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

beforeAll(async () => {
  t = await testApp();
  ops = (await t.key({ tier: 4 })).token;
  merchant = await t.merchant();
  const other = await teams.createTeam(t.db, { name: 'Other 3PL', kind: 'FULFILLER' });
  otherTeamId = other.id;
  const otherKey = await createKey(t.db, other.id, { name: 'k', power_role: 'ADMIN' }, null);

  wh.bravo = (await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Bravo DC' })).id;
  wh.alpha = (await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Alpha DC' })).id;
  wh.foreign = (await teams.createWarehouse(t.db, { team_id: other.id, name: 'Foreign DC' })).id;

  P.red = await made({
    name: 'Red Widget',
    type: 'STANDARD',
    sku: 'RW-100',
    barcode: 'BAR-RED',
    image_url: 'https://img.example/red.png',
    first_article_inspection_completed_at: '2026-01-05T00:00:00Z',
  });
  P.blue = await made({
    name: 'Blue Gadget',
    type: 'VIRTUAL_BUNDLE',
    sku: 'BG-200',
    bundle_components: [{ component_product_id: P.red.id }],
  });
  P.green = await made({ name: 'Green Gizmo', type: 'ASSEMBLY', sku: 'gg-300', barcode: '', merchant_team_id: merchant.teamId });
  P.yellow = await made({ name: 'Yellow 50% Off', type: 'STANDARD', sku: 'YL_1', image_url: '' });
  P.foreign = await made({ name: 'Red Foreign', type: 'STANDARD', sku: 'RW-999' }, otherKey.token);

  // Deterministic order: created red < blue < green < yellow; updated yellow < green < blue < red.
  const day = (d: number) => new Date(Date.UTC(2026, 0, d));
  for (const [i, key] of (['red', 'blue', 'green', 'yellow'] as const).entries()) {
    await t.db.prisma.product.update({ where: { id: P[key].id }, data: { created_at: day(1 + i), updated_at: day(20 - i) } });
  }

  const level = (product: string, warehouse: string, q: Partial<Record<'on_hand' | 'committed' | 'unavailable' | 'on_order', number>>) =>
    t.db.prisma.inventoryLevel.create({ data: { product_id: product, warehouse_id: warehouse, ...q } });
  await level(P.red.id, wh.alpha, { on_hand: 10, committed: 3, unavailable: 1, on_order: 5 });
  await level(P.red.id, wh.bravo, { on_hand: 4 });
  await level(P.blue.id, wh.bravo, { on_hand: 7, committed: 7 });
  await level(P.green.id, wh.alpha, {});
  await level(P.foreign.id, wh.foreign, { on_hand: 99 });

  const shopify = await t.db.prisma.shop.create({
    data: { merchant_team_id: merchant.teamId, name: 'My Shopify', slug: 'my-shopify', shop_type: 'SHOPIFY' },
  });
  const amazon = await t.db.prisma.shop.create({
    data: { merchant_team_id: merchant.teamId, name: 'My Amazon', slug: 'my-amazon', shop_type: 'AMAZON' },
  });
  await t.db.prisma.productListingVariant.createMany({
    data: [
      {
        product_id: P.red.id,
        shop_id: shopify.id,
        remote_id: 'gid-1',
        remote_inventory_item_id: 'inv-1',
        sku: 'RW-100',
        price: 9.5,
        currency: 'USD',
      },
      { product_id: P.red.id, shop_id: shopify.id, remote_id: 'gid-2' },
      { product_id: P.red.id, shop_id: amazon.id, remote_id: 'ASIN1' },
      { product_id: P.red.id, shop_id: null, name: 'Manual listing' },
      { product_id: P.green.id, shop_id: amazon.id, remote_id: 'ASIN2' },
    ],
  });
});
afterAll(() => t?.close());

const list = (query: Record<string, string | number | boolean> = {}) => t.call('GET', '/v1/ops/products', { token: ops, query });
async function names(query: Record<string, string | number | boolean> = {}) {
  const res = await list(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.map((p: { name: string }) => p.name);
}
function expectInvalid(res: { statusCode: number; json(): any }, path: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().type).toBe('urn:fos:error:validation-failed');
  expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(path);
}

describe('paging and order', () => {
  it("lists the team's and delegated merchants' products, newest first, with 2.1 meta", async () => {
    const res = await list();
    expect(res.json().data.map((p: any) => p.name)).toEqual(['Yellow 50% Off', 'Green Gizmo', 'Blue Gadget', 'Red Widget']);
    expect(res.json().meta).toEqual({
      page: 0,
      page_size: 20,
      start_index: 1,
      end_index: 4,
      has_next_page: false,
      next_cursor: null,
      has_previous_page: false,
    });
  });

  it('orders by created_at or updated_at, asc or desc', async () => {
    expect(await names({ order: 'asc' })).toEqual(['Red Widget', 'Blue Gadget', 'Green Gizmo', 'Yellow 50% Off']);
    expect(await names({ order_by: 'updated_at' })).toEqual(['Red Widget', 'Blue Gadget', 'Green Gizmo', 'Yellow 50% Off']);
    expect(await names({ order_by: 'updated_at', order: 'asc' })).toEqual(['Yellow 50% Off', 'Green Gizmo', 'Blue Gadget', 'Red Widget']);
    expectInvalid(await list({ order_by: 'name' }), 'query.order_by');
    expectInvalid(await list({ order: 'up' }), 'query.order');
  });

  it('pages 0-based with exact meta', async () => {
    const p0 = (await list({ limit: 3, order: 'asc' })).json();
    expect(p0.data.map((p: any) => p.name)).toEqual(['Red Widget', 'Blue Gadget', 'Green Gizmo']);
    expect(p0.meta).toEqual({
      page: 0,
      page_size: 3,
      start_index: 1,
      end_index: 3,
      has_next_page: true,
      next_cursor: expect.any(String),
      has_previous_page: false,
    });
    const p1 = (await list({ limit: 3, page: 1, order: 'asc' })).json();
    expect(p1.data.map((p: any) => p.name)).toEqual(['Yellow 50% Off']);
    expect(p1.meta).toEqual({
      page: 1,
      page_size: 3,
      start_index: 4,
      end_index: 4,
      has_next_page: false,
      next_cursor: null,
      has_previous_page: true,
    });
    const p2 = (await list({ limit: 3, page: 2 })).json();
    expect(p2).toEqual({
      data: [],
      meta: { page: 2, page_size: 3, start_index: 0, end_index: 0, has_next_page: false, next_cursor: null, has_previous_page: true },
    });
    expect((await list({ limit: 100 })).statusCode).toBe(200);
    expect((await list({ limit: 1 })).json().data).toHaveLength(1);
  });

  it.each([
    [{ limit: 0 }, 'query.limit'],
    [{ limit: 101 }, 'query.limit'],
    [{ limit: 1.5 }, 'query.limit'],
    [{ limit: 'ten' }, 'query.limit'],
    [{ page: -1 }, 'query.page'],
    [{ colour: 'red' }, 'query.colour'],
  ])('rejects %o instead of clamping', async (query, path) => {
    expectInvalid(await list(query), path);
  });
});

describe('filters', () => {
  it.each([
    ['red', ['Red Widget']],
    ['RW-1', ['Red Widget']],
    ['bar-RED', ['Red Widget']],
    ['GG-300', ['Green Gizmo']],
    ['gadget', ['Blue Gadget']],
    ['50%', ['Yellow 50% Off']],
    ['yl_', ['Yellow 50% Off']],
    ['%', ['Yellow 50% Off']],
    ['_', ['Yellow 50% Off']],
    ['\\', []],
    ['\\%', []],
    ['zzz', []],
    ['  ', ['Yellow 50% Off', 'Green Gizmo', 'Blue Gadget', 'Red Widget']],
  ])('search %j matches name, SKU or barcode case-insensitively', async (search, expected) => {
    expect(await names({ search })).toEqual(expected);
  });

  it('keeps search in sync with updates', async () => {
    const p = await made({ name: 'Temp Item', type: 'STANDARD', sku: 'OLD-SKU' });
    expect(await t.call('PATCH', `/v1/ops/products/${p.id}`, { token: ops, body: { sku: 'NEW-SKU', barcode: 'Zebra-1' } })).toHaveProperty(
      'statusCode',
      200,
    );
    expect(await names({ search: 'old-sku' })).toEqual([]);
    expect(await names({ search: 'new-sku' })).toEqual(['Temp Item']);
    expect(await names({ search: 'ZEBRA' })).toEqual(['Temp Item']);
    await t.db.prisma.product.delete({ where: { id: p.id } });
  });

  it('filters by comma-separated types and rejects unknown ones', async () => {
    expect(await names({ type: 'VIRTUAL_BUNDLE' })).toEqual(['Blue Gadget']);
    expect(await names({ type: 'STANDARD,ASSEMBLY' })).toEqual(['Yellow 50% Off', 'Green Gizmo', 'Red Widget']);
    expect(await names({ type: 'STANDARD, ASSEMBLY,' })).toEqual(['Yellow 50% Off', 'Green Gizmo', 'Red Widget']);
    expectInvalid(await list({ type: 'STANDARD,BOGUS' }), 'query.type');
    expectInvalid(await list({ type: 'standard' }), 'query.type');
  });

  it('filters by owning team within reach', async () => {
    expect(await names({ team_id: merchant.teamId })).toEqual(['Green Gizmo']);
    expect(await names({ team_id: t.teamId })).toEqual(['Yellow 50% Off', 'Blue Gadget', 'Red Widget']);
    expect(await names({ team_id: otherTeamId })).toEqual([]);
  });

  it('filters by image, barcode, remote products and inspection (blank strings count as absent)', async () => {
    expect(await names({ has_image: true })).toEqual(['Red Widget']);
    expect(await names({ has_image: false })).toEqual(['Yellow 50% Off', 'Green Gizmo', 'Blue Gadget']);
    expect(await names({ has_barcode: true })).toEqual(['Red Widget']);
    expect(await names({ has_barcode: false })).toEqual(['Yellow 50% Off', 'Green Gizmo', 'Blue Gadget']);
    expect(await names({ has_remote_products: true })).toEqual(['Green Gizmo', 'Red Widget']);
    expect(await names({ has_remote_products: false })).toEqual(['Yellow 50% Off', 'Blue Gadget']);
    expect(await names({ was_inspected: true })).toEqual(['Red Widget']);
    expect(await names({ was_inspected: false })).toEqual(['Yellow 50% Off', 'Green Gizmo', 'Blue Gadget']);
    expectInvalid(await list({ has_image: 'maybe' }), 'query.has_image');
  });

  it('combines filters', async () => {
    expect(await names({ type: 'STANDARD', has_image: false })).toEqual(['Yellow 50% Off']);
    expect(await names({ search: 'g', type: 'ASSEMBLY,VIRTUAL_BUNDLE', order: 'asc' })).toEqual(['Blue Gadget', 'Green Gizmo']);
    expect(await names({ warehouse_id: wh.bravo, has_remote_products: false })).toEqual(['Blue Gadget']);
    expect(await names({ team_id: t.teamId, was_inspected: false, has_barcode: false })).toEqual(['Yellow 50% Off', 'Blue Gadget']);
    expect(await names({ search: 'red', has_remote_products: true, limit: 1 })).toEqual(['Red Widget']);
  });

  it('filters by warehouses and restricts inventory and totals to them', async () => {
    const alpha = (await list({ warehouse_id: wh.alpha })).json().data;
    expect(alpha.map((p: any) => p.name)).toEqual(['Green Gizmo', 'Red Widget']);
    const red = alpha.find((p: any) => p.name === 'Red Widget');
    expect(red.inventory_by_warehouse.map((w: any) => w.warehouse_id)).toEqual([wh.alpha]);
    expect(red).toMatchObject({ on_hand: 10, committed: 3, unavailable: 1, on_order: 5, available: 6 });

    const both = (await list({ warehouse_id: `${wh.alpha},${wh.bravo}` })).json().data;
    expect(both.map((p: any) => p.name)).toEqual(['Green Gizmo', 'Blue Gadget', 'Red Widget']);
    expect(both.find((p: any) => p.name === 'Red Widget')).toMatchObject({ on_hand: 14, available: 10 });

    expect(await names({ warehouse_id: wh.foreign })).toEqual([]);
    expect(await names({ warehouse_id: 'no-such-warehouse' })).toEqual([]);
  });
});

describe('inventory and listings', () => {
  it('shows stock per warehouse (by name) with operations adding up, and totals', async () => {
    const red = (await list({ search: 'red widget' })).json().data[0];
    expect(red).toMatchObject({ on_hand: 14, committed: 3, unavailable: 1, on_order: 5, available: 10 });
    const stored = (count: number) => ({ count, operations: [{ count, label: 'stock_level' }] });
    expect(red.inventory_by_warehouse).toEqual([
      {
        warehouse_id: wh.alpha,
        warehouse_name: 'Alpha DC',
        on_order: stored(5),
        unavailable: stored(1),
        committed: { count: 3, operations: [{ count: 3, label: 'open_orders' }] }, // levels written without movements: the rest is stock_level
        on_hand: stored(10),
        available: {
          count: 6,
          operations: [
            { count: 10, label: 'on_hand' },
            { count: -3, label: 'committed' },
            { count: -1, label: 'unavailable' },
          ],
        },
      },
      {
        warehouse_id: wh.bravo,
        warehouse_name: 'Bravo DC',
        on_order: stored(0),
        unavailable: stored(0),
        committed: stored(0),
        on_hand: stored(4),
        available: {
          count: 4,
          operations: [
            { count: 4, label: 'on_hand' },
            { count: 0, label: 'committed' },
            { count: 0, label: 'unavailable' },
          ],
        },
      },
    ]);
    const all = (await list()).json().data;
    for (const p of all) {
      for (const w of p.inventory_by_warehouse) {
        for (const k of ['on_order', 'unavailable', 'committed', 'on_hand', 'available']) {
          expect(w[k].operations.reduce((s: number, o: any) => s + o.count, 0)).toBe(w[k].count);
        }
      }
    }
    const blue = all.find((p: any) => p.name === 'Blue Gadget');
    expect(blue).toMatchObject({ on_hand: 7, committed: 7, available: 0 });
    const yellow = all.find((p: any) => p.name.startsWith('Yellow'));
    expect(yellow).toMatchObject({ on_hand: 0, available: 0, inventory_by_warehouse: [] });
  });

  it('counts listing variants per platform (no shop = MANUAL)', async () => {
    const all = (await list()).json().data;
    const byName = Object.fromEntries(all.map((p: any) => [p.name, p.product_listing_variant_count]));
    expect(byName['Red Widget']).toEqual({ SHOPIFY: 2, AMAZON: 1, BIGCOMMERCE: 0, MANUAL: 1, WOOCOMMERCE: 0, EBAY: 0, ETSY: 0 });
    expect(byName['Green Gizmo']).toEqual({ SHOPIFY: 0, AMAZON: 1, BIGCOMMERCE: 0, MANUAL: 0, WOOCOMMERCE: 0, EBAY: 0, ETSY: 0 });
    expect(all.find((p: any) => p.name === 'Blue Gadget').virtual_bundle_component_count).toBe(1);
  });

  it('shows the listing variants on get-one with shop and team fields', async () => {
    const res = await t.call('GET', `/v1/ops/products/${P.red.id}`, { token: ops });
    const variants = res.json().product_listing_variants;
    expect(variants).toHaveLength(4);
    const first = variants.find((v: any) => v.remote_id === 'gid-1');
    expect(Object.keys(first).sort()).toEqual(
      [
        'id',
        'product_id',
        'product_type',
        'product_listing_id',
        'product_listing_name',
        'shop_id',
        'shop_name',
        'shop_slug',
        'shop_type',
        'remote_id',
        'remote_shopify_inventory_item_id',
        'sku',
        'barcode',
        'name',
        'image_url',
        'price',
        'currency',
        'hs_code',
        'country_of_origin',
        'weight',
        'weight_unit',
        'synced_at',
        'created_at',
        'updated_at',
        'team_id',
        'team_name',
        'fulfiller_team_id',
        'fulfiller_team_name',
        'merchant_team_id',
        'merchant_team_name',
      ].sort(),
    );
    expect(first).toMatchObject({
      product_id: P.red.id,
      product_type: 'STANDARD',
      shop_name: 'My Shopify',
      shop_slug: 'my-shopify',
      shop_type: 'SHOPIFY',
      remote_shopify_inventory_item_id: 'inv-1',
      price: 9.5,
      currency: 'USD',
      team_id: t.teamId,
      fulfiller_team_id: t.teamId,
    });
    expect(variants.find((v: any) => v.name === 'Manual listing')).toMatchObject({ shop_id: null, shop_name: null, shop_type: 'MANUAL' });
    expect(res.json().inventory_by_warehouse).toHaveLength(2);
  });

  it('loads a page in a constant number of queries (no N+1)', async () => {
    let calls = 0;
    const counting = new Proxy(t.db.prisma, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        // Raw statements count too: the list's page is one (src/domain/products/store/list.ts).
        if (typeof prop === 'string' && /^\$(query|execute)Raw/.test(prop) && typeof value === 'function') {
          return (...args: unknown[]) => {
            calls++;
            return value.apply(target, args);
          };
        }
        if (typeof prop !== 'string' || prop.startsWith('$') || prop === 'apiKey' || !value || typeof value !== 'object') {
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return new Proxy(value, {
          get(model, op) {
            const fn = Reflect.get(model, op);
            return typeof fn === 'function'
              ? (...args: unknown[]) => {
                  calls++;
                  return fn.apply(model, args);
                }
              : fn;
          },
        });
      },
    });
    const app = await buildApp({ db: { ...t.db, prisma: counting } as Db, config: { logger: false } });
    const run = async (limit: number, filter = '') => {
      calls = 0;
      const res = await app.inject({ method: 'GET', url: `/v1/ops/products?limit=${limit}${filter}`, headers: { 'x-access-token': ops } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toHaveLength(limit);
      return calls;
    };
    await run(2); // warms the key cache
    const two = await run(2);
    const four = await run(4);
    // One query more at most: the ledger breakdown runs only when a level on the page has units
    // set aside or on order (the 4-product page has; the 2-product page may not). Never per product.
    expect(four - two).toBeGreaterThanOrEqual(0);
    expect(four - two).toBeLessThanOrEqual(1);
    // The reach, the walk of each reachable team (here 2), the page's rows and everything their
    // records show are one statement (products/store/list.ts); the ledger breakdown is the second.
    expect(four).toBeLessThanOrEqual(2);
    // A filtered list picks its page through Prisma (the reach, one walk of sort keys per team on
    // SQLite, one query on PostgreSQL), then presents it in that one statement.
    const filtered = [await run(2, '&has_image=false'), await run(3, '&has_image=false')];
    expect(filtered[1] - filtered[0]).toBeLessThanOrEqual(1);
    expect(filtered[1]).toBeLessThanOrEqual(t.db.provider === 'sqlite' ? 5 : 4);
    await app.close();
  });
});
