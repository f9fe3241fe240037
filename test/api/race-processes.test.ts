import { describe, it } from 'vitest';
import { freshSqliteUrl } from '../helpers/db.js';
import { raceScenarios } from '../helpers/replica-races.js';
import { twoProcessesOn } from '../helpers/replicas.js';

// Two `fos serve` processes (the built CLI: `npm run build` first) on ONE SQLite file: each
// process has its own connection, so writers meet at SQLite's file lock. Every fulfillment
// write transaction starts with a write (a compare-and-set UPDATE), so it takes the write lock
// at once, waiting busy_timeout, instead of failing with SQLITE_BUSY when a read transaction
// tries to upgrade. (Rate-limit counters are per process on SQLite: not shared, not tested here.)

const races = raceScenarios(twoProcessesOn(freshSqliteUrl));

describe('two fos serve processes on one SQLite file', () => {
  it('lock: 10 owners racing across both processes, exactly one wins', () => races.lockRace());
  it('fulfill: one package from both processes at once, one 200 and one 409, decremented once', () => races.samePackageFulfillRace(3));
  it('fulfill: two fulfillment orders over-claiming one order line: exactly one goes through', () => races.overClaimRace(2));
  it('packages: creates racing across processes never allocate more than remains', () => races.packageCreateRace());
  it(
    'inventory: receipts, adjustments, a count, converts and fulfills of one level across both processes: the ledger explains every unit',
    () => races.inventoryRace(),
    120_000,
  );
  it(
    'contention: 12 requests in flight on one purchase order and one SKU across both processes: only 2xx, 409 or 503 with retry-after, and the ledger explains every unit',
    () => races.contentionRace(2),
    120_000,
  );
});
