import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onTxRetry, type TxRetryEvent } from '../../src/db/tx.js';
import { twoAppsOn } from '../helpers/app-replicas.js';
import { freshPostgresUrl } from '../helpers/db.js';
import { lockOrderScenarios } from '../helpers/lock-order-races.js';

// Issue 36 item 1: cross-table lock order on PostgreSQL. Two API servers in this process, each
// with its own connection pool, on one fresh database (so this process sees every retry the
// transaction helper makes); each pair raced many rounds, and not one deadlock may have needed a
// retry: the pair takes its rows in the one global order (docs/fulfillment.md "Race-freedom").

const races = lockOrderScenarios(twoAppsOn(freshPostgresUrl));
const retries: TxRetryEvent[] = [];
let off: () => void;
beforeAll(() => void (off = onTxRetry((e) => retries.push(e))));
afterAll(() => off());
const log = (what: string, figures: object) => console.info(`[lock-order] ${what}: ${JSON.stringify(figures)}`);

describe('cross-table lock order on PostgreSQL: no deadlock to retry', () => {
  it('a fulfill vs a receipt filling the same order line’s backorder: 25 rounds, both succeed, 0 deadlocks', async () => {
    retries.length = 0;
    try {
      log('fulfill vs backorder fill', await races.fulfillVsBackorderFill(25));
    } finally {
      log('retries', retries);
    }
    expect(retries.filter((e) => e.cause === 'deadlock')).toEqual([]);
  }, 180_000);

  it('a hold vs a package of the order: 30 rounds, the hold stands, the package made first or refused, 0 deadlocks', async () => {
    retries.length = 0;
    log('hold vs package', await races.holdVsPack(30));
    expect(retries.filter((e) => e.cause === 'deadlock')).toEqual([]);
  }, 180_000);
});
