import { describe, it } from 'vitest';
import { freshSqliteUrl } from '../helpers/db.js';
import { moveRaceScenarios } from '../helpers/move-races.js';
import { twoProcessesOn } from '../helpers/replicas.js';

// Two `fos serve` processes (the built CLI: `npm run build` first) on ONE SQLite file: a move or a
// split and a lock of the same fulfillment order from different processes (test/helpers/move-races.ts).

const races = moveRaceScenarios(twoProcessesOn(freshSqliteUrl));

describe('move and split vs lock across two fos serve processes on one SQLite file', () => {
  it(
    'move vs lock: never moved under a lock (a lock first refuses the move naming its holder), the ledger exact',
    () => races.moveVsLock(4),
    120_000,
  );
  it(
    'split vs lock: never split under a lock (a lock first refuses the split naming its holder), the ledger exact',
    () => races.splitVsLock(4),
    120_000,
  );
});
