// Evening of the scripted day (docs/floor.md "A day on the floor", steps 7-8): a customer sends a
// lot-tracked unit back, the bin the short pick marked is counted, and the driver's scan form.
import { expect } from 'vitest';
import { fos, fosJson } from './floor.js';
import { SHORT_SKU, type Wave } from './floor-work.js';
import { WAREHOUSE, type Day } from './morning.js';

export const RETURNED = { order: '1001', sku: 'NW-GREEN' } as const;

/**
 * Order 1001's customer sends one green tea back: received into its pickable bin (`--location`);
 * no --lot given, it goes back into the lot it shipped from (the ledger says which).
 */
export async function returnLotUnit(day: Day, wave: Wave): Promise<{ lot: string }> {
  const from = Object.keys(wave.picked[RETURNED.order]).find((k) => k.includes(`|${RETURNED.sku}|`))!;
  const lot = from.split('|')[2];
  const bin = day.bins[RETURNED.sku];
  const ret = await fosJson(day.f, ['returns', 'create', RETURNED.order, `${RETURNED.sku}=1`, '--reason', 'NO_LONGER_NEEDED']);
  const got = await fosJson(day.f, ['returns', 'receive', ret.id, `${RETURNED.sku}=1`, '--location', bin]);
  expect(got.status).toBe('RECEIVED');
  const moves = await fosJson<any[]>(day.f, ['inventory', 'movements', '--reference', ret.id]);
  expect(moves.filter((m) => m.bucket === 'on_hand')).toMatchObject([{ sku: RETURNED.sku, delta: 1, lot_code: lot }]);
  return { lot };
}

/** The bins the short pick marked are counted: the caps' bin is empty, as the picker found it. */
export async function countShortBins(day: Day, _wave: Wave): Promise<void> {
  const marked = await fosJson<any[]>(day.f, ['locations', 'list', '--warehouse', WAREHOUSE, '--count-requested', 'true']);
  expect(marked.map((l) => l.name)).toEqual([day.bins[SHORT_SKU]]);
  await fos(day.f, ['inventory', 'count', '--warehouse', WAREHOUSE, '--location', day.bins[SHORT_SKU], `${SHORT_SKU}=0`]);
  const after = await fosJson<any[]>(day.f, ['locations', 'list', '--warehouse', WAREHOUSE, '--count-requested', 'true']);
  expect(after).toEqual([]);
}

/** The driver's scan form: every package labelled today, UPS, at the warehouse. */
export async function scanForm(day: Day): Promise<any> {
  return fosJson(day.f, ['scan-forms', 'create', '--warehouse', WAREHOUSE, '--carrier', 'ups']);
}
