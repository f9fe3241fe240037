import { afterAll, describe, it } from 'vitest';
import type { Floor } from './day/floor.js';
import { aDayOnTheFloor } from './day/run.js';

// Issue 34's scripted day (docs/floor.md "A day on the floor"): `fos serve` spawned, and the whole
// day run through `bin/fos.js` as a warehouse lead runs it, the stations on a pseudo-terminal. The
// steps are in test/e2e/day/run.ts. SQLite here (`npm test`, needs `npm run build`);
// FOS_TEST_DB=postgres runs it on PostgreSQL, as test/pg/day-on-the-floor.pg.test.ts does in
// `npm run test:pg`.

const DB = process.env.FOS_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
let floor: Floor | undefined;
afterAll(() => floor?.close());

describe(`a day on the floor (${DB})`, () => {
  it('set-up, receiving, 20 orders, a wave picked and packed at the stations, shipped, a return, end of day', async () => {
    const timings = await aDayOnTheFloor(DB, (f) => (floor = f));
    if (process.env.FOS_DAY_TIMINGS) console.log(timings);
  }, 900_000); // ~100 spawned commands on a shared 2-core machine (2-6 min seen): a budget, not a timing assumption
});
