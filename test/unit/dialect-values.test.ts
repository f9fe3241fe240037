import { describe, expect, it } from 'vitest';
import { dialectOf } from '../../src/db/dialect.js';

// How a raw statement's values read as Prisma reads them (src/db/dialect.ts): the stores that
// type rows themselves (the outbox worker's, the carrier rates', the billing inputs) share these.

describe('dialect values', () => {
  const sqlite = dialectOf('sqlite');
  const pg = dialectOf('postgresql');

  it('reads a SQLite DATETIME as UTC whether written with a zone or by CURRENT_TIMESTAMP without one', () => {
    const at = Date.UTC(2026, 10, 29, 12, 0, 5, 123);
    expect(sqlite.date('2026-11-29T12:00:05.123+00:00').getTime()).toBe(at);
    expect(sqlite.date('2026-11-29T12:00:05.123Z').getTime()).toBe(at);
    expect(sqlite.date('2026-11-29 12:00:05').getTime()).toBe(Date.UTC(2026, 10, 29, 12, 0, 5));
    expect(sqlite.date('2026-11-29T14:00:05.123+02:00').getTime()).toBe(at);
    const d = new Date(at);
    expect(pg.date(d)).toBe(d);
  });

  it('reads SQLite 0/1 (a number or a BigInt) and a PostgreSQL boolean as booleans', () => {
    for (const dialect of [sqlite, pg]) {
      expect([1, 1n, true].map(dialect.bool)).toEqual([true, true, true]);
      expect([0, 0n, false, null, undefined].map(dialect.bool)).toEqual([false, false, false, false, false]);
    }
  });
});
