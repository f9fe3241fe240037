import Database from 'libsql';
import { afterAll, describe, expect, test } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { inListSize, padInLists, SQLITE_MAX_BIND_VALUES } from '../../src/db/in-lists.js';
import { migrate } from '../../src/db/migrate.js';
import { freshSqliteUrl, type FreshUrl } from '../helpers/db.js';

const fresh: FreshUrl[] = [];
afterAll(async () => {
  await Promise.all(fresh.map((f) => f.cleanup()));
});

const list = (n: number, sep = ',') => Array(n).fill('?').join(sep);

describe('IN lists padded to a few lengths (one prepared statement per length otherwise)', () => {
  test('lengths 1-4 stay, then 6, 8, 12, 16, 24, 32, 48, 64...: at most half again, a handful of texts up to 500', () => {
    const sizes = Array.from({ length: 500 }, (_, i) => inListSize(i + 1));
    expect(sizes.slice(0, 17)).toEqual([1, 2, 3, 4, 6, 6, 8, 8, 12, 12, 12, 12, 16, 16, 16, 16, 24]);
    sizes.forEach((size, i) => {
      expect(size).toBeGreaterThanOrEqual(i + 1);
      expect(size).toBeLessThanOrEqual(Math.max(4, (i + 1) * 1.5));
    });
    expect(new Set(sizes).size).toBe(18);
  });

  test('each list gets its last value repeated, at its own place among the arguments; quoted `?` are no placeholders', () => {
    const sql = `SELECT a FROM t WHERE x = ? AND id IN (${list(5)}) AND b NOT IN (${list(7, ', ')}) AND c = '?' AND "q?" = ? LIMIT ?`;
    const args = [0, 1, 2, 3, 4, 5, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 9, 10];
    expect(padInLists(sql, args, SQLITE_MAX_BIND_VALUES)).toEqual({
      sql: `SELECT a FROM t WHERE x = ? AND id IN (${list(6)}) AND b NOT IN (${list(8, ', ')}) AND c = '?' AND "q?" = ? LIMIT ?`,
      args: [0, 1, 2, 3, 4, 5, 5, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'g', 9, 10],
    });
  });

  test('unchanged when the placeholders do not match the arguments, past the bound-value limit, or already a padded length', () => {
    const commented = `SELECT 1 WHERE id IN (${list(5)}) -- ?`;
    expect(padInLists(commented, [1, 2, 3, 4, 5], SQLITE_MAX_BIND_VALUES).sql).toBe(commented);
    const big = `SELECT 1 WHERE id IN (${list(30_000)})`;
    expect(padInLists(big, Array(30_000).fill(1), SQLITE_MAX_BIND_VALUES).sql).toBe(big);
    const eight = `SELECT 1 WHERE id IN (${list(8)})`;
    expect(padInLists(eight, Array(8).fill(1), SQLITE_MAX_BIND_VALUES).sql).toBe(eight);
  });

  test('a text seen before pads alike, and its arguments are checked on every call (shapes are kept by text)', () => {
    const sql = `SELECT 1 WHERE id IN (${list(5)}) AND v = ?`;
    for (let i = 0; i < 3; i++) {
      expect(padInLists(sql, [1, 2, 3, 4, 5, 'v'], SQLITE_MAX_BIND_VALUES)).toEqual({
        sql: `SELECT 1 WHERE id IN (${list(6)}) AND v = ?`,
        args: [1, 2, 3, 4, 5, 5, 'v'],
      });
      expect(padInLists(sql, [1, 2, 3], SQLITE_MAX_BIND_VALUES)).toEqual({ sql, args: [1, 2, 3] });
      expect(padInLists(sql, [1, 2, 3, 4, 5, 'v'], 6).sql).toBe(sql);
    }
    const plain = 'SELECT 1 WHERE id = ?';
    expect(padInLists(plain, [1], SQLITE_MAX_BIND_VALUES)).toEqual({ sql: plain, args: [1] });
    expect(padInLists(plain, [1], SQLITE_MAX_BIND_VALUES)).toEqual({ sql: plain, args: [1] });
  });

  test('a padded IN and NOT IN answer the same rows as the list they came from, NULLs included', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
    for (let i = 1; i <= 40; i++) insert.run([i, i % 7 ? `v${i % 5}` : null]);
    for (const values of [[3], [5, 1, 9, 2, 40], [7, 7, 8, 30, 31, 33, 35, 36, 39], ['v1', 'v3', null, 'v2', 'v4']]) {
      const column = typeof values[values.length - 1] === 'number' ? 'id' : 'v';
      for (const op of ['IN', 'NOT IN']) {
        const sql = `SELECT id FROM t WHERE ${column} ${op} (${list(values.length)}) ORDER BY id`;
        const padded = padInLists(sql, values, SQLITE_MAX_BIND_VALUES);
        expect(db.prepare(padded.sql).all(padded.args)).toEqual(db.prepare(sql).all(values));
      }
    }
    db.close();
  });

  test("Prisma's `in` filters and relation loads through the SQLite adapter answer as before", async () => {
    const f = await freshSqliteUrl();
    fresh.push(f);
    await migrate(f.url);
    const db = await createDb(f.url);
    try {
      const team = await db.prisma.team.create({ data: { name: 'In lists', kind: 'MERCHANT' } });
      const ids: string[] = [];
      for (let i = 0; i < 7; i++)
        ids.push(
          (
            await db.prisma.product.create({
              data: { team_id: team.id, name: `P${i}`, sku: `IN-${i}`, measurement_unit: 'MM', weight_unit: 'G' },
            })
          ).id,
        );
      for (const n of [1, 3, 5, 7]) {
        const rows = await db.prisma.product.findMany({ where: { id: { in: ids.slice(0, n) } }, orderBy: { sku: 'asc' } });
        expect(rows.map((r) => r.sku)).toEqual(ids.slice(0, n).map((_, i) => `IN-${i}`));
        expect(await db.prisma.product.count({ where: { id: { notIn: ids.slice(0, n) } } })).toBe(7 - n);
      }
    } finally {
      await db.close();
    }
  });
});
