import { describe, expect, it } from 'vitest';
import { freshSqliteUrl } from '../helpers/db.js';
import { packRaceScenarios } from '../helpers/pack-races.js';
import { twoProcessesOn } from '../helpers/replicas.js';

// The races of test/pg/pack-replicas.test.ts on SQLite (one writer: nothing to lock there, the
// invariants must hold all the same): two `fos serve` processes (`npm run build` first) on ONE file.

const races = packRaceScenarios(twoProcessesOn(freshSqliteUrl));

describe('package, move, split, cancel, allocation and count races across two fos serve processes on one SQLite file', () => {
  it('package vs move, vs split; cancel vs package; allocation vs count: the invariants hold', async () => {
    await races.packVsMove(2);
    await races.packVsSplit(2);
    await races.cancelVsPack(2);
    await races.allocationVsCount(2);
  }, 60_000);

  it('16 fulfills of the same 2 SKUs at once over 2 processes: every one a 200', async () => {
    expect((await races.concurrentFulfills(16)).ok).toBe(16);
  }, 60_000);
});
