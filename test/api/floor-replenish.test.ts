import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from './orders.fixtures.js';
import { binLedgerBalanced } from './floor.fixtures.js';

// Replenishment tasks (issue 28): a product whose pickable bins hold less than its
// replenishment_minimum_level while overstock holds some is a task, with the overstock bins in
// FEFO order (expired lots left out); a normal move completes it. Filters, paging and refusals.

let w: World;
const products: string[] = [];
beforeAll(async () => {
  w = await world();
  const made = await w.call('POST', '/v1/ops/locations/bulk', {
    warehouse_id: w.east,
    locations: [
      { name: 'A-01', type: 'PICKABLE', pick_sequence: 1 },
      { name: 'A-02', type: 'PICKABLE', pick_sequence: 2 },
      { name: 'O-01', type: 'OVERSTOCK', pick_sequence: 3 },
      { name: 'O-02', type: 'OVERSTOCK', pick_sequence: 4 },
    ],
  });
  expect(made.statusCode, made.body).toBe(201);
});
afterAll(() => w?.t.close());

async function product(sku: string, config: Record<string, number | null>, lot = false) {
  const id = await w.product(sku);
  const r = await w.call('PATCH', `/v1/ops/products/${id}`, { config, ...(lot ? { lot_tracked: true } : {}) });
  expect(r.statusCode, r.body).toBe(200);
  products.push(id);
  return id;
}

async function receive(sku: string, lines: Record<string, unknown>[]) {
  const total = lines.reduce((n, l) => n + (l.quantity as number), 0);
  const po = await w.call('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku, quantity: total }] });
  const r = await w.call('POST', `/v1/ops/purchase-orders/${po.json().id}/receive`, { lines: lines.map((l) => ({ sku, ...l })) });
  expect(r.statusCode, r.body).toBe(200);
}

const tasks = async (query = '') => {
  const r = await w.call('GET', `/v1/ops/replenishments?${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};

describe('replenishment tasks', () => {
  let r1: string;
  let r5: string;
  it('lists products below their minimum in pickable bins with overstock to take from, FEFO', async () => {
    r1 = await product(
      'REP-1',
      { replenishment_minimum_level: 10, replenishment_maximum_level: 20, replenishment_increment_level: 5 },
      true,
    );
    await receive('REP-1', [
      { quantity: 3, location: 'A-01', lot_code: 'L-A', expiration_date: '2099-12-01' },
      { quantity: 8, location: 'O-01', lot_code: 'L-LATE', expiration_date: '2099-06-01' },
      { quantity: 6, location: 'O-02', lot_code: 'L-SOON', expiration_date: '2099-01-01' },
      { quantity: 4, location: 'O-01', lot_code: 'L-OLD', expiration_date: '2020-01-01' },
    ]);
    // Above its minimum; no minimum; nothing in overstock: no task.
    await product('REP-2', { replenishment_minimum_level: 5 });
    await receive('REP-2', [
      { quantity: 10, location: 'A-01' },
      { quantity: 10, location: 'O-01' },
    ]);
    await product('REP-3', {});
    await receive('REP-3', [{ quantity: 10, location: 'O-01' }]);
    await product('REP-4', { replenishment_minimum_level: 5 });
    await receive('REP-4', [{ quantity: 1, location: 'A-01' }]);
    // None in pickable bins: the empty pickable bin is the one to fill.
    r5 = await product('REP-5', { replenishment_minimum_level: 4 });
    await receive('REP-5', [{ quantity: 10, location: 'O-02' }]);

    const all = await tasks(`warehouse_id=${w.east}`);
    expect(all.data.map((t: any) => t.sku).sort()).toEqual(['REP-1', 'REP-5']);
    const t1 = all.data.find((t: any) => t.sku === 'REP-1');
    expect(t1).toMatchObject({
      product_id: r1,
      warehouse_id: w.east,
      to_location: 'A-01',
      minimum_level: 10,
      pickable_on_hand: 3,
      overstock_available: 14,
      quantity_needed: 7,
      quantity_suggested: 14,
    });
    expect(t1.from_locations.map((f: any) => [f.location, f.lot_code, f.expiration_date, f.available, f.quantity])).toEqual([
      ['O-02', 'L-SOON', '2099-01-01', 6, 6],
      ['O-01', 'L-LATE', '2099-06-01', 8, 8],
    ]);
    expect(all.data.find((t: any) => t.sku === 'REP-5')).toMatchObject({
      to_location: 'A-02',
      pickable_on_hand: 0,
      quantity_needed: 4,
      quantity_suggested: 4,
    });
  });

  it('filters by warehouse and product and pages with a cursor', async () => {
    expect((await tasks(`warehouse_id=${w.west}`)).data).toEqual([]);
    expect((await tasks(`product_id=${r5}`)).data.map((t: any) => t.sku)).toEqual(['REP-5']);
    const first = await tasks('limit=1');
    expect(first.data).toHaveLength(1);
    expect(first.meta.has_next_page).toBe(true);
    const second = await tasks(`limit=1&cursor=${first.meta.next_cursor}`);
    expect(second.data).toHaveLength(1);
    expect(second.meta.has_next_page).toBe(false);
    expect(second.data[0].product_id).not.toBe(first.data[0].product_id);
    const page1 = await tasks('limit=1&page=1');
    expect(page1.data[0].product_id).toBe(second.data[0].product_id);
  });

  it('is completed by a move from overstock; the ledger stays balanced', async () => {
    const move = await w.call('POST', '/v1/ops/inventory/moves', {
      warehouse_id: w.east,
      from_location: 'O-02',
      to_location: 'A-01',
      lines: [{ sku: 'REP-1', quantity: 6, lot_code: 'L-SOON' }],
    });
    expect(move.statusCode, move.body).toBe(201);
    expect((await tasks(`product_id=${r1}`)).data[0]).toMatchObject({ pickable_on_hand: 9, quantity_needed: 1, quantity_suggested: 8 });
    await w.call('POST', '/v1/ops/inventory/moves', {
      warehouse_id: w.east,
      from_location: 'O-01',
      to_location: 'A-01',
      lines: [{ sku: 'REP-1', quantity: 1, lot_code: 'L-LATE' }],
    });
    expect((await tasks(`product_id=${r1}`)).data).toEqual([]);
    await binLedgerBalanced(w.t.db, products);
  });

  it('refuses unknown fields, bad cursors and limits', async () => {
    for (const q of ['bin=A-01', 'cursor=notacursor', 'limit=0', 'id_prefix=01']) {
      const r = await w.call('GET', `/v1/ops/replenishments?${q}`);
      expect(r.statusCode, `${q}: ${r.body}`).toBe(400);
      expect(r.headers['content-type']).toContain('application/problem+json');
    }
  });
});
