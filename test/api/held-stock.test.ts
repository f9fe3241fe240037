import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, type World } from './orders.fixtures.js';
import { fulfillOrder } from './inventory.fixtures.js';
import { binLedgerBalanced, floorWorld } from './floor.fixtures.js';

// Held stock (issue 34; docs/warehouses.md): damaged units of a receipt, a transfer or a return land
// in a DAMAGED location created on demand, even when the line names a pickable bin; pick lists and
// fulfills never take from DAMAGED or QUARANTINE bins, and every bin keeps an exact ledger. Returns
// go back into a chosen bin and lot, by default the lot the units shipped from (the latest).

let w: World;
let http: Awaited<ReturnType<typeof floorWorld>>['http'];
let loc: Record<string, string>;
beforeAll(async () => {
  ({ w, http, loc } = await floorWorld([
    { name: 'A-01', pick_sequence: 10 },
    { name: 'A-02', pick_sequence: 20 },
    { name: 'Q-01', type: 'QUARANTINE', pick_sequence: 1 },
  ]));
});
afterAll(() => w?.t.close());

async function receive(sku: string, lines: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  const total = lines.reduce((n, l) => n + (l.quantity as number), 0);
  const po = await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku, quantity: total }] });
  expect(po.status, JSON.stringify(po.body)).toBe(201);
  const r = await http('POST', `/v1/ops/purchase-orders/${po.body.id}/receive`, { ...extra, lines: lines.map((l) => ({ sku, ...l })) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** { "bin name/lot": on_hand } of the product's non-empty stock rows in East. */
async function bins(productId: string) {
  const rows = await w.t.db.prisma.locationStock.findMany({ where: { product_id: productId, warehouse_id: w.east, on_hand: { gt: 0 } } });
  const names = new Map(
    (await w.t.db.prisma.location.findMany({ where: { id: { in: rows.map((r) => r.location_id) } } })).map((l) => [l.id, l.name]),
  );
  return Object.fromEntries(rows.map((r) => [`${names.get(r.location_id)}${r.lot_code ? `/${r.lot_code}` : ''}`, r.on_hand]));
}

async function acceptedFo(lines: ReturnType<typeof line>[]) {
  const order = await w.order({ line_items: lines, payment_status: 'PAID' });
  const [fo] = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id } });
  expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
  return fo.id;
}

describe('held stock', () => {
  it('puts damaged receipt units in a DAMAGED location made on demand, even when the line names a pickable bin', async () => {
    const p = await w.product('HELD-1');
    expect(await w.t.db.prisma.location.count({ where: { warehouse_id: w.east, type: 'DAMAGED' } })).toBe(0);
    const r = await receive('HELD-1', [
      { quantity: 5, location: 'A-01' },
      { quantity: 2, condition: 'DAMAGED', location: 'A-01' },
      { quantity: 1, condition: 'DAMAGED' },
    ]);
    expect(r.lines.map((l: any) => [l.condition, l.location_name, l.putaway])).toEqual([
      ['SELLABLE', 'A-01', null],
      ['DAMAGED', 'DAMAGED', 'DAMAGED_LOCATION'],
      ['DAMAGED', 'DAMAGED', 'DAMAGED_LOCATION'],
    ]);
    const dmg = await w.t.db.prisma.location.findMany({ where: { warehouse_id: w.east, type: 'DAMAGED' } });
    expect(dmg.map((l) => [l.id, l.name, l.active, l.is_default])).toEqual([[`damaged-${w.east}`, 'DAMAGED', true, false]]);
    expect(await bins(p)).toEqual({ 'A-01': 5, DAMAGED: 3 });
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 8, unavailable: 3, committed: 0 });
    const moved = await w.t.db.prisma.inventoryMovement.findMany({
      where: { product_id: p, bucket: 'on_hand', location_id: dmg[0].id },
      select: { delta: true, kind: true, reason: true },
    });
    expect(moved).toEqual([
      { delta: 2, kind: 'RECEIVED', reason: 'DAMAGED' },
      { delta: 1, kind: 'RECEIVED', reason: 'DAMAGED' },
    ]);
    // A second receipt reuses it; a line naming a held bin keeps that bin.
    await receive('HELD-1', [
      { quantity: 1, condition: 'DAMAGED', location: 'Q-01' },
      { quantity: 1, condition: 'DAMAGED' },
    ]);
    expect(await bins(p)).toEqual({ 'A-01': 5, DAMAGED: 4, 'Q-01': 1 });
    expect(await w.t.db.prisma.location.count({ where: { warehouse_id: w.east, type: 'DAMAGED' } })).toBe(1);
    await binLedgerBalanced(w.t.db, [p]);
  });

  it('lists QUARANTINE as a location type and filters by it', async () => {
    const r = await http('GET', `/v1/ops/locations?warehouse_id=${w.east}&type=QUARANTINE,DAMAGED`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.map((l: any) => [l.name, l.type]).sort()).toEqual([
      ['DAMAGED', 'DAMAGED'],
      ['Q-01', 'QUARANTINE'],
    ]);
    const bad = await http('POST', '/v1/ops/locations', { warehouse_id: w.east, name: 'X-1', type: 'ON_HOLD' });
    expect(bad.status).toBe(400);
  });

  it('never plans, picks or fulfills from DAMAGED or QUARANTINE bins', async () => {
    const p = await w.product('HELD-2');
    // 2 pickable, 3 on hold in quarantine (a sellable receipt into Q-01), 4 damaged.
    await receive('HELD-2', [
      { quantity: 2, location: 'A-02' },
      { quantity: 3, location: 'Q-01' },
      { quantity: 4, condition: 'DAMAGED' },
    ]);
    expect(await bins(p)).toEqual({ 'A-02': 2, 'Q-01': 3, DAMAGED: 4 });
    const fo = await acceptedFo([line('HELD-2', 4)]);
    const s = await http('POST', '/v1/ops/picking-sessions', { name: 'H1', fulfillment_order_ids: [fo] });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    const walk = (await http('GET', `/v1/ops/picking-sessions/${s.body.id}/pick-list`)).body;
    expect(walk.rows.map((r: any) => [r.location_name, r.sku, r.quantity])).toEqual([['A-02', 'HELD-2', 2]]);
    expect(walk.short).toEqual([{ fulfillment_order_id: fo, product_id: p, sku: 'HELD-2', quantity: 2 }]);
    // A fulfill of 4 cannot take the held units: 409, nothing moves.
    await http('POST', `/v1/ops/fulfillment-orders/${fo}/lock`, { lock_owner: 'p', timeout_minutes: 5 });
    const pkg = await http('POST', '/v1/ops/packages', {
      fulfillment_order_id: fo,
      weight: 100,
      weight_unit: 'G',
      package_line_items: [{ sku: 'HELD-2', quantity: 4 }],
    });
    expect(pkg.status, JSON.stringify(pkg.body)).toBe(201);
    const label = await http('POST', `/v1/ops/packages/${pkg.body.id}/label`, {
      label_url: 'https://labels.example/l.pdf',
      tracking_number: 'TRKHELD2',
      carrier: 'USPS',
      service: 'Priority',
      cost: 7.1,
      cost_currency: 'USD',
    });
    expect(label.status, JSON.stringify(label.body)).toBe(200);
    const f = await http('POST', `/v1/ops/packages/${pkg.body.id}/fulfill`, { locked_by: 'p' });
    expect(f.status, JSON.stringify(f.body)).toBe(409);
    expect(f.body.detail).toMatch(/QUARANTINE/);
    expect(await bins(p)).toEqual({ 'A-02': 2, 'Q-01': 3, DAMAGED: 4 });
    await binLedgerBalanced(w.t.db, [p]);
  });

  it('receives a return into the chosen bin and lot, by default the lot it shipped from; damaged returns to DAMAGED', async () => {
    const p = await w.product('HELD-LOT');
    await w.t.db.prisma.product.update({ where: { id: p }, data: { lot_tracked: true } });
    await receive('HELD-LOT', [{ quantity: 2, lot_code: 'L-1', expiration_date: '2031-01-31', location: 'A-01' }]);
    await receive('HELD-LOT', [{ quantity: 3, lot_code: 'L-2', expiration_date: '2031-06-30', location: 'A-02' }]);
    // Ships 4: both of L-1 (earliest expiry), then 2 of L-2, so the most recent lot that left is L-2.
    const order = await w.order({ line_items: [line('HELD-LOT', 4)], payment_status: 'PAID' });
    expect(await fulfillOrder(w.t.db, http, order.id)).toEqual([200]);
    expect(await bins(p)).toEqual({ 'A-02/L-2': 1 });
    const ret = await http('POST', '/v1/ops/returns', { order_id: order.id, lines: [{ sku: 'HELD-LOT', quantity: 4 }] });
    expect(ret.status, JSON.stringify(ret.body)).toBe(201);
    const rec = (body: unknown) => http('POST', `/v1/ops/returns/${ret.body.id}/receive`, body);
    expect((await rec({ location: 'NOPE', lines: [{ sku: 'HELD-LOT', quantity: 1 }] })).status).toBe(404);
    expect((await rec({ lines: [{ sku: 'HELD-LOT', quantity: 1, lot: 'x' }] })).status).toBe(400);
    const a = await rec({ location: 'A-01', lines: [{ sku: 'HELD-LOT', quantity: 1 }] });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const b = await rec({ lines: [{ sku: 'HELD-LOT', quantity: 1, lot_code: 'L-1', location: 'Q-01' }] });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    const c = await rec({ location: 'A-01', lines: [{ sku: 'HELD-LOT', quantity: 2, condition: 'DAMAGED' }] });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body).toMatchObject({ status: 'RECEIVED', lines: [{ quantity_received: 4, quantity_restocked: 2, quantity_damaged: 2 }] });
    expect(await bins(p)).toEqual({ 'A-02/L-2': 1, 'A-01/L-2': 1, 'Q-01/L-1': 1, 'DAMAGED/L-2': 2 });
    const rows = await w.t.db.prisma.locationStock.findMany({ where: { product_id: p, lot_code: 'L-2', location_id: loc['A-01'] } });
    expect(rows.map((r) => r.expiration_date)).toEqual(['2031-06-30']);
    const returned = await w.t.db.prisma.inventoryMovement.findMany({
      where: { product_id: p, kind: 'RETURNED', bucket: 'on_hand' },
      orderBy: { created_at: 'asc' },
      select: { delta: true, lot_code: true, location_id: true, reason: true },
    });
    expect(returned).toEqual([
      { delta: 1, lot_code: 'L-2', location_id: loc['A-01'], reason: null },
      { delta: 1, lot_code: 'L-1', location_id: loc['Q-01'], reason: null },
      { delta: 2, lot_code: 'L-2', location_id: `damaged-${w.east}`, reason: 'DAMAGED' },
    ]);
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 5, unavailable: 2 });
    await binLedgerBalanced(w.t.db, [p]);
  });

  it('refuses a lot-tracked return with no lot it shipped from unless one is given', async () => {
    const p = await w.product('HELD-NOLOT', { [w.east]: 3 });
    const order = await w.order({ line_items: [line('HELD-NOLOT', 1)], payment_status: 'PAID' });
    expect(await fulfillOrder(w.t.db, http, order.id)).toEqual([200]);
    await w.t.db.prisma.product.update({ where: { id: p }, data: { lot_tracked: true } });
    const ret = await http('POST', '/v1/ops/returns', { order_id: order.id, lines: [{ sku: 'HELD-NOLOT', quantity: 1 }] });
    const r = await http('POST', `/v1/ops/returns/${ret.body.id}/receive`, { lines: [{ sku: 'HELD-NOLOT', quantity: 1 }] });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.errors).toEqual([{ path: 'lines[0].lot_code', message: expect.stringMatching(/HELD-NOLOT is lot-tracked/) }]);
    expect(await w.level(p, w.east)).toMatchObject({ on_hand: 2 });
    const ok = await http('POST', `/v1/ops/returns/${ret.body.id}/receive`, {
      lines: [{ sku: 'HELD-NOLOT', quantity: 1, lot_code: 'L-9' }],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await bins(p)).toEqual({ DEFAULT: 2, 'DEFAULT/L-9': 1 });
    await binLedgerBalanced(w.t.db, [p]);
  });

  it('puts damaged units of a transfer in the DAMAGED location', async () => {
    const p = await w.product('HELD-TR', { [w.west]: 5 });
    const t = await http('POST', '/v1/ops/inventory/transfers', {
      from_warehouse_id: w.west,
      to_warehouse_id: w.east,
      lines: [{ sku: 'HELD-TR', quantity: 3 }],
    });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    const r = await http('POST', `/v1/ops/inventory/transfers/${t.body.id}/receive`, {
      lines: [
        { sku: 'HELD-TR', quantity: 2 },
        { sku: 'HELD-TR', quantity: 1, condition: 'DAMAGED' },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await bins(p)).toEqual({ DEFAULT: 2, DAMAGED: 1 });
    await binLedgerBalanced(w.t.db, [p]);
  });
});
