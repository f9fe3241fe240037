import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import * as teams from '../../src/domain/teams/teams.js';
import { listOpsProducts } from '../../src/domain/products/products.js';
import { LIST_ROW, presentOps } from '../../src/domain/products/present.js';
import { visibleWarehouses } from '../../src/domain/products/inventory.js';
import { PLATFORMS, searchColumns } from '../../src/domain/products/fields.js';

// The ops list's records come from one SQL statement (src/domain/products/store/list.ts), which
// describes a product's columns a second time, beside the Prisma model that presentOps (detail
// views) reads. Both must give the same records: every column, nulls, floats that SQLite's JSON
// would round, unicode, every enum, team names of delegated merchants, bundle counts, variants per
// platform, stock levels with their ledger explanations. Runs on SQLite and PostgreSQL.

let t: TestApp;
let caller: { teamId: string; teamKind: 'FULFILLER' };
let merchantId: string;
let warehouses: string[];

const AWKWARD = [0.1 + 0.2, 1 / 3, 1e21, 1e-7, 2 ** 53 + 2, 123456789.123456789, -42.5, 0];

beforeAll(async () => {
  t = await testApp();
  caller = { teamId: t.teamId, teamKind: 'FULFILLER' };
  merchantId = (await t.merchant()).teamId;
  await t.merchant(); // a second delegated merchant without products
  const stranger = await teams.createTeam(t.db, { name: 'Elsewhere', kind: 'FULFILLER' });
  await t.db.prisma.team.update({ where: { id: merchantId }, data: { name: 'Märchant «日本» \u2028 "quoted"' } });
  warehouses = [
    (await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Zulu DC' })).id,
    (await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Alpha DC' })).id,
    (await teams.createWarehouse(t.db, { team_id: t.teamId, name: 'Alpha DC' })).id, // same name: id breaks the tie
  ];
  const foreignWarehouse = (await teams.createWarehouse(t.db, { team_id: stranger.id, name: 'Foreign' })).id;
  const shops = await Promise.all(
    PLATFORMS.map((shop_type, i) =>
      t.db.prisma.shop.create({
        data: { merchant_team_id: merchantId, name: `Shop ${i}`, slug: `shop-${i}`, shop_type },
      }),
    ),
  );

  const types = ['STANDARD', 'VIRTUAL_BUNDLE', 'ASSEMBLY'] as const;
  const ids: string[] = [];
  for (let i = 0; i < 14; i++) {
    const own = i % 3 === 0;
    const float = (k: number) => (i % 4 === 3 ? null : AWKWARD[(i + k) % AWKWARD.length]);
    const name = i === 2 ? 'Ünïcödé 商品 🚚 "q" \\ \n tab\t' : `Parity ${i}`;
    const sku = i % 5 === 4 ? null : `PAR-${i}`;
    const barcode = i % 3 ? `0${i}` : '';
    const product = await t.db.prisma.product.create({
      data: {
        ...searchColumns({ name, sku, barcode }),
        name,
        sku,
        barcode,
        team_id: own ? t.teamId : merchantId,
        merchant_team_id: own ? null : merchantId,
        fulfiller_team_id: i === 5 ? null : t.teamId,
        description: i % 2 ? `desc ${i} — ✓` : null,
        mpn: i === 1 ? 'MPN' : null,
        manufacturer: i === 1 ? 'Acme' : null,
        image_url: i === 1 ? 'https://img.example/a.png' : null,
        type: types[i % 3],
        length: float(0),
        width: float(1),
        height: float(2),
        weight: float(3),
        measurement_unit: i % 2 ? 'IN' : 'MM',
        weight_unit: i % 2 ? 'LB' : 'G',
        cost_price: float(4),
        cost_currency: i % 2 ? 'USD' : null,
        customs_value: float(5),
        customs_value_currency: i % 2 ? 'EUR' : null,
        customs_description: i === 1 ? 'Widgets' : null,
        country_of_origin: i === 1 ? 'DE' : null,
        hs_code: i === 1 ? '8471.30' : null,
        printed_commodity_identifier: i === 1 ? 'PCI' : null,
        eccn: i === 1 ? 'EAR99' : null,
        is_hazmat: i % 2 === 1,
        category: i === 1 ? 'Cat' : null,
        subcategory: i === 1 ? 'Sub' : null,
        pick_fee_override: float(6),
        first_article_inspection_completed_at: i % 3 === 1 ? new Date(Date.UTC(2026, 1, i, 3, 4, 5, 678)) : null,
        config:
          i % 4 === 0
            ? { replenishment_source_strategy: 'VENDOR', replenishment_minimum_level: 0.1 + 0.2, extra: 'ignored' }
            : i % 4 === 1
              ? undefined
              : {},
        increment_level: float(7),
        maximum_level: float(8),
        minimum_level: float(9),
        created_at: new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 2), 0, 0, 0, i * 7)), // pairs share a timestamp
        updated_at: new Date(Date.UTC(2026, 5, 30 - (i % 4), 12, 0, 0, 1)),
      },
    });
    ids.push(product.id);
    if (i % 7 !== 6)
      await t.db.prisma.inventoryLevel.create({
        data: {
          product_id: product.id,
          warehouse_id: warehouses[i % 3],
          on_hand: 100 + i,
          committed: i % 3,
          unavailable: i % 4 === 0 ? 5 : 0,
          on_order: i % 5 === 0 ? 7 : 0,
        },
      });
    if (i % 2 === 0)
      await t.db.prisma.inventoryLevel.create({ data: { product_id: product.id, warehouse_id: warehouses[(i + 1) % 3], on_hand: -3 } });
    if (i === 4) await t.db.prisma.inventoryLevel.create({ data: { product_id: product.id, warehouse_id: foreignWarehouse, on_hand: 9 } });
    if (i % 4 === 0) {
      await t.db.prisma.inventoryMovement.createMany({
        data: [
          { product_id: product.id, warehouse_id: warehouses[i % 3], bucket: 'unavailable', delta: 3, kind: 'ADJUSTED', reason: 'DAMAGED' },
          {
            product_id: product.id,
            warehouse_id: warehouses[i % 3],
            bucket: 'unavailable',
            delta: 1,
            kind: 'ADJUSTED',
            reason: 'QUARANTINE',
          },
          {
            product_id: product.id,
            warehouse_id: warehouses[i % 3],
            bucket: 'on_order',
            delta: 4,
            kind: 'ORDERED',
            reference_type: 'purchase_order',
          },
        ],
      });
    }
    for (let v = 0; v < i % 4; v++) {
      await t.db.prisma.productListingVariant.create({
        data: { product_id: product.id, shop_id: v === 2 ? null : shops[(i + v) % shops.length].id, sku: `V-${i}-${v}` },
      });
    }
    if (i > 0 && i % 3 === 1) {
      await t.db.prisma.productComponent.create({
        data: { kind: 'VIRTUAL_BUNDLE', parent_product_id: product.id, component_product_id: ids[i - 1], component_quantity: 1.5 },
      });
      await t.db.prisma.productComponent.create({
        data: { kind: 'ASSEMBLY', parent_product_id: product.id, component_product_id: ids[0], component_quantity: 2 },
      });
    }
  }
  await t.db.prisma.product.create({ data: { team_id: stranger.id, name: 'Not reachable', measurement_unit: 'MM', weight_unit: 'G' } });
});
afterAll(() => t?.close());

/** The records presentOps (the Prisma presenter of detail views) gives for the same rows, in the same order. */
async function throughPrisma(ids: string[], warehouseFilter?: string[]) {
  const rows = await t.db.prisma.product.findMany({ where: { id: { in: ids } }, ...LIST_ROW });
  rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  const warehouseIds = warehouseFilter && (await visibleWarehouses(t.db.prisma, t.teamId, warehouseFilter)).map((w) => w.id);
  return presentOps(t.db.prisma, caller, rows, { children: false, actions: true, warehouseIds });
}

type Query = Parameters<typeof listOpsProducts>[2];

/**
 * The presenter's records with their Dates as Date#toISOString() text: the list keeps the ISO text
 * its statement wrote (no Date per value), which the response serializer sends as it sends a Date.
 */
const isoDates = (v: unknown): unknown =>
  v instanceof Date
    ? v.toISOString()
    : Array.isArray(v)
      ? v.map(isoDates)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, isoDates(x)]))
        : v;

describe('ops product list: SQL records equal the Prisma presenter', () => {
  it.each<[string, Partial<Query>]>([
    ['first page (one statement: reach, walks, records)', {}],
    ['a later OFFSET page', { page: 1, limit: 5 }],
    ['updated_at ascending', { order_by: 'updated_at', order: 'asc' }],
    ['one team', { team_id: '' }],
    ['filtered: search (Prisma picks the page, SQL presents it)', { search: 'parity' }],
    ['filtered: warehouse_id narrows the stock shown', { warehouse_id: 'W' }],
    ['filtered: type', { type: 'VIRTUAL_BUNDLE,ASSEMBLY' }],
  ])('%s', async (_, extra) => {
    const q = { page: 0, limit: 100, ...extra } as Query;
    if (q.team_id === '') q.team_id = merchantId;
    if (q.warehouse_id === 'W') q.warehouse_id = `${warehouses[1]},${warehouses[0]}`;
    const listed = await listOpsProducts(t.db, caller, q);
    expect(listed.data.length).toBeGreaterThan(0);
    const ids = listed.data.map((r) => r.id as string);
    expect(listed.data).toEqual(isoDates(await throughPrisma(ids, q.warehouse_id?.split(','))));
  });

  it('covers what it claims: every type and platform, nulls, awkward floats, explained stock, names', async () => {
    const { data } = await listOpsProducts(t.db, caller, { page: 0, limit: 100 } as Query);
    expect(data).toHaveLength(14);
    expect(new Set(data.map((r) => r.type))).toEqual(new Set(['STANDARD', 'VIRTUAL_BUNDLE', 'ASSEMBLY']));
    const platforms = new Set(
      data.flatMap((r) =>
        Object.entries(r.product_listing_variant_count as object)
          .filter(([, n]) => n > 0)
          .map(([k]) => k),
      ),
    );
    expect(platforms).toEqual(new Set(PLATFORMS));
    const floats = data.flatMap((r) => [r.length, r.weight, r.cost_price, r.pick_fee_override, r.minimum_level]);
    for (const f of [0.1 + 0.2, 1 / 3, 1e21, 1e-7, null]) expect(floats).toContain(f);
    expect(data.map((r) => r.merchant_team_name)).toContain('Märchant «日本» \u2028 "quoted"');
    expect(data.some((r) => r.virtual_bundle_component_count === 1)).toBe(true);
    const labels = data.flatMap((r) =>
      (r.inventory_by_warehouse as { unavailable: { operations: { label: string }[] } }[]).flatMap((w) =>
        w.unavailable.operations.map((o) => o.label),
      ),
    );
    expect(labels).toEqual(expect.arrayContaining(['damaged', 'quarantine', 'stock_level']));
    // Dates are Date#toISOString()'s text, to the millisecond.
    const dates = data.flatMap((r) => [r.created_at, r.updated_at, r.first_article_inspection_completed_at]).filter((d) => d !== null);
    expect(dates).toContain('2026-02-01T03:04:05.678Z');
    for (const d of dates) expect(d).toBe(new Date(d as string).toISOString());
  });

  it('cursor pages (in the one statement) walk the same records in order', async () => {
    const whole = await listOpsProducts(t.db, caller, { page: 0, limit: 100 } as Query);
    const walked: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await listOpsProducts(t.db, caller, { page: 0, limit: 4, cursor } as Query);
      walked.push(...page.data);
      cursor = page.meta.next_cursor ?? undefined;
    } while (cursor);
    expect(walked).toEqual(whole.data);
  });
});
