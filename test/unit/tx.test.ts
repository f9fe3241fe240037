import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { transaction, TX_POLICY } from '../../src/db/tx.js';
import type { Db } from '../../src/db/types.js';
import { freshDb } from '../helpers/db.js';

// The one retry policy of src/db/tx.ts, on a real database: what a failed attempt wrote is rolled
// back before the next one runs, and only retryable failures are retried.
describe('transaction()', () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await freshDb());
  });
  afterAll(async () => cleanup());

  const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  const serialization = () => Object.assign(new Error('could not serialize access'), { code: 'P2034' });

  test('a serialization failure or SQLITE_BUSY re-runs the whole function on a rolled-back transaction', async () => {
    let runs = 0;
    const name = `retried-${Date.now()}`;
    const id = await transaction(db, async (tx) => {
      runs++;
      const team = await tx.team.create({ data: { name, kind: 'MERCHANT' } });
      if (runs === 1) throw busy();
      if (runs === 2) throw serialization();
      return team.id;
    });
    expect(runs).toBe(3);
    expect((await db.prisma.team.findMany({ where: { name } })).map((t) => t.id)).toEqual([id]);
  });

  test('other errors are not retried; attempts and retryOn change the policy where an area needs it', async () => {
    let runs = 0;
    await expect(
      transaction(db, async () => {
        runs++;
        throw new Error('rule broken');
      }),
    ).rejects.toThrow('rule broken');
    expect(runs).toBe(1);

    runs = 0;
    await expect(
      transaction(db, async () => {
        runs++;
        throw busy();
      }),
    ).rejects.toThrow('database is locked');
    expect(runs).toBe(TX_POLICY.attempts);

    runs = 0;
    await expect(
      transaction(
        db,
        async () => {
          runs++;
          throw busy();
        },
        { attempts: 2 },
      ),
    ).rejects.toThrow('database is locked');
    expect(runs).toBe(2);

    runs = 0;
    const taken = new Error('number taken');
    expect(await transaction(db, async () => (++runs < 3 ? Promise.reject(taken) : runs), { retryOn: (e) => e === taken })).toBe(3);
  });
});
