import { afterAll, describe, expect, it } from 'vitest';
import { checkNothingBadShipped, checkOrders, checkPackages, checkStock } from './day/checks.js';
import { countShortBins, returnUnitToday, scanForm } from './day/evening.js';
import { openFloor, type Floor } from './day/floor.js';
import { packAtStation, pickWave, shipBatch, shipStationBoxesToday, splitOffShortfall, startWave } from './day/floor-work.js';
import { receiveTrucks, setUp, takeOrders } from './day/morning.js';

const DB = process.env.FOS_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
let f: Floor | undefined;
afterAll(() => f?.close());

describe(`a day on the floor (${DB})`, () => {
  it('runs', async () => {
    f = await openFloor(DB);
    const day = await setUp(f);
    await receiveTrucks(day);
    await takeOrders(day);
    const wave = await startWave(day);
    await pickWave(day, wave);
    await splitOffShortfall(day, wave);
    await packAtStation(day, wave);
    await shipStationBoxesToday(day, wave);
    const results = await shipBatch(day);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 'fulfilled'));
    await returnUnitToday(day);
    await countShortBins(day, wave);
    const form = await scanForm(day);
    console.log(JSON.stringify({ wave, form }, null, 1));
    await checkOrders(day, wave);
    const shipped = await checkPackages(day, wave, form.id);
    console.log(shipped);
    await checkStock(day, shipped);
    await checkNothingBadShipped(day, shipped);
  }, 600_000);
});
