// The pack station and the batch of the scripted day (docs/floor.md "A day on the floor", steps
// 5-6): `fos pack` on a terminal, by order number and tote (a wrong scan; `ship` after `done`; a box
// left for the batch; a short pack), then the README's pipeline, which takes over the station's box
// and refuses the short orders (exit 5) until the lead ships what was found with --partial.
import { expect } from 'vitest';
import { fos, fosJson, Station } from './floor.js';
import { SHORT_SKU, type Wave } from './floor-work.js';
import { barcodeOf, type Day } from './morning.js';

/** 1001 is packed and shipped at the station (`ship`); 2003 is packed there and left to the batch. */
export const STATION_ORDERS = ['1001', '2003'];
/** Packed at the station a gift box short (`short 1`): the packer found one of the two. */
export const SHORT_PACK = { order: '1004', sku: 'NW-GIFT' } as const;

const NEXT_ORDER = 'ship (the box just closed), or quit';
/** The station wraps its messages at the terminal's width: a phrase may span lines. */
const wrapped = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
const flat = (screen: string) => screen.replace(/\s+/g, ' ');

/**
 * `fos pack --print`, box after box: the packer scans the order number off the packing slip (#1001),
 * a cap (refused with the bell), the items, `done`, the weight; the label prints; `ship` ships it.
 * Then 2003's tote, its items, `done`, the weight: that box is left for the batch.
 */
export async function shipFromStation(day: Day, wave: Wave): Promise<void> {
  const st = new Station(day.f, ['pack', '--rate-strategy', 'CHEAPEST', '--weight-unit', 'G', '--print']);
  await st.waitFor('SCAN THE ORDER');
  for (const [i, number] of STATION_ORDERS.entries()) {
    const fo = await fosJson(day.f, ['fulfillment-orders', 'get', number]);
    await st.scan(i === 0 ? `#${number}` : wave.totes[number], /NEXT: \d+ X/);
    if (i === 0) expect(await st.scan(barcodeOf('BB-CAP'), 'is not in this order')).toContain('\u0007');
    for (const [j, l] of fo.line_items.entries()) {
      const q = l.remaining_quantity;
      const last = j === fo.line_items.length - 1;
      const shown = await st.scan(`${q}*${barcodeOf(l.sku)}`, last ? 'BOX COMPLETE' : `${q} x ${l.sku} in the box (${q} of ${q})`);
      expect(shown).toContain(`${q} x ${l.sku} in the box (${q} of ${q})`);
    }
    await st.scan('done', 'WEIGHT in grams (G)');
    const closed = await st.scan('450', NEXT_ORDER);
    expect(flat(closed)).toContain('Label sent to the printer');
    wave.stationPackages[number] = /Box closed: package (\S+)/.exec(flat(closed))![1];
    if (i === 0) {
      const shipped = await st.scan('ship', /Shipped: order \S+,\s+package\s+\S+,\s+tracking\s+UPS\d+/);
      expect(flat(shipped)).toContain(`Shipped: order ${number}, package ${wave.stationPackages[number]}`);
    }
  }
  st.pty.type('quit\r');
  expect((await st.exit()).code).toBe(0);
  expect((await fosJson(day.f, ['fulfillment-orders', 'get', '#1001'])).status).toBe('FULFILLED');
  expect((await fosJson(day.f, ['fulfillment-orders', 'get', '2003'])).status).toBe('ACCEPTED');
}

/** `fos pack --fo 1004 --ship`: one gift box of two is in the tote: `short 1`; the box is not shipped. */
export async function shortPack(day: Day, wave: Wave): Promise<void> {
  const { order, sku } = SHORT_PACK;
  const st = new Station(day.f, ['pack', '--fo', order, '--ship', '--rate-strategy', 'CHEAPEST', '--weight', '450', '--weight-unit', 'G']);
  await st.waitFor(/NEXT: 2 X/);
  await st.scan(
    'short 1',
    wrapped(`Short: 1 x ${sku} recorded missing, not packed. The lead ships the rest: fos fulfill run ${order} --partial`),
  );
  await st.scan(barcodeOf(sku), `1 x ${sku} in the box`);
  await st.scan('done', wrapped(`${sku} short 1`));
  expect((await st.exit()).code).toBe(0);
  const [pkg] = await fosJson<any[]>(day.f, ['packages', 'list', '--fulfillment-order-id', day.orders[order].fo]);
  expect(pkg).toMatchObject({ status: 'PENDING' });
  wave.stationPackages[order] = pkg.id;
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/**
 * The README's pipeline: every OPEN order into `fos fulfill run --from -`. The dry run says it takes
 * over 2003's box (and 1004's), and refuses the two short orders; the run ships 17 and exits 5.
 */
export async function shipBatch(day: Day, wave: Wave): Promise<any[]> {
  const open = await fos(day.f, ['orders', 'list', '--status', 'OPEN', '--all', '--json', 'id']);
  expect(JSON.parse(open.stdout)).toHaveLength(19); // 1001 shipped from the station
  const run = ['fulfill', 'run', '--from', '-', '--rate-strategy', 'CHEAPEST'];
  const plan = lines((await fos(day.f, [...run, '--dry-run'], { input: open.stdout, code: 5 })).stdout);
  const byNumber = (rs: any[], n: string) => rs.find((r) => r.order_number === n);
  expect(byNumber(plan, '2003').steps.filter((s: string) => s.startsWith('take over package'))).toEqual([
    expect.stringContaining(`take over package ${wave.stationPackages['2003']} (`),
  ]);
  const r = await fos(day.f, run, { input: open.stdout, code: 5 });
  const results = lines(r.stdout);
  for (const [n, sku] of [
    [wave.shortOrder, SHORT_SKU],
    [SHORT_PACK.order, SHORT_PACK.sku],
  ]) {
    expect(byNumber(results, n), n).toMatchObject({ status: 'failed', step: 'plan', state: 'nothing changed' });
    expect(byNumber(results, n).error.message).toContain(`${sku} short 1`);
  }
  expect(r.stderr).toContain(`${SHORT_SKU} short 1`);
  expect(byNumber(results, '2003')).toMatchObject({ status: 'fulfilled', package_id: wave.stationPackages['2003'] });
  // No second package: nothing left for the run to pack (package_ids only lists several).
  expect(byNumber(results, '2003').steps.filter((s: string) => s.startsWith('pack '))).toEqual([]);
  for (const p of plan) expect(byNumber(results, p.order_number).steps, p.order_number).toEqual(p.steps);
  return results;
}

/**
 * The lead ships what was found of the two short orders (`--partial`): the short units are split
 * off into a new PENDING fulfillment order. The missing cap is given up (cancelled); the gift box
 * is backordered (left PENDING).
 */
export async function shipPartials(day: Day, wave: Wave): Promise<void> {
  for (const n of [wave.shortOrder, SHORT_PACK.order]) {
    const [done] = lines((await fos(day.f, ['fulfill', 'run', n, '--partial', '--rate-strategy', 'CHEAPEST'])).stdout);
    expect(done, n).toMatchObject({ status: 'fulfilled' });
    expect(done.steps[0]).toMatch(/^split off the short units: /);
    if (n === SHORT_PACK.order) expect(done.package_id).toBe(wave.stationPackages[n]);
  }
  const rest = await fosJson<any[]>(day.f, ['fulfillment-orders', 'list', '--status', 'PENDING', '--all']);
  expect(rest.map((r) => r.order_id).sort()).toEqual([day.orders[wave.shortOrder].id, day.orders[SHORT_PACK.order].id].sort());
  const cap = rest.find((r) => r.order_id === day.orders[wave.shortOrder].id);
  await fos(day.f, ['fulfillment-orders', 'cancel', cap.id, '--reason', 'INVENTORY', '--yes']);
}

/**
 * The commands a lead types name things by their floor keys (SKU, order number with or without #,
 * hold reason). Run after the orders are accepted.
 */
export async function floorLanguage(day: Day): Promise<void> {
  expect(await fosJson(day.f, ['products', 'get', 'NW-GIFT'])).toMatchObject({ sku: 'NW-GIFT' });
  const byNumber = await fosJson<any[]>(day.f, ['fulfillment-orders', 'list', '--order-id', '1007']);
  expect(byNumber.map((f) => f.id)).toEqual([day.orders['1007'].fo]);
  for (const key of ['1007', '#1007']) {
    expect(await fosJson(day.f, ['fulfillment-orders', 'get', key])).toMatchObject({ id: day.orders['1007'].fo });
  }
  const hold = await fosJson(day.f, ['orders', 'hold', '#1010', 'fraud_review']);
  expect(hold.active).toBe(true);
  const released = await fosJson(day.f, ['orders', 'release', '1010', 'fraud_review']);
  expect(released).toMatchObject({ id: hold.id, active: false });
}
