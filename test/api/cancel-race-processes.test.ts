import { describe, it } from 'vitest';
import { freshSqliteUrl } from '../helpers/db.js';
import { cancelRaceScenarios } from '../helpers/cancel-races.js';
import { twoProcessesOn } from '../helpers/replicas.js';

// Two `fos serve` processes (the built CLI: `npm run build` first) on ONE SQLite file: a cancel
// and a fulfill of the same fulfillment order from different processes, and two receipts filling
// one backorder (test/helpers/cancel-races.ts).

const races = cancelRaceScenarios(twoProcessesOn(freshSqliteUrl));

describe('cancel and backorder races across two fos serve processes on one SQLite file', () => {
  it(
    'cancel vs fulfill of one fulfillment order: exactly one wins, the other is a 409, the ledger exact',
    () => races.cancelVsFulfill(4),
    120_000,
  );
  it('two receipts at once fill waiting orders by priority, no unit committed twice', () => races.twoReceiptsFillOneBackorder(), 60_000);
});
