import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isTransientFailure } from '../../src/db/client.js';
import { statementsOf } from '../../src/db/statements.js';
import { onTxRetry, transaction, txRetryCounts, type TxRetryEvent } from '../../src/db/tx.js';
import type { Db } from '../../src/db/types.js';
import { freshDb } from '../helpers/db.js';

// Issue 36 item 1: a deadlock PostgreSQL still finds (40P01) is retried inside transaction(),
// counted for metrics (onTxRetry), and, when no attempt is left, reaches the caller as a
// transient failure (the API's 503), never as a 500. The deadlock is made on purpose: two
// transactions lock two rows in opposite orders, each waiting for the other's first lock
// (barriers, not timing). On a retry the barriers are passed, so the retried one simply waits.

describe('transaction() on PostgreSQL: deadlocks retried and counted', () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let ids: [string, string];
  beforeAll(async () => {
    ({ db, cleanup } = await freshDb('postgres'));
    const a = await db.prisma.team.create({ data: { name: 'deadlock a', kind: 'MERCHANT' } });
    const b = await db.prisma.team.create({ data: { name: 'deadlock b', kind: 'MERCHANT' } });
    ids = [a.id, b.id];
  }, 60_000);
  afterAll(async () => cleanup());

  /** Two transactions locking ids in opposite orders; each resolves with its outcome. */
  function opposite(attempts: number) {
    const signal: Array<() => void> = [];
    const reached = [0, 1].map((i) => new Promise<void>((r) => (signal[i] = r)));
    const lock = (tx: Parameters<Parameters<typeof transaction>[1]>[0], id: string) =>
      statementsOf(tx).all(`SELECT "id" FROM "teams" WHERE "id" = ? FOR UPDATE`, [id]);
    return Promise.allSettled(
      [0, 1].map((i) =>
        transaction(
          db,
          async (tx) => {
            await lock(tx, ids[i]);
            signal[i]();
            await reached[1 - i];
            await lock(tx, ids[1 - i]);
            return i;
          },
          { attempts },
        ),
      ),
    );
  }

  test('the deadlock victim is re-run and both commit; onTxRetry sees a deadlock', async () => {
    const seen: TxRetryEvent[] = [];
    const off = onTxRetry((e) => seen.push(e));
    const before = txRetryCounts().deadlock;
    const out = await opposite(6);
    off();
    expect(out.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(seen).toEqual([{ cause: 'deadlock', attempt: 1, exhausted: false }]);
    expect(txRetryCounts().deadlock).toBe(before + 1);
  }, 30_000);

  test('out of attempts: the deadlock reaches the caller as a transient failure (503), reported exhausted', async () => {
    const seen: TxRetryEvent[] = [];
    const off = onTxRetry((e) => seen.push(e));
    const out = await opposite(1);
    off();
    const failed = out.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect(isTransientFailure(failed[0].reason)).toBe(true);
    expect(seen).toEqual([{ cause: 'deadlock', attempt: 1, exhausted: true }]);
  }, 30_000);
});
