// The scripted day of issue 34, step by step, as docs/floor.md "A day on the floor" tells it (keep
// the two in step: a command changed here is changed there). Run by
// test/e2e/day-on-the-floor.test.ts (SQLite; FOS_TEST_DB=postgres for PostgreSQL) and by
// test/pg/day-on-the-floor.pg.test.ts (`npm run test:pg`).
//
// Steps that need a feature not merged yet are written in after-merge.ts (and, for "stock", beside
// the step they replace) and are not called yet; each says how to switch it on:
//   "pack":  shipFromStation (for packAtStation + shipStationBoxesToday), batchTakesOverStationBoxes
//            (for shipStationBoxesToday), refusedShortfallThenPartial (for splitOffShortfall, with
//            shipBatch(day, 5)), shortPack;
//   "stock": receiveDamagedIntoDamagedLocation (for receiveDamagedToday), returnLotUnit (for
//            returnUnitToday, and checkStock(…, returned) then checks the DEFAULT bin too);
//   "keys":  floorLanguage.
import { expect } from 'vitest';
import { checkNothingBadShipped, checkOrders, checkPackages, checkStock } from './checks.js';
import { countShortBins, returnUnitToday, scanForm } from './evening.js';
import { openFloor, type Floor } from './floor.js';
import { packAtStation, pickWave, shipBatch, shipStationBoxesToday, splitOffShortfall, startWave } from './floor-work.js';
import { receiveTrucks, setUp, takeOrders } from './morning.js';

export async function aDayOnTheFloor(db: 'sqlite' | 'postgres', opened: (f: Floor) => void): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const out = await fn();
    timings[name] = Math.round(performance.now() - t0);
    return out;
  };
  const f = await step('serve', () => openFloor(db));
  opened(f);
  // Morning: set-up, the trucks, the shops' orders.
  const day = await step('set-up', () => setUp(f));
  await step('receiving', () => receiveTrucks(day));
  await step('orders', () => takeOrders(day));
  // The floor: a wave, picked; the short answered; two boxes packed at the station and shipped; the batch.
  const wave = await step('wave', () => startWave(day));
  await step('fos pick', () => pickWave(day, wave));
  await step('short', () => splitOffShortfall(day, wave));
  await step('fos pack', () => packAtStation(day, wave));
  await step('ship station boxes', () => shipStationBoxesToday(day, wave));
  const results = await step('fulfill run', () => shipBatch(day));
  expect(results.map((r) => r.status)).toEqual(results.map(() => 'fulfilled'));
  expect(results).toHaveLength(18);
  // Evening: a return, the count the short pick asked for, the scan form.
  await step('return', () => returnUnitToday(day));
  await step('count', () => countShortBins(day, wave));
  const form = await step('scan form', () => scanForm(day));
  expect(form).toMatchObject({ package_count: 20, warehouse_name: 'Bradford Annex' });
  // The checks.
  await step('checks', async () => {
    await checkOrders(day, wave);
    const shipped = await checkPackages(day, wave, form.id);
    await checkStock(day, shipped);
    await checkNothingBadShipped(day, shipped);
  });
  return timings;
}
