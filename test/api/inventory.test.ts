import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { fulfillOrder, httpCall, ledgerBalanced, otherFulfiller } from './inventory.fixtures.js';

// Inventory levels, the movement ledger and adjustments / cycle counts over HTTP (issue 10 items
// 1, 2, 4): figures, filters, every reason's effect, the guards, all-or-nothing, tenancy,
// permissions, events, and counts racing fulfills through a real listener.

let w: World;
let base: string;
let other: { token: string; warehouse: string };
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  other = await otherFulfiller(w.t);
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown, token = w.token) => httpCall(base, token, method, path, body);
const adjust = (body: Record<string, unknown>, token?: string) => http('POST', '/v1/ops/inventory/adjustments', body, token);
const level = async (p: string, wh = w.east) => (await http('GET', `/v1/ops/inventory?product_id=${p}&warehouse_id=${wh}`)).body.data[0];

describe('GET /v1/ops/inventory', () => {
  it('lists levels with available, below_minimum and a reorder quantity that fills up to the maximum', async () => {
    const p = await w.product('INV-LVL', { [w.east]: 12, [w.west]: 3 });
    await w.t.db.prisma.product.update({ where: { id: p }, data: { minimum_level: 5, maximum_level: 20, increment_level: 6 } });
    await w.order({ line_items: [line('INV-LVL', 2)], payment_status: 'PAID' });
    const res = await http('GET', `/v1/ops/inventory?product_id=${p}`);
    expect(res.status).toBe(200);
    const byWh = Object.fromEntries(res.body.data.map((l: any) => [l.warehouse_name, l]));
    expect(byWh.East).toMatchObject({
      sku: 'INV-LVL',
      on_hand: 12,
      committed: 2,
      unavailable: 0,
      on_order: 0,
      available: 10,
      below_minimum: false,
      reorder_quantity: 0,
    });
    // West: position 3 < minimum 5; 17 fills up to 20, rounded up to the increment 6 -> 18.
    expect(byWh.West).toMatchObject({ available: 3, below_minimum: true, reorder_quantity: 18, minimum_level: 5, maximum_level: 20 });
    const low = await http('GET', `/v1/ops/inventory?below_minimum=true&sku=INV-LVL`);
    expect(low.body.data.map((l: any) => l.warehouse_name)).toEqual(['West']);
    const bySku = await http('GET', `/v1/ops/inventory?sku=INV-LVL&warehouse_id=${w.west}`);
    expect(bySku.body.data).toHaveLength(1);
  });

  it('pages below_minimum with cursors and shows nothing of other teams', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const p = await w.product(`INV-LOW-${i}`, { [w.east]: 1 });
      await w.t.db.prisma.product.update({ where: { id: p }, data: { minimum_level: 10 } });
      ids.push(p);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await http(
        'GET',
        `/v1/ops/inventory?below_minimum=true&product_id=${ids.join(',')}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((l: any) => l.product_id));
      cursor = res.body.meta.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...ids].sort());
    const theirs = await http('GET', `/v1/ops/inventory?product_id=${ids.join(',')}`, undefined, other.token);
    expect(theirs.body.data).toEqual([]);
  });
});

describe('POST /v1/ops/inventory/adjustments', () => {
  it('applies every reason as documented and writes ADJUSTED movements naming the adjustment and the key', async () => {
    const p = await w.product('INV-ADJ', { [w.east]: 10 });
    const found = await adjust({ warehouse_id: w.east, reason: 'FOUND', note: 'behind the rack', lines: [{ sku: 'INV-ADJ', delta: 4 }] });
    expect(found.status, JSON.stringify(found.body)).toBe(201);
    expect(found.body).toMatchObject({ reason: 'FOUND', note: 'behind the rack', warehouse_name: 'East', force: false });
    expect(found.body.lines[0]).toMatchObject({ product_id: p, sku: 'INV-ADJ', delta: 4, counted: null, on_hand: 14, available: 14 });
    expect((await adjust({ warehouse_id: w.east, reason: 'DAMAGED', lines: [{ product_id: p, delta: 3 }] })).body.lines[0]).toMatchObject({
      on_hand: 14,
      unavailable: 3,
      available: 11,
    });
    expect((await adjust({ warehouse_id: w.east, reason: 'DAMAGED', lines: [{ product_id: p, delta: -2 }] })).body.lines[0]).toMatchObject({
      on_hand: 12,
      unavailable: 1,
    });
    expect(
      (await adjust({ warehouse_id: w.east, reason: 'QUARANTINE', lines: [{ product_id: p, delta: 2 }] })).body.lines[0],
    ).toMatchObject({ unavailable: 3 });
    expect(
      (await adjust({ warehouse_id: w.east, reason: 'RELEASE_QUARANTINE', lines: [{ product_id: p, delta: 2 }] })).body.lines[0],
    ).toMatchObject({ unavailable: 1, available: 11 });
    const lost = await adjust({ warehouse_id: w.east, reason: 'LOST', lines: [{ product_id: p, delta: -1 }] });
    expect(lost.body.lines[0]).toMatchObject({ on_hand: 11, available: 10 });
    const moves = await http('GET', `/v1/ops/inventory/movements?reference_id=${lost.body.id}`);
    expect(moves.body.data).toEqual([
      expect.objectContaining({
        product_id: p,
        sku: 'INV-ADJ',
        warehouse_id: w.east,
        bucket: 'on_hand',
        delta: -1,
        kind: 'ADJUSTED',
        reason: 'LOST',
        reference_type: 'adjustment',
        reference_id: lost.body.id,
        actor_key_id: expect.any(String),
      }),
    ]);
    const key = await w.t.db.prisma.apiKey.findFirst({ where: { id: moves.body.data[0].actor_key_id } });
    expect(key).not.toBeNull();
    await ledgerBalanced(w.t.db, [p]);
  });

  it('sets on_hand to a counted figure and refuses to go below committed without force, below zero ever', async () => {
    const p = await w.product('INV-CNT', { [w.east]: 10 });
    await w.order({ line_items: [line('INV-CNT', 4)], payment_status: 'PAID' });
    const counted = await adjust({ warehouse_id: w.east, reason: 'CYCLE_COUNT', lines: [{ sku: 'INV-CNT', counted: 7 }] });
    expect(counted.status).toBe(201);
    expect(counted.body.lines[0]).toMatchObject({ delta: -3, counted: 7, on_hand: 7, committed: 4, available: 3 });
    const short = await adjust({ warehouse_id: w.east, reason: 'CYCLE_COUNT', lines: [{ sku: 'INV-CNT', counted: 2 }] });
    expect(short.status).toBe(409);
    expect(short.body.detail).toMatch(/committed 4.*force/);
    expect((await level(p)).on_hand).toBe(7);
    const forced = await adjust({ warehouse_id: w.east, reason: 'CYCLE_COUNT', force: true, lines: [{ sku: 'INV-CNT', counted: 2 }] });
    expect(forced.body.lines[0]).toMatchObject({ on_hand: 2, committed: 4, available: -2 });
    const negative = await adjust({ warehouse_id: w.east, reason: 'CORRECTION', force: true, lines: [{ sku: 'INV-CNT', delta: -3 }] });
    expect(negative.status).toBe(409);
    expect(negative.body.detail).toMatch(/below zero/);
    const moves = await http('GET', `/v1/ops/inventory/movements?product_id=${p}&kind=COUNTED`);
    expect(moves.body.data.map((m: any) => m.delta)).toEqual([-5, -3]);
    await ledgerBalanced(w.t.db, [p]);
  });

  it('is all or nothing: one bad line leaves every level as it was', async () => {
    const a = await w.product('INV-ALL-A', { [w.east]: 5 });
    const b = await w.product('INV-ALL-B', { [w.east]: 1 });
    const res = await adjust({
      warehouse_id: w.east,
      reason: 'CORRECTION',
      lines: [
        { sku: 'INV-ALL-A', delta: 5 },
        { sku: 'INV-ALL-B', delta: -2 },
      ],
    });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/^lines\[1\]/);
    expect((await level(a)).on_hand).toBe(5);
    expect((await level(b)).on_hand).toBe(1);
    expect(await w.t.db.prisma.inventoryMovement.count({ where: { product_id: a, kind: 'ADJUSTED' } })).toBe(0);
  });

  it('takes 1,000 lines in one request', async () => {
    const products = await w.t.db.prisma.product.createManyAndReturn({
      data: Array.from({ length: 1000 }, (_, i) => ({
        team_id: w.merchantId,
        merchant_team_id: w.merchantId,
        fulfiller_team_id: w.t.teamId,
        name: `Bulk ${i}`,
        sku: `INV-BULK-${i}`,
        measurement_unit: 'MM',
        weight_unit: 'G',
      })),
    });
    const res = await adjust({
      warehouse_id: w.west,
      reason: 'CYCLE_COUNT',
      lines: products.map((p, i) => ({ sku: p.sku, counted: i % 7 })),
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect(res.body.lines).toHaveLength(1000);
    expect(res.body.lines[13]).toMatchObject({ sku: 'INV-BULK-13', on_hand: 6 });
    const sum = await w.t.db.prisma.inventoryLevel.aggregate({
      where: { warehouse_id: w.west, product: { sku: { startsWith: 'INV-BULK-' } } },
      _sum: { on_hand: true },
    });
    expect(sum._sum.on_hand).toBe(products.reduce((n, _, i) => n + (i % 7), 0));
  }, 60_000);

  it('answers clear errors: bad reason, unknown field, sign rules, both or neither of delta/counted, unknown sku, duplicates, too many lines', async () => {
    await w.product('INV-ERR', { [w.east]: 5 });
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ warehouse_id: w.east, reason: 'STOLEN', lines: [{ sku: 'INV-ERR', delta: 1 }] }, 400, /reason/],
      [{ warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'INV-ERR', delta: 1, bin: 'A1' }] }, 400, /bin|additional/i],
      [{ warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'INV-ERR', delta: -1 }] }, 400, /FOUND adds units/],
      [{ warehouse_id: w.east, reason: 'LOST', lines: [{ sku: 'INV-ERR', delta: 1 }] }, 400, /LOST removes/],
      [{ warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'INV-ERR' }] }, 400, /exactly one of delta and counted/],
      [{ warehouse_id: w.east, reason: 'DAMAGED', lines: [{ sku: 'INV-ERR', counted: 3 }] }, 400, /counted is for CYCLE_COUNT/],
      [{ warehouse_id: w.east, reason: 'FOUND', lines: [{ delta: 1 }] }, 400, /exactly one of product_id and sku/],
      [{ warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'NOPE', delta: 1 }] }, 404, /NOPE/],
      [
        {
          warehouse_id: w.east,
          reason: 'FOUND',
          lines: [
            { sku: 'INV-ERR', delta: 1 },
            { sku: 'INV-ERR', delta: 2 },
          ],
        },
        400,
        /lines\[1\]/,
      ],
      [{ warehouse_id: w.east, reason: 'FOUND', lines: [] }, 400, /lines/],
      [{ warehouse_id: w.east, reason: 'FOUND', lines: Array.from({ length: 1001 }, () => ({ sku: 'INV-ERR', delta: 1 })) }, 400, /lines/],
      [{ warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'INV-ERR', delta: 2 ** 40 }] }, 400, /delta/],
      [{ warehouse_id: other.warehouse, reason: 'FOUND', lines: [{ sku: 'INV-ERR', delta: 1 }] }, 404, /Warehouse/],
    ];
    for (const [body, status, detail] of cases) {
      const res = await adjust(body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.headers?.['content-type'] ?? 'application/problem+json').toMatch(/problem\+json/);
      expect(JSON.stringify(res.body)).toMatch(detail);
    }
    // Another team cannot reach this team's products or warehouses.
    expect(
      (await adjust({ warehouse_id: other.warehouse, reason: 'FOUND', lines: [{ sku: 'INV-ERR', delta: 1 }] }, other.token)).status,
    ).toBe(404);
  });

  it('needs READ_INVENTORY to read and WRITE_INVENTORY to adjust; the change is announced as inventory.adjusted', async () => {
    const reader = await w.t.key({ permissions: ['READ_INVENTORY'] });
    expect((await http('GET', '/v1/ops/inventory', undefined, reader.token)).status).toBe(200);
    expect((await http('GET', '/v1/ops/inventory/movements', undefined, reader.token)).status).toBe(200);
    expect((await adjust({ warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'INV-ERR', delta: 1 }] }, reader.token)).status).toBe(403);
    const none = await w.t.key({ permissions: ['READ_ORDERS'] });
    expect((await http('GET', '/v1/ops/inventory', undefined, none.token)).status).toBe(403);
    const writer = await w.t.key({ permissions: ['WRITE_INVENTORY'] });
    const res = await adjust({ warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'INV-ERR', delta: 1 }] }, writer.token);
    expect(res.status).toBe(201);
    expect(res.body.actor_key_id).toBe(writer.id);
    const event = await w.t.db.prisma.outboxEvent.findFirst({ where: { kind: 'inventory.adjusted' }, orderBy: { id: 'desc' } });
    expect(event?.payload).toMatchObject({ id: res.body.id, reason: 'FOUND', lines: [expect.objectContaining({ sku: 'INV-ERR' })] });
  });
});

describe('GET /v1/ops/inventory/movements', () => {
  it('filters by kind, sku, warehouse and time, newest first, and pages by cursor', async () => {
    const p = await w.product('INV-MOV', { [w.east]: 3, [w.west]: 2 });
    await adjust({ warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'INV-MOV', delta: 1 }] });
    await adjust({ warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'INV-MOV', delta: 2 }] });
    const all = await http('GET', `/v1/ops/inventory/movements?sku=INV-MOV`);
    expect(all.body.data.slice(0, 2).map((m: any) => [m.kind, m.delta])).toEqual([
      ['ADJUSTED', 2],
      ['ADJUSTED', 1],
    ]);
    expect(
      all.body.data
        .slice(2)
        .map((m: any) => [m.kind, m.delta])
        .sort(),
    ).toEqual([
      ['RECEIVED', 2],
      ['RECEIVED', 3],
    ]);
    const west = await http('GET', `/v1/ops/inventory/movements?product_id=${p}&warehouse_id=${w.west}`);
    expect(west.body.data.map((m: any) => [m.kind, m.delta, m.warehouse_name])).toEqual([['RECEIVED', 2, 'West']]);
    expect(new Set(all.body.data.map((m: any) => m.warehouse_name))).toEqual(new Set(['East', 'West']));
    const future = await http('GET', `/v1/ops/inventory/movements?product_id=${p}&created_at_min=2999-01-01T00:00:00Z`);
    expect(future.body.data).toEqual([]);
    const page1 = await http('GET', `/v1/ops/inventory/movements?product_id=${p}&limit=3`);
    const page2 = await http('GET', `/v1/ops/inventory/movements?product_id=${p}&limit=3&cursor=${page1.body.meta.next_cursor}`);
    expect([...page1.body.data, ...page2.body.data].map((m: any) => m.id)).toEqual(all.body.data.map((m: any) => m.id));
    expect((await http('GET', '/v1/ops/inventory/movements?kind=STOLEN')).status).toBe(400);
    expect((await http('GET', `/v1/ops/inventory/movements?product_id=${p}`, undefined, other.token)).body.data).toEqual([]);
  });
});

describe('counts racing fulfills', () => {
  it('keeps every level equal to its ledger and lands each count exactly', async () => {
    const p = await w.product('INV-RACE', { [w.east]: 40 });
    const orders = [];
    for (let i = 0; i < 6; i++) orders.push(await w.order({ line_items: [line('INV-RACE', 2)], payment_status: 'PAID' }));
    const h = (m: string, path: string, body?: unknown) => http(m, path, body);
    const results = await Promise.all([
      ...orders.map((o) => fulfillOrder(w.t.db, h, o.id)),
      ...Array.from({ length: 6 }, (_, i) => adjust({ warehouse_id: w.east, reason: 'FOUND', lines: [{ sku: 'INV-RACE', delta: i + 1 }] })),
      adjust({ warehouse_id: w.east, reason: 'QUARANTINE', lines: [{ sku: 'INV-RACE', delta: 3 }] }),
    ]);
    expect(results.slice(0, 6).flat()).toEqual(Array(6).fill(200));
    expect(results.slice(6).map((r: any) => r.status)).toEqual(Array(7).fill(201));
    const [lvl] = await ledgerBalanced(w.t.db, [p]);
    expect(lvl).toMatchObject({ on_hand: 40 - 12 + 21, committed: 0, unavailable: 3 });
    // A count lands exactly even while fulfills of other units run.
    const more = [];
    for (let i = 0; i < 4; i++) more.push(await w.order({ line_items: [line('INV-RACE', 1)], payment_status: 'PAID' }));
    const [count] = await Promise.all([
      adjust({ warehouse_id: w.east, reason: 'CYCLE_COUNT', lines: [{ sku: 'INV-RACE', counted: 30 }] }),
      ...more.map((o) => fulfillOrder(w.t.db, h, o.id)),
    ]);
    expect(count.status).toBe(201);
    const after = await ledgerBalanced(w.t.db, [p]);
    const counts = await w.t.db.prisma.inventoryMovement.findMany({ where: { product_id: p, kind: 'COUNTED' } });
    expect(counts).toHaveLength(1);
    // Whatever interleaving: the count set on_hand to 30 at its moment; fulfills after it took their units from 30.
    const fulfilledAfter = await w.t.db.prisma.inventoryMovement.count({
      where: { product_id: p, kind: 'FULFILLED', bucket: 'on_hand', created_at: { gt: counts[0].created_at } },
    });
    expect(after[0].on_hand).toBe(30 - fulfilledAfter);
  });
});

describe('products explain their buckets from the ledger', () => {
  it('shows unavailable by reason, on_order by purchase orders and transfers, committed by open orders', async () => {
    const p = await w.product('INV-OPS', { [w.east]: 20 });
    await w.order({ line_items: [line('INV-OPS', 2)], payment_status: 'PAID' });
    await adjust({ warehouse_id: w.east, reason: 'DAMAGED', lines: [{ sku: 'INV-OPS', delta: 3 }] });
    await adjust({ warehouse_id: w.east, reason: 'QUARANTINE', lines: [{ sku: 'INV-OPS', delta: 2 }] });
    await adjust({ warehouse_id: w.east, reason: 'RELEASE_QUARANTINE', lines: [{ sku: 'INV-OPS', delta: 1 }] });
    await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku: 'INV-OPS', quantity: 10 }] });
    await http('POST', '/v1/ops/inventory/transfers', {
      from_warehouse_id: w.west,
      to_warehouse_id: w.east,
      lines: [{ sku: 'INV-OPS', quantity: 0 }],
    }); // refused: 400
    const got = await http('GET', `/v1/ops/products/${p}`);
    const east = got.body.inventory_by_warehouse.find((x: any) => x.warehouse_id === w.east);
    expect(east.committed).toEqual({ count: 2, operations: [{ count: 2, label: 'open_orders' }] });
    expect(east.unavailable.count).toBe(4);
    expect(east.unavailable.operations).toEqual(
      expect.arrayContaining([
        { count: 3, label: 'damaged' },
        { count: 1, label: 'quarantine' },
      ]),
    );
    expect(east.on_order).toEqual({ count: 10, operations: [{ count: 10, label: 'purchase_orders' }] });
    expect(east.on_hand).toEqual({ count: 20, operations: [{ count: 20, label: 'stock_level' }] });
  });
});
