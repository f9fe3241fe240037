// Morning of the scripted day (docs/floor.md "A day on the floor", steps 1-3): the 3PL sets up its
// warehouse, bins, two merchants and their products; the trucks are received with lots and a
// damaged carton; the two merchants' shops send their orders (draft orders, converted).
import { expect } from 'vitest';
import { fos, fosJson, type Floor } from './floor.js';

export const WAREHOUSE = 'Bradford Annex';

/** The catalogue: SKU, merchant, barcode, lot-tracked, and where its stock is put away. */
export const PRODUCTS = [
  { sku: 'NW-GREEN', merchant: 'NW', name: 'Sencha green tea 100 g', barcode: '5012345000011', lots: true },
  { sku: 'NW-BLACK', merchant: 'NW', name: 'Assam black tea 100 g', barcode: '5012345000028', lots: true },
  { sku: 'NW-GIFT', merchant: 'NW', name: 'Tea gift box', barcode: '5012345000035', lots: false },
  { sku: 'BB-TEE-M', merchant: 'BB', name: 'White tee M', barcode: '0700000000017', lots: false },
  { sku: 'BB-TEE-L', merchant: 'BB', name: 'White tee L', barcode: '0700000000024', lots: false },
  { sku: 'BB-CAP', merchant: 'BB', name: 'Navy cap', barcode: '0700000000031', lots: false },
] as const;
export type Sku = (typeof PRODUCTS)[number]['sku'];
export const barcodeOf = (sku: string) => PRODUCTS.find((p) => p.sku === sku)!.barcode;

/**
 * The day's 20 orders: 10 per merchant, order number -> lines. 1005 is CRITICAL; 2010 is LOW, so it
 * is the wave's last order and its tote the last one at every bin it is in: the picker's short cap
 * is always 2010's, which has a tee to ship as well (the orders are placed at once, so by age alone
 * the last cap could be 2008's, its only line: nothing to ship with --partial).
 */
export const ORDERS: Record<string, { merchant: 'NW' | 'BB'; lines: Partial<Record<Sku, number>>; priority?: string }> = {
  '1001': { merchant: 'NW', lines: { 'NW-GREEN': 2 } },
  '1002': { merchant: 'NW', lines: { 'NW-BLACK': 1, 'NW-GIFT': 1 } },
  '1003': { merchant: 'NW', lines: { 'NW-GREEN': 1, 'NW-BLACK': 1 } },
  '1004': { merchant: 'NW', lines: { 'NW-GIFT': 2 } },
  '1005': { merchant: 'NW', lines: { 'NW-GREEN': 3 }, priority: 'CRITICAL' },
  '1006': { merchant: 'NW', lines: { 'NW-BLACK': 2 } },
  '1007': { merchant: 'NW', lines: { 'NW-GREEN': 1, 'NW-GIFT': 1 } },
  '1008': { merchant: 'NW', lines: { 'NW-BLACK': 1 } },
  '1009': { merchant: 'NW', lines: { 'NW-GREEN': 2, 'NW-BLACK': 1 } },
  '1010': { merchant: 'NW', lines: { 'NW-GIFT': 1 } },
  '2001': { merchant: 'BB', lines: { 'BB-TEE-M': 1 } },
  '2002': { merchant: 'BB', lines: { 'BB-TEE-L': 2 } },
  '2003': { merchant: 'BB', lines: { 'BB-CAP': 1, 'BB-TEE-M': 1 } },
  '2004': { merchant: 'BB', lines: { 'BB-TEE-M': 2 } },
  '2005': { merchant: 'BB', lines: { 'BB-CAP': 2 } },
  '2006': { merchant: 'BB', lines: { 'BB-TEE-L': 1, 'BB-CAP': 1 } },
  '2007': { merchant: 'BB', lines: { 'BB-TEE-M': 1, 'BB-TEE-L': 1 } },
  '2008': { merchant: 'BB', lines: { 'BB-CAP': 1 } },
  '2009': { merchant: 'BB', lines: { 'BB-TEE-L': 3 } },
  '2010': { merchant: 'BB', lines: { 'BB-TEE-M': 1, 'BB-CAP': 1 }, priority: 'LOW' },
};

export const LOTS = {
  'G-2611': { sku: 'NW-GREEN', expires: '2027-03-31', units: 6 },
  'G-2612': { sku: 'NW-GREEN', expires: '2027-09-30', units: 12 },
  'B-2610': { sku: 'NW-BLACK', expires: '2027-01-31', units: 18, damaged: 2 },
} as const;

export interface Day {
  f: Floor;
  teamId: string;
  warehouseId: string;
  merchants: Record<'NW' | 'BB', string>;
  /** order number -> order id, and its fulfillment order id. */
  orders: Record<string, { id: string; fo: string }>;
  /** Where the putaway rule put each SKU (the receipt's answer). */
  bins: Record<string, string>;
}

const SHIP_TO = (n: string) => ({
  name: `Customer ${n}`,
  address1: `${n} Harbour Street`,
  city: 'Arlington',
  state: 'VA',
  country: 'US',
  zip: '22201',
});

/** Warehouse, merchants, delegations (server side, `fos admin`), a rate, and the bins. */
export async function setUp(f: Floor): Promise<Day> {
  const me = await fosJson(f, ['api', 'GET', '/me']);
  const teamId: string = me.team_id;
  const wh = await fosJson(f, [
    'admin',
    'warehouse',
    'create',
    '--team',
    teamId,
    '--name',
    WAREHOUSE,
    '--country',
    'US',
    '--city',
    'Bradford',
    '--zip',
    '16701',
    '--state',
    'PA',
    '--address1',
    '1 Annex Road',
  ]);
  const merchants = {} as Record<'NW' | 'BB', string>;
  for (const [key, name] of [
    ['NW', 'North Wind Tea'],
    ['BB', 'Blue Bay Apparel'],
  ] as const) {
    merchants[key] = (await fosJson(f, ['admin', 'team', 'create', '--kind', 'MERCHANT', '--name', name])).id;
    await fos(f, ['admin', 'delegation', 'create', '--merchant', merchants[key], '--fulfiller', teamId]);
  }
  await fos(
    f,
    ['carrier-rates', 'create', '--carrier-id', 'ups', '--carrier-name', 'UPS', '--service-id', 'ground'].concat([
      '--service-name',
      'Ground',
      '--amount',
      '5',
    ]),
  );
  await fos(f, ['locations', 'create', '--warehouse', WAREHOUSE, '--range', 'A-01..A-06']);
  await fos(f, ['locations', 'create', 'DMG', '--warehouse', WAREHOUSE, '--type', 'DAMAGED']);
  // Each merchant's catalogue, as the CSV it sent: one import per merchant.
  for (const m of ['NW', 'BB'] as const) {
    const rows = PRODUCTS.filter((p) => p.merchant === m).map((p) => `${p.sku},${p.name},STANDARD,${p.barcode},200,G,${p.lots}`);
    const csv = ['sku,name,type,barcode,weight,weight_unit,lot_tracked', ...rows].join('\n');
    const r = await fosJson(f, ['products', 'import', '-', '--merchant-team', merchants[m]], { input: `${csv}\n` });
    expect(r).toMatchObject({ created: 3, failed: 0 });
  }
  return { f, teamId, warehouseId: wh.id, merchants, orders: {}, bins: {} };
}

/** North Wind's tea in two lots into A-01, black tea into A-02; Blue Bay's by the putaway rule. */
export async function receiveTrucks(day: Day): Promise<void> {
  const { f } = day;
  const nw = await fosJson(
    f,
    ['purchase-orders', 'create', '--warehouse', WAREHOUSE, '--merchant', day.merchants.NW].concat([
      '--reference',
      'NW-PO-1',
      'NW-GREEN=18',
      'NW-BLACK=20',
      'NW-GIFT=10',
    ]),
  );
  for (const lot of ['G-2611', 'G-2612'] as const) {
    const { units, expires } = LOTS[lot];
    await fos(f, ['purchase-orders', 'receive', nw.id, `NW-GREEN=${units}`, '--lot', lot, '--expires', expires, '--location', 'A-01']);
  }
  await receiveDamagedIntoDamagedLocation(day, nw.id);
  await fos(f, ['purchase-orders', 'receive', nw.id, 'NW-GIFT=10', '--location', 'A-03']);
  day.bins = { 'NW-GREEN': 'A-01', 'NW-BLACK': 'A-02', 'NW-GIFT': 'A-03' };

  const bb = await fosJson(
    f,
    ['purchase-orders', 'create', '--warehouse', WAREHOUSE, '--merchant', day.merchants.BB].concat([
      '--reference',
      'BB-PO-1',
      'BB-TEE-M=20',
      'BB-TEE-L=20',
      'BB-CAP=6',
    ]),
  );
  const receipt = await fosJson(f, ['purchase-orders', 'receive', bb.id, 'BB-TEE-M=20', 'BB-TEE-L=20', 'BB-CAP=6']);
  for (const l of receipt.lines) {
    expect(l.putaway).toBe('EMPTY_BIN'); // no bin named: each product into its own empty pickable bin
    day.bins[l.sku] = l.location_name;
  }
  expect(new Set(Object.values(day.bins)).size).toBe(6);
}

/**
 * The black tea's receipt names the pickable bin A-02; its two damaged cartons still land in the
 * warehouse's DAMAGED location (DMG), never picked.
 */
export async function receiveDamagedIntoDamagedLocation(day: Day, po: string): Promise<void> {
  const { units, damaged, expires } = LOTS['B-2610'];
  const r = await fosJson(
    day.f,
    ['purchase-orders', 'receive', po, `NW-BLACK=${units}`, '--damaged', `NW-BLACK=${damaged}`].concat([
      '--lot',
      'B-2610',
      '--expires',
      expires,
      '--location',
      'A-02',
    ]),
  );
  expect(r.lines.map((l: any) => [l.condition, l.location_name]).sort()).toEqual(
    [
      ['DAMAGED', 'DMG'],
      ['SELLABLE', 'A-02'],
    ].sort(),
  );
}

/** The shops' orders: a draft order per order, converted, PAID; the 3PL accepts them. */
export async function takeOrders(day: Day): Promise<void> {
  const { f } = day;
  await Promise.all(
    Object.entries(ORDERS).map(async ([number, o]) => {
      const lines = Object.entries(o.lines).flatMap(([sku, q]) => ['--line-item', `sku=${sku},quantity=${q},price=12`]);
      const draft = await fosJson(
        f,
        ['draft-orders', 'create', '--merchant', day.merchants[o.merchant], '--order-number', number]
          .concat(['--payment-status', 'PAID', '--customer-name', `Customer ${number}`, ...(o.priority ? ['--priority', o.priority] : [])])
          .concat([...lines, '--data', JSON.stringify({ shipping_address: SHIP_TO(number) })]),
      );
      const order = await fosJson(f, ['draft-orders', 'convert', draft.id]);
      day.orders[number] = { id: order.id, fo: '' };
    }),
  );
  const fos20 = await fosJson<any[]>(f, ['fulfillment-orders', 'list', '--status', 'PENDING', '--all']);
  expect(fos20).toHaveLength(20);
  await Promise.all(
    fos20.map(async (fo) => {
      const number = Object.keys(day.orders).find((n) => day.orders[n].id === fo.order_id)!;
      day.orders[number].fo = fo.id;
      expect((await fosJson(f, ['fulfillment-orders', 'accept', fo.id])).status).toBe('ACCEPTED');
    }),
  );
}
