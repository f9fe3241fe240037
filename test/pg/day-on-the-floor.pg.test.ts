import { afterAll, describe, it } from 'vitest';
import type { Floor } from '../e2e/day/floor.js';
import { aDayOnTheFloor } from '../e2e/day/run.js';

// Issue 34's scripted day on PostgreSQL, for `npm run test:pg` (the SQLite run is
// test/e2e/day-on-the-floor.test.ts; the steps are in test/e2e/day/run.ts). Spawns the built CLI:
// `npm run build` first (test:pg's pretest does).

let floor: Floor | undefined;
afterAll(() => floor?.close());

describe('a day on the floor (postgres)', () => {
  it('set-up, receiving, 20 orders, a wave picked and packed at the stations, shipped, a return, end of day', async () => {
    const timings = await aDayOnTheFloor('postgres', (f) => (floor = f));
    if (process.env.FOS_DAY_TIMINGS) console.log(timings);
  }, 900_000); // a budget for ~100 spawned commands on a busy machine, not a timing assumption
});
