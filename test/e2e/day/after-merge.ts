// Steps of the scripted day that need the features issue 34 asks for, written now with the commands
// the issue describes and NOT CALLED until their branch merges ("pack", "keys"; "stock" steps are
// next to the steps they replace, in morning.ts and evening.ts). Each says what it replaces.
import { expect } from 'vitest';
import { fos, fosJson, Station } from './floor.js';
import { SHORT_SKU, STATION_ORDERS, type Wave } from './floor-work.js';
import { barcodeOf, type Day } from './morning.js';

/**
 * "pack" + "keys": the station ships the box it closes (`ship` after `done`), and the packer scans
 * the order number, not the fulfillment order id. Replaces packAtStation + shipStationBoxesToday.
 */
export async function shipFromStation(day: Day, wave: Wave): Promise<void> {
  const st = new Station(day.f, ['pack', '--rate-strategy', 'CHEAPEST', '--weight-unit', 'G', '--print']);
  await st.waitFor('SCAN');
  for (const [i, number] of STATION_ORDERS.entries()) {
    const fo = await fosJson(day.f, ['fulfillment-orders', 'get', day.orders[number].fo]);
    // The order number off the packing slip for the first box, the tote's name for the second.
    await st.scan(i === 0 ? `#${number}` : wave.totes[number], /NEXT: \d+ X/);
    if (number === STATION_ORDERS[0]) expect(await st.scan(barcodeOf('BB-CAP'), 'is not in this order')).toContain('\u0007');
    for (const l of fo.line_items) await st.scan(`${l.remaining_quantity}*${l.sku}`, `${l.remaining_quantity} x ${l.sku} in the box`);
    await st.scan('done', 'WEIGHT (G)');
    const closed = await st.scan('450', /Box closed: package \S+/);
    wave.stationPackages[number] = /Box closed: package (\S+)/.exec(closed)![1];
    await st.scan('ship', /shipped|fulfilled/i);
  }
  st.pty.type('quit\r');
  expect((await st.exit()).code).toBe(0);
  for (const number of STATION_ORDERS) {
    expect((await fosJson(day.f, ['fulfillment-orders', 'get', day.orders[number].fo])).status).toBe('FULFILLED');
  }
}

/**
 * "pack": the batch takes over boxes packed (and labelled) at a station without a second package,
 * and its --dry-run says so. Call after packAtStation instead of shipStationBoxesToday.
 */
export async function batchTakesOverStationBoxes(day: Day, wave: Wave): Promise<void> {
  const ids = STATION_ORDERS.map((n) => day.orders[n].fo).join('\n');
  const dry = await fos(day.f, ['fulfill', 'run', '--from', '-', '--dry-run'], { input: ids });
  for (const n of STATION_ORDERS) expect(dry.stdout + dry.stderr).toContain(wave.stationPackages[n]);
  const r = await fos(day.f, ['fulfill', 'run', '--from', '-', '--rate-strategy', 'CHEAPEST'], { input: ids });
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  for (const n of STATION_ORDERS) {
    expect(lines.find((l) => l.order_number === n)).toMatchObject({ status: 'fulfilled', package_id: wave.stationPackages[n] });
  }
}

/**
 * "pack": the batch refuses the short-picked order by default (exit 5, naming the SKU and the
 * shortfall), and ships the found units with --partial. Replaces splitOffShortfall; shipBatch then
 * expects exit 5 (pass `code: 5`) and this runs after it.
 */
export async function refusedShortfallThenPartial(day: Day, wave: Wave): Promise<void> {
  const fo = day.orders[wave.shortOrder].fo;
  const refused = await fos(day.f, ['fulfill', 'run', fo, '--rate-strategy', 'CHEAPEST'], { code: 5 });
  expect(refused.stderr).toContain(SHORT_SKU);
  expect(refused.stderr).toMatch(/short/i);
  const partial = await fos(day.f, ['fulfill', 'run', fo, '--partial', '--rate-strategy', 'CHEAPEST']);
  expect(JSON.parse(partial.stdout.trim().split('\n')[0])).toMatchObject({ status: 'fulfilled' });
}

/**
 * "pack": a short pack at the station — the packer finds one unit fewer in the tote and types
 * `short 1`; the box closes without it and the batch refuses the order until --partial.
 */
export async function shortPack(day: Day, number: string, sku: string): Promise<void> {
  const st = new Station(day.f, ['pack', '--fo', day.orders[number].fo, '--weight', '450', '--weight-unit', 'G']);
  await st.waitFor(/NEXT: \d+ X/);
  await st.scan('short 1', new RegExp(`short.*${sku}`, 'i'));
  await st.scan('done', /Box closed/);
  expect((await st.exit()).code).toBe(0);
  await fos(day.f, ['fulfill', 'run', day.orders[number].fo, '--rate-strategy', 'CHEAPEST'], { code: 5 });
}

/**
 * "keys": the commands a lead types name things by their floor keys (SKU, order number with or
 * without #, warehouse and bin names). Call anywhere after takeOrders (e.g. at the end of the day).
 */
export async function floorLanguage(day: Day): Promise<void> {
  expect(await fosJson(day.f, ['products', 'get', 'NW-GIFT'])).toMatchObject({ sku: 'NW-GIFT' });
  const byNumber = await fosJson<any[]>(day.f, ['fulfillment-orders', 'list', '--order-id', '1007']);
  expect(byNumber.map((f) => f.id)).toEqual([day.orders['1007'].fo]);
  for (const key of ['1007', '#1007']) {
    expect(await fosJson(day.f, ['fulfillment-orders', 'get', key])).toMatchObject({ id: day.orders['1007'].fo });
  }
  const hold = await fosJson(day.f, ['orders', 'hold', '1010', 'fraud_review']);
  expect(hold.active).toBe(true);
  const released = await fosJson(day.f, ['orders', 'release', '1010', hold.id.slice(0, 8)]);
  expect(released.active).toBe(false);
}
