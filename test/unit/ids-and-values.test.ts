import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { newId } from '../../src/db/ids.js';
import { statementsOf } from '../../src/db/statements.js';
import { transaction } from '../../src/db/tx.js';
import { insertValues } from '../../src/db/values.js';
import { freshDb } from '../helpers/db.js';

// src/db/ids.ts (the ids our own statements write) and insertValues (src/db/values.ts: SQLite's
// multi-row VALUES writes of 100, 10 and the rest).

describe('newId', () => {
  test('gives UUIDv7s that rise in the order they were taken, many in one millisecond', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    // The first 48 bits are the time in ms (RFC 9562), within the test's own span.
    const ms = parseInt(ids[0].replace('-', '').slice(0, 12), 16);
    expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
  });
});

describe('insertValues (SQLite)', () => {
  let fresh: Awaited<ReturnType<typeof freshDb>>;
  let db: Db;
  beforeAll(async () => {
    fresh = await freshDb('sqlite');
    db = fresh.db;
  });
  afterAll(() => fresh?.cleanup());

  test.each([0, 1, 9, 10, 11, 99, 100, 123, 2_000])(
    'writes %i rows, in order, in 100- and 10-row statements and one for the rest',
    async (n) => {
      const table = `t_${n}`;
      const sql: string[] = [];
      await transaction(db, async (tx) => {
        const st = statementsOf(tx);
        await st.run(`CREATE TABLE "${table}" ("n" INTEGER NOT NULL, "label" TEXT)`, []);
        const run = (text: string, params: readonly unknown[]) => (sql.push(text), st.run(text, params));
        await insertValues(
          { run },
          `INSERT INTO "${table}" ("n", "label")`,
          Array.from({ length: n }, (_, i) => [i, `row ${i}`]),
        );
      });
      const rows = await db.prisma.$queryRawUnsafe<{ n: number; label: string }[]>(`SELECT "n", "label" FROM "${table}" ORDER BY rowid`);
      expect(rows.map((r) => Number(r.n))).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(rows.every((r) => r.label === `row ${r.n}`)).toBe(true);
      const rest = n % 10;
      expect(sql.length).toBe(Math.floor(n / 100) + Math.floor((n % 100) / 10) + (rest ? 1 : 0));
    },
  );
});
