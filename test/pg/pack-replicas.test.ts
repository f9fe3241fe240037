import { describe, expect, it } from 'vitest';
import { freshPostgresUrl } from '../helpers/db.js';
import { packRaceScenarios } from '../helpers/pack-races.js';
import { twoProcessesOn } from '../helpers/replicas.js';

// Issue 36: two `fos serve` processes (the built CLI: `npm run build` first) on ONE fresh
// PostgreSQL database. Compare-and-sets that depend on another table's rows, raced pair by pair
// (test/helpers/pack-races.ts), and sixteen fulfills of the same two SKUs at once.

const races = packRaceScenarios(twoProcessesOn(freshPostgresUrl));
const log = (what: string, figures: object) => console.info(`[pack-replicas] ${what}: ${JSON.stringify(figures)}`);

describe('package, move, split, cancel, allocation and count races across two fos serve processes on PostgreSQL', () => {
  it('package vs move: a package never ships from another warehouse than its fulfillment order', async () => {
    log('package vs move', await races.packVsMove(6));
  }, 60_000);

  it('package vs split: exactly one wins, no unit packed twice', async () => {
    log('package vs split', await races.packVsSplit(4));
  }, 60_000);

  it('cancel vs package: the cancel stands and leaves no open package', async () => {
    log('cancel vs package', await races.cancelVsPack(4));
  }, 60_000);

  it('allocation vs cycle count: never more committed than on hand, the ledger exact', async () => {
    log('allocation vs count', await races.allocationVsCount(4));
  }, 60_000);

  it('16 fulfills of the same 2 SKUs at once over 2 replicas: every one a 200', async () => {
    const r = await races.concurrentFulfills(16);
    log('16 fulfills', r);
    expect(r.ok).toBe(16);
  }, 90_000);
});
