import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { statementsOf } from '../../src/db/statements.js';
import { transaction } from '../../src/db/tx.js';
import type { Db } from '../../src/db/types.js';
import { freshDb } from '../helpers/db.js';

// transaction() on PostgreSQL runs its own transaction on a client of the pg pool (src/db/pg-tx.ts,
// issue 36): the stores' statements on that client, and Prisma's calls on `tx` in a Prisma
// transaction that joins it. Both must be ONE transaction: each sees the other's uncommitted
// writes, nobody else sees them before the commit, and a failure rolls all of them back.

describe('transaction() on PostgreSQL: statements and Prisma calls in one transaction', () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let teamId: string;
  beforeAll(async () => {
    ({ db, cleanup } = await freshDb('postgres'));
    teamId = (await db.prisma.team.create({ data: { name: 'own tx', kind: 'MERCHANT' } })).id;
  }, 60_000);
  afterAll(async () => cleanup());

  const nameOf = async () => (await db.prisma.team.findUniqueOrThrow({ where: { id: teamId } })).name;

  test('a Prisma call sees the statement before it, the statement sees the Prisma write, others see neither until the commit', async () => {
    const seen = await transaction(db, async (tx) => {
      await statementsOf(tx).run('UPDATE "teams" SET "name" = ? WHERE "id" = ?', ['by statement', teamId]);
      const byPrisma = (await tx.team.findUniqueOrThrow({ where: { id: teamId } })).name;
      await tx.team.update({ where: { id: teamId }, data: { name: 'by prisma' } });
      const [row] = await statementsOf(tx).all<{ name: string }>('SELECT "name" FROM "teams" WHERE "id" = ?', [teamId]);
      return { byPrisma, byStatement: row!.name, outside: await nameOf() };
    });
    expect(seen).toEqual({ byPrisma: 'by statement', byStatement: 'by prisma', outside: 'own tx' });
    expect(await nameOf()).toBe('by prisma');
  });

  test('a failure after both kinds of write rolls both back', async () => {
    const failure = new Error('after the writes');
    await expect(
      transaction(db, async (tx) => {
        await tx.team.update({ where: { id: teamId }, data: { name: 'rolled back by prisma' } });
        await statementsOf(tx).run('UPDATE "teams" SET "kind" = ? WHERE "id" = ?', ['FULFILLER', teamId]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    const team = await db.prisma.team.findUniqueOrThrow({ where: { id: teamId } });
    expect([team.name, team.kind]).toEqual(['by prisma', 'MERCHANT']);
  });

  test('a failed statement rolls back the transaction, and the pool serves the next one', async () => {
    await expect(
      transaction(db, async (tx) => {
        await tx.team.update({ where: { id: teamId }, data: { name: 'never' } });
        await statementsOf(tx).run('UPDATE "teams" SET "no_such_column" = 1 WHERE "id" = ?', [teamId]);
      }),
    ).rejects.toThrow(/no_such_column/);
    expect(await nameOf()).toBe('by prisma');
    // Ten transactions at once on a pool of ten: no client was kept by the failed one.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        transaction(db, (tx) => statementsOf(tx).run('UPDATE "teams" SET "name" = ? WHERE "id" = ?', [`n${i}`, teamId])),
      ),
    );
    expect(await nameOf()).toMatch(/^n\d$/);
  });
});
