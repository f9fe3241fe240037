// The scripted day of issue 34, step by step, as docs/floor.md "A day on the floor" tells it (keep
// the two in step: a command changed here is changed there). Run by
// test/e2e/day-on-the-floor.test.ts (SQLite; FOS_TEST_DB=postgres for PostgreSQL) and by
// test/pg/day-on-the-floor.pg.test.ts (`npm run test:pg`).
import { expect } from 'vitest';
import { checkNothingBadShipped, checkOrders, checkPackages, checkStock } from './checks.js';
import { countShortBins, returnLotUnit, scanForm } from './evening.js';
import { openFloor, type Floor } from './floor.js';
import { pickWave, startWave } from './floor-work.js';
import { receiveTrucks, setUp, takeOrders } from './morning.js';
import { floorLanguage, shipBatch, shipFromStation, shipPartials, shortPack } from './station.js';

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
  await step('floor keys', () => floorLanguage(day));
  // The floor: a wave, picked (a short pick); packed at the station (one box shipped there, one left
  // to the batch, one short); the batch takes over the station's box and refuses the shorts, which
  // the lead ships as partials.
  const wave = await step('wave', () => startWave(day));
  await step('fos pick', () => pickWave(day, wave));
  await step('fos pack', () => shipFromStation(day, wave));
  await step('short pack', () => shortPack(day, wave));
  const results = await step('fulfill run', () => shipBatch(day, wave));
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(17);
  await step('partials', () => shipPartials(day, wave));
  // Evening: a return, the count the short pick asked for, the scan form.
  const returned = await step('return', () => returnLotUnit(day, wave));
  await step('count', () => countShortBins(day, wave));
  const form = await step('scan form', () => scanForm(day));
  expect(form).toMatchObject({ package_count: 20, warehouse_name: 'Bradford Annex' });
  // The checks.
  await step('checks', async () => {
    await checkOrders(day, wave);
    const shipped = await checkPackages(day, wave, form.id);
    await checkStock(day, shipped, returned);
    await checkNothingBadShipped(day, shipped);
  });
  return timings;
}
