import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from './orders.fixtures.js';
import { binLedgerBalanced } from './floor.fixtures.js';

// Work orders (issue 28): building an ASSEMBLY product consumes its components from bins
// (pickable first, FEFO) and adds the kits to a bin in one transaction; every movement carries
// work_order_id; short components are a 409 naming them and write nothing; Idempotency-Key is
// honoured; list, get and the refusals. Two work orders racing for the last components: one wins.

let w: World;
const ids: Record<string, string> = {};
beforeAll(async () => {
  w = await world();
  const made = await w.call('POST', '/v1/ops/locations/bulk', {
    warehouse_id: w.east,
    locations: [
      { name: 'A-01', type: 'PICKABLE', pick_sequence: 1 },
      { name: 'A-02', type: 'PICKABLE', pick_sequence: 2 },
      { name: 'O-01', type: 'OVERSTOCK', pick_sequence: 3 },
      { name: 'K-01', type: 'PICKABLE', pick_sequence: 9 },
    ],
  });
  expect(made.statusCode, made.body).toBe(201);
  // Owned by the ops team, like the assemblies it creates below (components belong to the assembly's team).
  for (const sku of ['PART-1', 'PART-2', 'PART-H', 'PLAIN']) ids[sku] = await w.product(sku, {}, { merchantId: w.t.teamId });
  await receive('PART-1', [
    { quantity: 5, location: 'A-01' },
    { quantity: 10, location: 'O-01' },
  ]);
  await receive('PART-2', [{ quantity: 3, location: 'A-02' }]);
  ids.KIT = await assembly('KIT-1', [
    { component_product_id: ids['PART-1'], component_quantity: 2 },
    { component_product_id: ids['PART-2'], component_quantity: 1 },
  ]);
  ids.HALF = await assembly('KIT-HALF', [{ component_product_id: ids['PART-H'], component_quantity: 0.5 }]);
  ids.EMPTY = await assembly('KIT-EMPTY', []);
});
afterAll(() => w?.t.close());

async function assembly(sku: string, components: Record<string, unknown>[]) {
  const r = await w.call('POST', '/v1/ops/products', {
    name: sku,
    sku,
    type: 'ASSEMBLY',
    measurement_unit: 'MM',
    weight_unit: 'G',
    assembly_components: components,
  });
  expect(r.statusCode, r.body).toBe(201);
  return r.json().id as string;
}

async function receive(sku: string, lines: Record<string, unknown>[]) {
  const total = lines.reduce((n, l) => n + (l.quantity as number), 0);
  const po = await w.call('POST', '/v1/ops/purchase-orders', { warehouse_id: w.east, lines: [{ sku, quantity: total }] });
  const r = await w.call('POST', `/v1/ops/purchase-orders/${po.json().id}/receive`, { lines: lines.map((l) => ({ sku, ...l })) });
  expect(r.statusCode, r.body).toBe(200);
}

const build = (body: Record<string, unknown>, key?: string) =>
  w.t.call('POST', '/v1/ops/work-orders', {
    token: w.token,
    body: { warehouse_id: w.east, ...body },
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });
const onHand = async (id: string) =>
  (await w.t.db.prisma.inventoryLevel.findUnique({ where: { product_id_warehouse_id: { product_id: id, warehouse_id: w.east } } }))
    ?.on_hand ?? 0;
const all = () => Object.values(ids);

describe('work orders', () => {
  let first: any;
  it('consumes the components pickable first and adds the kits to the bin named, with work_order_id on every movement', async () => {
    const r = await build({ product_id: ids.KIT, quantity: 3, location_id: 'K-01', note: 'morning kits' });
    expect(r.statusCode, r.body).toBe(201);
    first = r.json();
    expect(first).toMatchObject({
      product_id: ids.KIT,
      sku: 'KIT-1',
      quantity: 3,
      location_name: 'K-01',
      status: 'COMPLETED',
      note: 'morning kits',
    });
    const parts = Object.fromEntries(
      first.components.map((c: any) => [c.sku, [c.quantity, c.parts.map((p: any) => [p.location_name, p.quantity])]]),
    );
    expect(parts).toEqual({
      'PART-1': [
        6,
        [
          ['A-01', 5],
          ['O-01', 1],
        ],
      ],
      'PART-2': [3, [['A-02', 3]]],
    });
    expect([await onHand(ids['PART-1']), await onHand(ids['PART-2']), await onHand(ids.KIT)]).toEqual([9, 0, 3]);
    const moved = (await w.call('GET', `/v1/ops/inventory/movements?work_order_id=${first.id}`)).json().data;
    expect(moved.map((m: any) => `${m.kind} ${m.sku} ${m.delta}`).sort()).toEqual([
      'ASSEMBLED KIT-1 3',
      'CONSUMED PART-1 -1',
      'CONSUMED PART-1 -5',
      'CONSUMED PART-2 -3',
    ]);
    expect(moved.every((m: any) => m.work_order_id === first.id && m.reference_id === first.id)).toBe(true);
    await binLedgerBalanced(w.t.db, all());
  });

  it('answers 409 naming every short component, and writes nothing', async () => {
    const before = await w.t.db.prisma.inventoryMovement.count();
    const r = await build({ product_id: ids.KIT, quantity: 5 });
    expect(r.statusCode, r.body).toBe(409);
    expect(r.json().detail).toContain('PART-1 (needs 10, 9 available)');
    expect(r.json().detail).toContain('PART-2 (needs 5, 0 available)');
    expect(r.json().short.map((s: any) => s.sku)).toEqual(['PART-1', 'PART-2']);
    expect(await w.t.db.prisma.inventoryMovement.count()).toBe(before);
    expect(await w.t.db.prisma.workOrder.count()).toBe(1);
  });

  it('puts the kits away when no bin is named and honours an Idempotency-Key', async () => {
    await receive('PART-2', [{ quantity: 2, location: 'A-02' }]);
    const a = await build({ product_id: ids.KIT, quantity: 1 }, 'kit-key-1');
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json().location_name).toBe('K-01');
    const again = await build({ product_id: ids.KIT, quantity: 1 }, 'kit-key-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(a.json().id);
    expect(await onHand(ids.KIT)).toBe(4);
    const other = await build({ product_id: ids.KIT, quantity: 2 }, 'kit-key-1');
    expect(other.statusCode, other.body).toBe(409);
    await binLedgerBalanced(w.t.db, all());
  });

  it('lists newest first with filters, and gets one', async () => {
    const list = (await w.call('GET', `/v1/ops/work-orders?product_id=${ids.KIT}&warehouse_id=${w.east}`)).json();
    expect(list.data.map((o: any) => o.quantity)).toEqual([1, 3]);
    expect((await w.call('GET', `/v1/ops/work-orders?warehouse_id=${w.west}`)).json().data).toEqual([]);
    const paged = (await w.call('GET', '/v1/ops/work-orders?limit=1')).json();
    expect(paged.meta.has_next_page).toBe(true);
    const next = (await w.call('GET', `/v1/ops/work-orders?limit=1&cursor=${paged.meta.next_cursor}`)).json();
    expect(next.data[0].id).toBe(first.id);
    const one = await w.call('GET', `/v1/ops/work-orders/${first.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(first);
    expect((await w.call('GET', '/v1/ops/work-orders/00000000-0000-7000-8000-000000000000')).statusCode).toBe(404);
  });

  it('refuses what it cannot build', async () => {
    const missing = '00000000-0000-7000-8000-000000000000';
    const cases: [Record<string, unknown>, number, string][] = [
      [{ product_id: ids.PLAIN, quantity: 1 }, 400, 'STANDARD'],
      [{ product_id: ids.EMPTY, quantity: 1 }, 400, 'no assembly_components'],
      [{ product_id: ids.HALF, quantity: 1 }, 400, 'not a whole number'],
      [{ product_id: missing, quantity: 1 }, 404, 'Product'],
      [{ product_id: ids.KIT, quantity: 1, warehouse_id: missing }, 404, 'Warehouse'],
      [{ product_id: ids.KIT, quantity: 1, location_id: 'NO-SUCH-BIN' }, 404, 'location_id'],
      [{ product_id: ids.KIT, quantity: 0 }, 400, 'quantity'],
      [{ product_id: ids.KIT, quantity: 1, lines: [] }, 400, 'lines'],
    ];
    for (const [body, status, text] of cases) {
      const r = await build(body);
      expect(r.statusCode, `${JSON.stringify(body)}: ${r.body}`).toBe(status);
      expect(r.headers['content-type']).toContain('application/problem+json');
      expect(r.body).toContain(text);
    }
  });

  it('lets exactly one of two work orders racing for the last components win; the ledger stays exact', async () => {
    // One kit's worth of PART-2 is left: both requests pass the first check, the guarded UPDATE decides.
    expect(await onHand(ids['PART-2'])).toBe(1);
    const [a, b] = await Promise.all([build({ product_id: ids.KIT, quantity: 1 }), build({ product_id: ids.KIT, quantity: 1 })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const lost = a.statusCode === 409 ? a : b;
    expect(lost.json().detail).toContain('PART-2');
    expect([await onHand(ids['PART-1']), await onHand(ids['PART-2']), await onHand(ids.KIT)]).toEqual([5, 0, 5]);
    await binLedgerBalanced(w.t.db, all());
  });
});
