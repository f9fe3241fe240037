import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from './orders.fixtures.js';
import { binLedgerBalanced } from './floor.fixtures.js';

// Putaway suggestions (issue 28): units that arrive without a named bin go to the product's
// pickable bin, else the first empty pickable bin, else the default location; the receipt and
// adjustment answers say which bin, and so do their movements. A named bin is kept as before.

let w: World;
const bin: Record<string, string> = {};
const products: string[] = [];
beforeAll(async () => {
  w = await world();
  const made = await w.call('POST', '/v1/ops/locations/bulk', {
    warehouse_id: w.east,
    locations: [
      { name: 'P-01', type: 'PICKABLE', pick_sequence: 10 },
      { name: 'P-02', type: 'PICKABLE', pick_sequence: 20 },
      { name: 'P-00', type: 'PICKABLE', pick_sequence: 5, active: false },
      { name: 'O-01', type: 'OVERSTOCK', pick_sequence: 1 },
    ],
  });
  expect(made.statusCode, made.body).toBe(201);
  for (const l of made.json().data) bin[l.name] = l.id;
});
afterAll(() => w?.t.close());

async function product(sku: string) {
  const id = await w.product(sku);
  products.push(id);
  return id;
}

async function receive(lines: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  const po = await w.call('POST', '/v1/ops/purchase-orders', {
    warehouse_id: w.east,
    lines: lines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
  });
  expect(po.statusCode, po.body).toBe(201);
  const r = await w.call('POST', `/v1/ops/purchase-orders/${po.json().id}/receive`, { ...extra, lines });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().lines.map((l: any) => [l.sku, l.location_name, l.putaway]);
}

const suggest = async (productId: string, warehouse = w.east) => {
  const r = await w.call('GET', `/v1/ops/locations/putaway?product_id=${productId}&warehouse_id=${warehouse}&quantity=5`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};

describe('putaway suggestions', () => {
  it('suggests an empty pickable bin, then the bin that holds the product; the default where no bin is set up', async () => {
    const a = await product('PUT-A');
    const s = await suggest(a);
    expect(s).toMatchObject({
      product_id: a,
      sku: 'PUT-A',
      location_id: bin['P-01'],
      location_name: 'P-01',
      reason: 'EMPTY_BIN',
      quantity: 5,
    });
    expect(await suggest(a, w.west)).toMatchObject({ location_id: `default-${w.west}`, reason: 'DEFAULT_LOCATION' });
    // Two products of one receipt get different empty bins (inactive P-00 and the overstock bin are skipped).
    const b = await product('PUT-B');
    expect(
      await receive([
        { sku: 'PUT-A', quantity: 4 },
        { sku: 'PUT-B', quantity: 3 },
      ]),
    ).toEqual([
      ['PUT-A', 'P-01', 'EMPTY_BIN'],
      ['PUT-B', 'P-02', 'EMPTY_BIN'],
    ]);
    expect(await suggest(a)).toMatchObject({ location_name: 'P-01', reason: 'EXISTING_BIN' });
    expect(await suggest(b)).toMatchObject({ location_name: 'P-02', reason: 'EXISTING_BIN' });
    expect(await receive([{ sku: 'PUT-A', quantity: 2 }])).toEqual([['PUT-A', 'P-01', 'EXISTING_BIN']]);
    // No empty pickable bin left: the default location.
    const c = await product('PUT-C');
    expect(await suggest(c)).toMatchObject({ location_id: `default-${w.east}`, reason: 'DEFAULT_LOCATION' });
    expect(await receive([{ sku: 'PUT-C', quantity: 1 }])).toEqual([['PUT-C', 'DEFAULT', 'DEFAULT_LOCATION']]);
    // The movements name the bins too.
    const moved = await w.call('GET', `/v1/ops/inventory/movements?product_id=${a}&kind=RECEIVED`);
    expect(
      moved
        .json()
        .data.filter((m: any) => m.bucket === 'on_hand')
        .map((m: any) => m.location_id),
    ).toEqual([bin['P-01'], bin['P-01']]);
    await binLedgerBalanced(w.t.db, products);
  });

  it('keeps a named bin, on the receipt and on a line', async () => {
    expect(await receive([{ sku: 'PUT-A', quantity: 1 }], { location: 'O-01' })).toEqual([['PUT-A', 'O-01', null]]);
    expect(
      await receive([
        { sku: 'PUT-B', quantity: 1, location: 'P-01' },
        { sku: 'PUT-C', quantity: 1 },
      ]),
    ).toEqual([
      ['PUT-B', 'P-01', null],
      ['PUT-C', 'DEFAULT', 'DEFAULT_LOCATION'],
    ]);
    await binLedgerBalanced(w.t.db, products);
  });

  it('puts adjustments that add units away; units that leave name no bin', async () => {
    const adjust = async (body: Record<string, unknown>) => {
      const r = await w.call('POST', '/v1/ops/inventory/adjustments', { warehouse_id: w.east, ...body });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().lines.map((l: any) => [l.sku, l.delta, l.location_name, l.putaway]);
    };
    expect(
      await adjust({
        reason: 'FOUND',
        lines: [
          { sku: 'PUT-A', delta: 3 },
          { sku: 'PUT-B', delta: 2 },
        ],
      }),
    ).toEqual([
      ['PUT-A', 3, 'P-01', 'EXISTING_BIN'],
      ['PUT-B', 2, 'P-01', 'EXISTING_BIN'],
    ]);
    expect(await adjust({ reason: 'LOST', lines: [{ sku: 'PUT-A', delta: -1 }] })).toEqual([['PUT-A', -1, null, null]]);
    const d = await product('PUT-D');
    expect(await adjust({ reason: 'CYCLE_COUNT', lines: [{ sku: 'PUT-D', counted: 6 }] })).toEqual([
      ['PUT-D', 6, 'DEFAULT', 'DEFAULT_LOCATION'],
    ]);
    expect(await adjust({ reason: 'CYCLE_COUNT', location: 'O-01', lines: [{ sku: 'PUT-D', counted: 2 }] })).toEqual([
      ['PUT-D', 2, 'O-01', null],
    ]);
    const stock = await w.call('GET', `/v1/ops/inventory/locations?product_id=${d}`);
    expect(
      stock
        .json()
        .data.map((r: any) => [r.location_name, r.on_hand])
        .sort(),
    ).toEqual([
      ['DEFAULT', 6],
      ['O-01', 2],
    ]);
    await binLedgerBalanced(w.t.db, products);
  });

  it('refuses unknown products and warehouses and bad queries', async () => {
    const a = products[0];
    const missing = '00000000-0000-7000-8000-000000000000';
    for (const [q, status] of [
      [`product_id=${missing}&warehouse_id=${w.east}`, 404],
      [`product_id=${a}&warehouse_id=${missing}`, 404],
      [`warehouse_id=${w.east}`, 400],
      [`product_id=${a}&warehouse_id=${w.east}&quantity=0`, 400],
      [`product_id=${a}&warehouse_id=${w.east}&bin=1`, 400],
    ] as const) {
      const r = await w.call('GET', `/v1/ops/locations/putaway?${q}`);
      expect(r.statusCode, `${q}: ${r.body}`).toBe(status);
      expect(r.headers['content-type']).toContain('application/problem+json');
    }
  });
});
