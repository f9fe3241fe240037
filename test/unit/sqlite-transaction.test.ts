import { setImmediate } from 'node:timers';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { statementsOf } from '../../src/db/statements.js';
import { transaction } from '../../src/db/tx.js';
import { freshDb } from '../helpers/db.js';

// transaction() on SQLite (src/db/tx.ts, src/db/sqlite-serial.ts): our own BEGIN IMMEDIATE/COMMIT
// on the one connection, its turn held; Prisma calls on `tx` join it; nothing else interleaves.

let fresh: Awaited<ReturnType<typeof freshDb>>;
let db: Db;
beforeAll(async () => {
  fresh = await freshDb('sqlite');
  db = fresh.db;
});
afterAll(() => fresh?.cleanup());

const teamName = async (id: string) => (await db.prisma.team.findUnique({ where: { id } }))?.name ?? null;
const rename = (tx: Parameters<Parameters<typeof transaction>[1]>[0], id: string, name: string) =>
  statementsOf(tx).run('UPDATE "teams" SET "name" = ? WHERE "id" = ?', [name, id]);

describe('SQLite transaction()', () => {
  test('statements and Prisma calls on tx commit together, and roll back together', async () => {
    await db.prisma.team.create({ data: { id: 't-a', name: 'a', kind: 'FULFILLER' } });
    await transaction(db, async (tx) => {
      await rename(tx, 't-a', 'a2');
      await tx.team.create({ data: { id: 't-b', name: 'b', kind: 'MERCHANT' } }); // a Prisma transaction joining ours
      expect((await tx.team.findUnique({ where: { id: 't-a' } }))?.name).toBe('a2'); // sees the statement's write
    });
    expect([await teamName('t-a'), await teamName('t-b')]).toEqual(['a2', 'b']);

    const err = await transaction(db, async (tx) => {
      await rename(tx, 't-a', 'a3');
      await tx.team.create({ data: { id: 't-c', name: 'c', kind: 'MERCHANT' } });
      throw new Error('boom');
    }).catch((e: Error) => e);
    expect((err as Error).message).toBe('boom');
    expect([await teamName('t-a'), await teamName('t-c')]).toEqual(['a2', null]);
  });

  test('a query from outside waits for the transaction (never sees its uncommitted writes)', async () => {
    await db.prisma.team.create({ data: { id: 't-d', name: 'd', kind: 'FULFILLER' } });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    const tx = transaction(db, async (t) => {
      await rename(t, 't-d', 'uncommitted');
      inside();
      await gate;
      await rename(t, 't-d', 'd2');
    });
    await entered;
    const outside = teamName('t-d'); // queued behind the transaction's turn
    const order: string[] = [];
    void outside.then(() => order.push('read'));
    // Turns of the event loop in which a read that did not queue would have run (the driver is synchronous).
    for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
    order.push('release');
    release();
    await tx;
    expect(await outside).toBe('d2');
    expect(order).toEqual(['release', 'read']);
  });

  test('a transaction() inside a transaction() is refused rather than waiting for itself', async () => {
    const err = await transaction(db, () => transaction(db, async () => 1), { attempts: 1 }).catch((e: Error) => e);
    expect(String(err)).toMatch(/a transaction inside a transaction/);
  });

  test("waiting for the write lock another process holds leaves the event loop and this process's reads running", async () => {
    await db.prisma.team.create({ data: { id: 't-e', name: 'e', kind: 'FULFILLER' } });
    const other = new Database(db.url.slice('file:'.length)); // a second `fos serve` on the same file
    try {
      other.exec('BEGIN IMMEDIATE');
      let settled = false;
      // One attempt: a failed wait is not hidden by transaction()'s retries.
      const tx = transaction(db, (t) => rename(t, 't-e', 'e2'), { attempts: 1 }).finally(() => (settled = true));
      // The driver's own busy wait blocked inside this call and failed it before any of these turns.
      for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
      expect(await teamName('t-e')).toBe('e'); // a read of this process is answered meanwhile
      expect(settled).toBe(false);
      other.exec('COMMIT');
      await tx;
      expect(await teamName('t-e')).toBe('e2');
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  });
});
