import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { line, world, type World } from './orders.fixtures.js';
import { httpCall } from './inventory.fixtures.js';
import { binLedgerBalanced } from './floor.fixtures.js';

// Scan-checked picking (issue 28; docs/floor.md): every refusal (wrong bin, item, lot, tote,
// over-pick, expired lot, unknown bin or barcode) with its `expected`, short picks, idempotent
// retries, undo, two scanners racing on one row, and package lines carrying the picked lot and
// bin into the fulfill's FULFILLED movements.

let w: World;
let base: string;
const loc: Record<string, string> = {};
beforeAll(async () => {
  w = await world();
  base = (await w.t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  const made = await http('POST', '/v1/ops/locations/bulk', {
    warehouse_id: w.east,
    locations: [{ name: 'A-01', barcode: 'LOC-A01' }, { name: 'A-02' }, { name: 'O-01', type: 'OVERSTOCK' }, { name: 'B-09' }],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  for (const l of made.body.data) loc[l.name] = l.id;
});
afterAll(() => w?.t.close());

const http = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  headers['idempotency-key'] ? keyed(method, path, body, headers) : httpCall(base, w.token, method, path, body);

async function keyed(method: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-access-token': w.token, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any, replayed: res.headers.get('idempotent-replayed') };
}

async function product(sku: string, barcode: string, lotTracked = false) {
  const id = await w.product(sku);
  await w.t.db.prisma.product.update({ where: { id }, data: { barcode, lot_tracked: lotTracked } });
  return id;
}

async function receive(sku: string, lines: Record<string, unknown>[]) {
  const total = lines.reduce((n, l) => n + (l.quantity as number), 0);
  const po = await http('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku, quantity: total }] });
  expect(po.status, JSON.stringify(po.body)).toBe(201);
  const r = await http('POST', `/v1/ops/purchase-orders/${po.body.id}/receive`, { lines: lines.map((l) => ({ sku, ...l })) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** An accepted fulfillment order of a new order in East. */
async function acceptedFo(lines: ReturnType<typeof line>[]) {
  const order = await w.order({ line_items: lines, payment_status: 'PAID' });
  const [fo] = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id } });
  expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
  return fo.id;
}

const scan = (session: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  http('POST', `/v1/ops/picking-sessions/${session}/scans`, body, headers);
const walk = async (session: string) => (await http('GET', `/v1/ops/picking-sessions/${session}/pick-list`)).body;
const rowsOf = (list: any) => list.rows.map((r: any) => [r.location_name, r.sku, r.lot_code, r.picked, r.short, r.remaining]);

describe('pick scans', () => {
  let session: string;
  let fo1: string;
  let fo2: string;
  let scanId: string;
  beforeAll(async () => {
    await product('SCAN-1', '111');
    await product('LOT-9', '999', true);
    await receive('SCAN-1', [
      { quantity: 3, location: 'A-01' },
      { quantity: 10, location: 'O-01' },
    ]);
    await receive('LOT-9', [
      { quantity: 5, location: 'A-02', lot_code: 'L-OLD', expiration_date: '2020-01-01' },
      { quantity: 4, location: 'A-02', lot_code: 'L-GOOD', expiration_date: '2099-01-01' },
    ]);
    fo1 = await acceptedFo([line('SCAN-1', 2), line('LOT-9', 2)]);
    fo2 = await acceptedFo([line('SCAN-1', 3)]);
    const s = await http('POST', '/v1/ops/picking-sessions', { name: 'S1', fulfillment_order_ids: [fo1, fo2] });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    expect(s.body.fulfillment_order_count).toBe(2);
    session = s.body.id;
  });

  it('lists the walk with picked and remaining, each fulfillment order in a tote of its own', async () => {
    const list = await walk(session);
    expect(list.complete).toBe(false);
    expect(rowsOf(list)).toEqual([
      ['A-01', 'SCAN-1', null, 0, 0, 3],
      ['A-02', 'LOT-9', 'L-GOOD', 0, 0, 2],
      ['O-01', 'SCAN-1', null, 0, 0, 2],
    ]);
    expect(list.rows[0].totes.map((t: any) => [t.tote_name, t.remaining])).toEqual([
      ['S1-01', 2],
      ['S1-02', 1],
    ]);
  });

  it('refuses wrong bin, item, lot, tote, an over-pick and an expired lot (409), unknown bin or barcode (422), with what is expected', async () => {
    const expected = { location_name: 'A-01', sku: 'SCAN-1', lot_code: null, quantity: 3, tote_name: 'S1-01' };
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ location: 'B-09', barcode: '111' }, 409, /Wrong bin/],
      [{ location: 'A-01', barcode: '999' }, 409, /Wrong item/],
      [{ location: 'A-02', barcode: 'LOT-9', lot_code: 'L-NONE' }, 409, /Wrong lot.*L-GOOD/],
      [{ location: 'A-02', barcode: '999', lot_code: 'L-OLD' }, 409, /Expired lot/],
      [{ location: 'A-01', barcode: '111', quantity: 3 }, 409, /More than needed: tote S1-01 needs 2/],
      [{ location: 'A-01', barcode: '111', tote: 'S1-09' }, 409, /Wrong tote/],
      [{ location: 'NOWHERE', barcode: '111' }, 422, /Unknown location/],
      [{ location: 'A-01', barcode: 'NOPE' }, 422, /Unknown barcode/],
    ];
    for (const [body, status, detail] of cases) {
      const r = await scan(session, body);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.detail).toMatch(detail);
      expect(r.body.expected).toEqual(expected);
    }
    expect((await scan(session, { location: 'A-01', barcode: '111', extra: 1 })).status).toBe(400);
    expect((await scan('0193aaaa-0000-7000-8000-000000000000', { location: 'A-01', barcode: '111' })).status).toBe(404);
    expect(rowsOf(await walk(session))[0]).toEqual(['A-01', 'SCAN-1', null, 0, 0, 3]);
  });

  it('records a scan by bin barcode and SKU, and a retried scan with the same Idempotency-Key applies once', async () => {
    const first = await scan(session, { location: 'LOC-A01', barcode: 'SCAN-1', quantity: 2 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.scan).toMatchObject({
      location_name: 'A-01',
      sku: 'SCAN-1',
      quantity: 2,
      tote_name: 'S1-01',
      fulfillment_order_id: fo1,
    });
    expect(first.body.next).toMatchObject({ location_name: 'A-01', remaining: 1, picked: 2 });
    const body = { location: 'A-01', barcode: '111', tote: 'S1-02' };
    const a = await scan(session, body, { 'idempotency-key': 'pick-a01-1' });
    const b = await scan(session, body, { 'idempotency-key': 'pick-a01-1' });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.scan.id).toBe(a.body.scan.id);
    expect((b as any).replayed).toBe('true');
    expect(a.body.next).toMatchObject({ location_name: 'A-02', sku: 'LOT-9', lot_code: 'L-GOOD', remaining: 2 });
    expect(rowsOf(await walk(session))[0]).toEqual(['A-01', 'SCAN-1', null, 3, 0, 0]);
    const again = await scan(session, { location: 'A-01', barcode: '111' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/More than needed: all SCAN-1 at A-01 are picked/);
  });

  it('records a short pick (fulfillment order flagged, bin marked for a count) and undoes it', async () => {
    const short = await scan(session, { location: 'O-01', barcode: '111', quantity: 2, short: true });
    expect(short.status, JSON.stringify(short.body)).toBe(200);
    scanId = short.body.scan.id;
    expect(short.body.scan).toMatchObject({ short: true, fulfillment_order_id: fo2 });
    const list = await walk(session);
    expect(rowsOf(list)).toContainEqual(['O-01', 'SCAN-1', null, 0, 2, 0]);
    // No other bin holds SCAN-1 (A-01's 3 are in totes): the units are listed as short.
    expect(list.short).toEqual([expect.objectContaining({ fulfillment_order_id: fo2, sku: 'SCAN-1', quantity: 2 })]);
    expect((await http('GET', `/v1/ops/fulfillment-orders/${fo2}`)).body.short_picked).toBe(true);
    expect((await w.t.db.prisma.location.findUnique({ where: { id: loc['O-01'] } }))!.count_requested_at).not.toBeNull();
    // The count task list: bins a short pick marked; a count of the bin (nothing changed here) clears it.
    const toCount = async () =>
      (await http('GET', `/v1/ops/locations?warehouse_id=${w.east}&count_requested=true`)).body.data.map((l: any) => l.name);
    expect(await toCount()).toEqual(['O-01']);
    const counted = await http('POST', '/v1/ops/inventory/adjustments', {
      warehouse_id: w.east,
      reason: 'CYCLE_COUNT',
      location: 'O-01',
      lines: [{ sku: 'SCAN-1', counted: 10 }],
    });
    expect(counted.status, JSON.stringify(counted.body)).toBe(201);
    expect(await toCount()).toEqual([]);
    const entries = await http('GET', `/v1/ops/v1/picking-sessions/${session}/fulfillment-orders`);
    expect(entries.body.data.map((e: any) => [e.fulfillment_order_id, e.tote_name, e.picked_quantity, e.short_picked])).toEqual(
      expect.arrayContaining([
        [fo1, 'S1-01', 2, false],
        [fo2, 'S1-02', 1, true],
      ]),
    );
    const undo = await w.t.call('DELETE', `/v1/ops/picking-sessions/${session}/scans/${scanId}`, { token: w.token });
    expect(undo.statusCode, undo.body).toBe(204);
    expect((await http('GET', `/v1/ops/fulfillment-orders/${fo2}`)).body.short_picked).toBe(false);
    expect(rowsOf(await walk(session))).toContainEqual(['O-01', 'SCAN-1', null, 0, 0, 2]);
    const gone = await w.t.call('DELETE', `/v1/ops/picking-sessions/${session}/scans/${scanId}`, { token: w.token });
    expect(gone.statusCode).toBe(404);
  });

  it('takes an expired lot only with allow_expired; the session completes', async () => {
    const r = await scan(session, { location: 'A-02', barcode: '999', lot_code: 'L-OLD', quantity: 2, allow_expired: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.scan).toMatchObject({ lot_code: 'L-OLD', fulfillment_order_id: fo1 });
    expect(r.body.next).toMatchObject({ location_name: 'O-01', remaining: 2 });
    const last = await scan(session, { location: 'O-01', barcode: '111', quantity: 2 });
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    expect(last.body).toMatchObject({ next: null, complete: true });
    const list = await walk(session);
    expect(list.complete).toBe(true);
    expect(rowsOf(list)).toEqual([
      ['A-01', 'SCAN-1', null, 3, 0, 0],
      ['A-02', 'LOT-9', 'L-OLD', 2, 0, 0],
      ['O-01', 'SCAN-1', null, 2, 0, 0],
    ]);
  });

  it('makes package lines of the picked lots and ships them from the picked bins', async () => {
    expect((await http('POST', `/v1/ops/fulfillment-orders/${fo1}/lock`, { lock_owner: 'p', timeout_minutes: 5 })).status).toBe(200);
    const pkg = await http('POST', '/v1/ops/packages', {
      fulfillment_order_id: fo1,
      weight: 100,
      weight_unit: 'G',
      package_line_items: [
        { sku: 'SCAN-1', quantity: 2 },
        { sku: 'LOT-9', quantity: 2 },
      ],
    });
    expect(pkg.status, JSON.stringify(pkg.body)).toBe(201);
    expect(pkg.body.package_line_items.map((l: any) => [l.sku, l.quantity, l.lot_code, l.expiration_date?.slice(0, 10) ?? null])).toEqual([
      ['SCAN-1', 2, null, null],
      ['LOT-9', 2, 'L-OLD', '2020-01-01'],
    ]);
    const label = await http('POST', `/v1/ops/packages/${pkg.body.id}/label`, {
      label_url: 'https://l.example/x.pdf',
      tracking_number: `P${pkg.body.id.slice(-9)}`,
      carrier: 'UPS',
      service: 'Ground',
      cost: 1,
      cost_currency: 'USD',
    });
    expect(label.status).toBe(200);
    const done = await http('POST', `/v1/ops/packages/${pkg.body.id}/fulfill`, { locked_by: 'p' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const moves = await w.t.db.prisma.inventoryMovement.findMany({
      where: { reference_id: pkg.body.id, kind: 'FULFILLED', bucket: 'on_hand' },
      select: { location_id: true, lot_code: true, delta: true },
    });
    expect(moves.map((m) => [m.location_id, m.lot_code, m.delta]).sort()).toEqual(
      [
        [loc['A-01'], null, -2],
        [loc['A-02'], 'L-OLD', -2],
      ].sort(),
    );
    const ids = (await w.t.db.prisma.product.findMany({ where: { sku: { in: ['SCAN-1', 'LOT-9'] } } })).map((p) => p.id);
    await binLedgerBalanced(w.t.db, ids);
    // fo1 left the walk; fo2's picks stay.
    expect(rowsOf(await walk(session))).toEqual([
      ['A-01', 'SCAN-1', null, 1, 0, 0],
      ['O-01', 'SCAN-1', null, 2, 0, 0],
    ]);
  });

  it('two scanners on one row: exactly one gets the last unit', async () => {
    await product('RACE-1', '777');
    await receive('RACE-1', [{ quantity: 5, location: 'A-02' }]);
    const fo = await acceptedFo([line('RACE-1', 1)]);
    const s = await http('POST', '/v1/ops/picking-sessions', { fulfillment_order_ids: [fo] });
    expect(s.status).toBe(201);
    for (let round = 0; round < 3; round++) {
      const [a, b] = await Promise.all([
        scan(s.body.id, { location: 'A-02', barcode: '777' }),
        scan(s.body.id, { location: 'A-02', barcode: '777' }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const list = await walk(s.body.id);
      expect(rowsOf(list)).toEqual([['A-02', 'RACE-1', null, 1, 0, 0]]);
      const ok = a.status === 200 ? a : b;
      expect(
        (await w.t.call('DELETE', `/v1/ops/picking-sessions/${s.body.id}/scans/${ok.body.scan.id}`, { token: w.token })).statusCode,
      ).toBe(204);
    }
    expect(await w.t.db.prisma.pickScan.count({ where: { picking_session_id: s.body.id } })).toBe(0);
  });
});

describe("the walk serves a session's orders in the wave's order", () => {
  it('priority first, then oldest: a bin short of units shorts the lowest priority, not the newest', async () => {
    await product('PRIO-1', '777');
    await receive('PRIO-1', [{ quantity: 2, location: 'B-09' }]);
    const placed = async (priority: string) => {
      const order = await w.order({ line_items: [line('PRIO-1', 1)], payment_status: 'PAID', priority });
      const [fo] = await w.t.db.prisma.fulfillmentOrder.findMany({ where: { order_id: order.id } });
      expect((await http('POST', `/v1/ops/fulfillment-orders/${fo.id}/accept`)).status).toBe(200);
      return fo.id;
    };
    const low = await placed('LOW'); // the older: by age alone it would get the unit left
    const normal = await placed('NORMAL');
    const s = await http('POST', '/v1/ops/picking-sessions', { name: 'P1', fulfillment_order_ids: [low, normal] });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    const counted = await http('POST', '/v1/ops/inventory/adjustments', {
      warehouse_id: w.east,
      reason: 'CYCLE_COUNT',
      location: 'B-09',
      lines: [{ sku: 'PRIO-1', counted: 1 }],
      force: true, // a unit is missing though both orders were promised one
    });
    expect(counted.status, JSON.stringify(counted.body)).toBe(201);
    const list = await walk(s.body.id);
    const row = list.rows.find((r: any) => r.sku === 'PRIO-1');
    expect(row.totes.map((t: any) => [t.fulfillment_order_id, t.remaining])).toEqual([[normal, 1]]);
    expect(list.short).toEqual([expect.objectContaining({ fulfillment_order_id: low, sku: 'PRIO-1', quantity: 1 })]);
  });
});
