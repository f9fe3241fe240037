import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { fulfillOrder, httpCall } from './inventory.fixtures.js';
import { binLedgerBalanced } from './floor.fixtures.js';

// Stock by bin and lot (issue 28): receipts into named bins with lots, the stock list and its
// filters, moves, counts per bin, and fulfills that take pickable before overstock, earliest
// expiry first, never an expired lot; after each, every bin equals the sum of its movements.

let w: World;
let base: string;
const loc: Record<string, string> = {};
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  const made = await http('POST', '/v1/ops/locations/bulk', {
    warehouse_id: w.east,
    locations: [
      { name: 'A-01', barcode: 'BIN-A01', type: 'PICKABLE' },
      { name: 'O-01', type: 'OVERSTOCK' },
      { name: 'RCV', type: 'RECEIVING' },
      { name: 'DMG', type: 'DAMAGED' },
    ],
  });
  for (const l of made.body.data) loc[l.name] = l.id;
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown) => httpCall(base, w.token, method, path, body);

async function lotProduct(sku: string) {
  const id = await w.product(sku);
  const r = await http('PATCH', `/v1/ops/products/${id}`, { lot_tracked: true });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return id;
}

async function receive(sku: string, lines: Record<string, unknown>[], location?: string) {
  const total = lines.reduce((n, l) => n + (l.quantity as number), 0);
  const po = await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku, quantity: total }] });
  expect(po.status, JSON.stringify(po.body)).toBe(201);
  const r = await http('POST', `/v1/ops/purchase-orders/${po.body.id}/receive`, {
    ...(location ? { location } : {}),
    lines: lines.map((l) => ({ sku, ...l })),
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

const stock = async (query: string) =>
  (await http('GET', `/v1/ops/inventory/locations?${query}`)).body.data
    .map((r: any) => [r.location_name, r.lot_code, r.on_hand])
    .sort((a: any, b: any) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));

describe('stock by bin and lot', () => {
  it('receives into named bins with lots and lists them with every filter', async () => {
    const p = await lotProduct('LOT-1');
    await receive(
      'LOT-1',
      [
        { quantity: 5, lot_code: 'L-EXP', expiration_date: '2020-01-01', location: 'A-01' },
        { quantity: 10, lot_code: 'L-B', expiration_date: '2099-06-01', location: 'BIN-A01' },
        { quantity: 10, lot_code: 'L-A', expiration_date: '2099-03-01', location: 'O-01' },
        { quantity: 4, lot_code: 'L-C', expiration_date: '2099-01-01' },
      ],
      'RCV',
    );
    expect(await stock('sku=LOT-1')).toEqual([
      ['A-01', 'L-B', 10],
      ['A-01', 'L-EXP', 5],
      ['O-01', 'L-A', 10],
      ['RCV', 'L-C', 4],
    ]);
    expect(await stock('sku=LOT-1&location=A-01')).toEqual([
      ['A-01', 'L-B', 10],
      ['A-01', 'L-EXP', 5],
    ]);
    expect(await stock(`product_id=${p}&location=${loc['O-01']}`)).toEqual([['O-01', 'L-A', 10]]);
    expect(await stock('sku=LOT-1&lot_code=L-C')).toEqual([['RCV', 'L-C', 4]]);
    expect(await stock('sku=LOT-1&expiring_before=2099-04-01')).toEqual([
      ['A-01', 'L-EXP', 5],
      ['O-01', 'L-A', 10],
      ['RCV', 'L-C', 4],
    ]);
    const rows = (await http('GET', '/v1/ops/inventory/locations?sku=LOT-1&lot_code=L-EXP')).body.data;
    expect(rows[0]).toMatchObject({
      expired: true,
      expiration_date: '2020-01-01',
      location_type: 'PICKABLE',
      lot_tracked: true,
      product_id: p,
    });
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 29 });
    const moves = (await http('GET', `/v1/ops/inventory/movements?product_id=${p}&location_id=${loc['O-01']}`)).body.data;
    expect(moves.map((m: any) => [m.kind, m.bucket, m.delta, m.lot_code, m.expiration_date])).toEqual([
      ['RECEIVED', 'on_hand', 10, 'L-A', '2099-03-01'],
    ]);
    await binLedgerBalanced(w.t.db, [p]);
  });

  it('fulfills from pickable bins first, earliest expiry first, skipping expired lots; the FULFILLED movements name bin and lot', async () => {
    const p = (await w.t.db.prisma.product.findFirstOrThrow({ where: { sku: 'LOT-1' } })).id;
    const order = await w.order({ line_items: [line('LOT-1', 12)], payment_status: 'PAID' });
    expect(await fulfillOrder(w.t.db, http, order.id)).toEqual([200]);
    const shipped = await w.t.db.prisma.inventoryMovement.findMany({
      where: { product_id: p, kind: 'FULFILLED', bucket: 'on_hand' },
      orderBy: { delta: 'asc' },
    });
    expect(shipped.map((m) => [m.location_id, m.lot_code, m.expiration_date, m.delta])).toEqual([
      [loc['A-01'], 'L-B', '2099-06-01', -10],
      [loc['O-01'], 'L-A', '2099-03-01', -2],
    ]);
    expect(await stock('sku=LOT-1')).toEqual([
      ['A-01', 'L-EXP', 5],
      ['O-01', 'L-A', 8],
      ['RCV', 'L-C', 4],
    ]);
    await binLedgerBalanced(w.t.db, [p]);
  });

  it('moves units between bins (lots kept, level unchanged) and refuses what the bin does not hold', async () => {
    const p = (await w.t.db.prisma.product.findFirstOrThrow({ where: { sku: 'LOT-1' } })).id;
    const before = await w.level(p, w.east);
    const m = await http('POST', '/v1/ops/inventory/moves', {
      warehouse_id: w.east,
      from_location: 'O-01',
      to_location: 'BIN-A01',
      lines: [{ sku: 'LOT-1', quantity: 3 }],
    });
    expect(m.status, JSON.stringify(m.body)).toBe(201);
    expect(m.body).toMatchObject({
      from_location_name: 'O-01',
      to_location_name: 'A-01',
      lines: [{ sku: 'LOT-1', quantity: 3, lots: [{ lot_code: 'L-A', expiration_date: '2099-03-01', quantity: 3 }] }],
    });
    expect(await stock('sku=LOT-1')).toEqual([
      ['A-01', 'L-A', 3],
      ['A-01', 'L-EXP', 5],
      ['O-01', 'L-A', 5],
      ['RCV', 'L-C', 4],
    ]);
    expect(await w.level(p, w.east)).toEqual(before);
    const too = await http('POST', '/v1/ops/inventory/moves', {
      warehouse_id: w.east,
      from_location: 'RCV',
      to_location: 'A-01',
      lines: [{ sku: 'LOT-1', quantity: 5 }],
    });
    expect(too.status).toBe(409);
    const rcv = await w.t.db.prisma.location.findFirstOrThrow({ where: { warehouse_id: w.east, name: 'RCV' } });
    const east = await w.t.db.prisma.warehouse.findUniqueOrThrow({ where: { id: w.east } });
    expect(too.body.detail).toContain(
      `${east.name} (${w.east}) has only 4 of 5 units of LOT-1 (${p}) to take from location RCV (${rcv.id}).`,
    );
    expect(
      (
        await http('POST', '/v1/ops/inventory/moves', {
          warehouse_id: w.east,
          from_location: 'RCV',
          to_location: 'RCV',
          lines: [{ sku: 'LOT-1', quantity: 1 }],
        })
      ).status,
    ).toBe(400);
    const unknown = await http('POST', '/v1/ops/inventory/moves', {
      warehouse_id: w.east,
      from_location: 'Z-99',
      to_location: 'RCV',
      lines: [{ sku: 'LOT-1', quantity: 1 }],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/from_location/);
    await binLedgerBalanced(w.t.db, [p]);
  });

  it('counts one bin and lot: the bin becomes the figure, the level moves by the same delta', async () => {
    const p = (await w.t.db.prisma.product.findFirstOrThrow({ where: { sku: 'LOT-1' } })).id;
    const before = (await w.level(p, w.east))!.on_hand;
    const c = await http('POST', '/v1/ops/inventory/adjustments', {
      warehouse_id: w.east,
      reason: 'CYCLE_COUNT',
      location: 'A-01',
      lines: [{ sku: 'LOT-1', lot_code: 'L-EXP', counted: 0 }],
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body.lines[0]).toMatchObject({ delta: -5, counted: 0, on_hand: before - 5 });
    const up = await http('POST', '/v1/ops/inventory/adjustments', {
      warehouse_id: w.east,
      reason: 'CYCLE_COUNT',
      location: 'RCV',
      lines: [{ sku: 'LOT-1', lot_code: 'L-C', counted: 6 }],
    });
    expect(up.body.lines[0]).toMatchObject({ delta: 2, on_hand: before - 3 });
    expect(await stock('sku=LOT-1')).toEqual([
      ['A-01', 'L-A', 3],
      ['O-01', 'L-A', 5],
      ['RCV', 'L-C', 6],
    ]);
    const found = await http('POST', '/v1/ops/inventory/adjustments', {
      warehouse_id: w.east,
      reason: 'FOUND',
      location: 'O-01',
      lines: [{ sku: 'LOT-1', lot_code: 'L-D', expiration_date: '2099-09-09', delta: 2 }],
    });
    expect(found.status).toBe(201);
    expect(await stock('sku=LOT-1&lot_code=L-D')).toEqual([['O-01', 'L-D', 2]]);
    await binLedgerBalanced(w.t.db, [p]);
  });

  it('never ships an expired lot: with only expired stock the fulfill is refused, naming why', async () => {
    const p = await lotProduct('LOT-OLD');
    await receive('LOT-OLD', [{ quantity: 3, lot_code: 'GONE', expiration_date: '2021-05-05', location: 'A-01' }]);
    const order = await w.order({ line_items: [line('LOT-OLD', 2)], payment_status: 'PAID' });
    const fos = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id } });
    let status: number[] = [];
    try {
      status = await fulfillOrder(w.t.db, http, order.id);
    } catch {
      /* the status is what matters */
    }
    expect(status).toEqual([409]);
    const fo = await w.t.db.prisma.fulfillmentOrder.findUniqueOrThrow({ where: { id: fos[0].id } });
    expect(fo.status).not.toBe('FULFILLED');
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 3, committed: 2 });
    await binLedgerBalanced(w.t.db, [p]);
  });

  it("takes an adjustment's units out of bins by the pick order for every line at once, each bin by its own movement", async () => {
    const a = await w.product('OUT-A');
    const b = await w.product('OUT-B');
    await receive('OUT-A', [
      { quantity: 3, location: 'O-01' },
      { quantity: 4, location: 'A-01' },
    ]);
    await receive('OUT-B', [{ quantity: 2, location: 'A-01' }]);
    const r = await http('POST', '/v1/ops/inventory/adjustments', {
      warehouse_id: w.east,
      reason: 'LOST',
      lines: [
        { sku: 'OUT-A', delta: -5 },
        { sku: 'OUT-B', delta: -2 },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    // PICKABLE before OVERSTOCK: A-01 gives its 4, O-01 the fifth; B's only bin is emptied.
    expect(await stock('sku=OUT-A')).toEqual([['O-01', null, 2]]);
    expect(await stock('sku=OUT-B')).toEqual([]);
    const moved = await w.t.db.prisma.inventoryMovement.findMany({
      where: { product_id: { in: [a, b] }, kind: 'ADJUSTED' },
      select: { product_id: true, location_id: true, delta: true },
    });
    expect(moved.map((m) => [m.product_id === a ? 'A' : 'B', m.location_id, m.delta]).sort()).toEqual(
      [
        ['A', loc['A-01'], -4],
        ['A', loc['O-01'], -1],
        ['B', loc['A-01'], -2],
      ].sort(),
    );
    await binLedgerBalanced(w.t.db, [a, b]);
    // A line that cannot be taken refuses the whole request: the other line's bin keeps its units.
    const short = await http('POST', '/v1/ops/inventory/adjustments', {
      warehouse_id: w.east,
      reason: 'LOST',
      force: true,
      lines: [
        { sku: 'OUT-A', delta: -1 },
        { sku: 'OUT-B', delta: -1 },
      ],
    });
    expect(short.status, JSON.stringify(short.body)).toBe(409);
    expect(await stock('sku=OUT-A')).toEqual([['O-01', null, 2]]);
    await binLedgerBalanced(w.t.db, [a, b]);
  });

  it('keeps products without bins working as before: stock in the default location, fulfills from there', async () => {
    const p = await w.product('PLAIN-1', { [w.east]: 6 });
    expect(await stock('sku=PLAIN-1')).toEqual([['DEFAULT', null, 6]]);
    const order = await w.order({ line_items: [line('PLAIN-1', 4)], payment_status: 'PAID' });
    expect(await fulfillOrder(w.t.db, http, order.id)).toEqual([200]);
    expect(await stock('sku=PLAIN-1')).toEqual([['DEFAULT', null, 2]]);
    await binLedgerBalanced(w.t.db, [p]);
  });

  it("names each row's warehouse: every warehouse has a DEFAULT bin, so the bin's name alone is ambiguous", async () => {
    await w.product('TWO-WH', { [w.east]: 3, [w.west]: 5 });
    const rows = (await http('GET', '/v1/ops/inventory/locations?sku=TWO-WH')).body.data;
    expect(rows.map((r: any) => [r.warehouse_name, r.location_name, r.on_hand]).sort()).toEqual([
      ['East', 'DEFAULT', 3],
      ['West', 'DEFAULT', 5],
    ]);
  });

  it('gives a picking session its walk: bins in pick order, FEFO lots, totes and what no bin holds', async () => {
    await lotProduct('PICK-1');
    await receive('PICK-1', [
      { quantity: 5, lot_code: 'P-NEW', expiration_date: '2099-12-01', location: 'A-01' },
      { quantity: 2, lot_code: 'P-OLD', expiration_date: '2099-01-01', location: 'A-01' },
      { quantity: 5, lot_code: 'P-EXP', expiration_date: '2020-01-01', location: 'A-01' },
      { quantity: 10, lot_code: 'P-X', expiration_date: '2099-05-05', location: 'O-01' },
    ]);
    const orders = [];
    for (const q of [3, 4, 12]) orders.push(await w.order({ line_items: [line('PICK-1', q)], payment_status: 'PAID' }));
    const fos = [];
    for (const o of orders) fos.push(...(await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: o.id } })));
    const session = (await http('POST', '/v1/ops/picking-sessions', { name: 'Wave 1' })).body;
    const totes = [];
    for (const [i, fo] of fos.entries()) {
      const tote = (await http('POST', '/v1/ops/totes', { name: `T${i + 1}` })).body;
      totes.push(tote);
      expect(
        (
          await http('POST', `/v1/ops/picking-sessions/${session.id}/fulfillment-orders`, {
            fulfillment_order_ids: [fo.id],
            tote_id: tote.id,
          })
        ).status,
      ).toBe(200);
    }
    const list = await http('GET', `/v1/ops/picking-sessions/${session.id}/pick-list`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.fulfillment_order_count).toBe(3);
    expect(
      list.body.rows.map((r: any) => [r.location_name, r.sku, r.lot_code, r.quantity, r.totes.map((t: any) => [t.tote_name, t.quantity])]),
    ).toEqual([
      ['A-01', 'PICK-1', 'P-OLD', 2, [['T1', 2]]],
      [
        'A-01',
        'PICK-1',
        'P-NEW',
        5,
        [
          ['T1', 1],
          ['T2', 4],
        ],
      ],
      ['O-01', 'PICK-1', 'P-X', 10, [['T3', 10]]],
    ]);
    expect(list.body.short).toEqual([expect.objectContaining({ fulfillment_order_id: fos[2].id, sku: 'PICK-1', quantity: 2 })]);
    expect((await http('GET', '/v1/ops/picking-sessions/nope/pick-list')).status).toBe(404);
  });

  it('ships the lot a package line names (lot-tracked products); a lot no bin can give is a 409', async () => {
    const p = await lotProduct('NAMED-1');
    await receive('NAMED-1', [
      { quantity: 3, lot_code: 'N-FIRST', expiration_date: '2099-01-01', location: 'A-01' },
      { quantity: 3, lot_code: 'N-LATER', expiration_date: '2099-09-01', location: 'O-01' },
    ]);
    const packAndShip = async (lot: string) => {
      const order = await w.order({ line_items: [line('NAMED-1', 2)], payment_status: 'PAID' });
      const [fo] = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id } });
      expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
      expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/lock`, { lock_owner: 'p', timeout_minutes: 5 })).status).toBe(200);
      const pkg = await http('POST', '/v1/ops/packages', {
        fulfillment_order_id: fo.id,
        weight: 100,
        weight_unit: 'G',
        package_line_items: [{ sku: 'NAMED-1', quantity: 2, lot_code: lot }],
      });
      expect(pkg.status, JSON.stringify(pkg.body)).toBe(201);
      expect(
        (
          await http('POST', `/v1/ops/packages/${pkg.body.id}/label`, {
            label_url: 'https://l.example/x.pdf',
            tracking_number: `N${pkg.body.id.slice(-9)}`,
            carrier: 'UPS',
            service: 'Ground',
            cost: 1,
            cost_currency: 'USD',
          })
        ).status,
      ).toBe(200);
      return http('POST', `/v1/ops/packages/${pkg.body.id}/fulfill`, { locked_by: 'p' });
    };
    expect((await packAndShip('N-LATER')).status).toBe(200);
    expect(await stock('sku=NAMED-1')).toEqual([
      ['A-01', 'N-FIRST', 3],
      ['O-01', 'N-LATER', 1],
    ]);
    const refused = await packAndShip('N-LATER');
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/Lot N-LATER of NAMED-1 \([0-9a-f-]{36}\): only 1 of 2 units can be picked/);
    expect(await stock('sku=NAMED-1')).toEqual([
      ['A-01', 'N-FIRST', 3],
      ['O-01', 'N-LATER', 1],
    ]);
    await binLedgerBalanced(w.t.db, [p]);
  });
});
