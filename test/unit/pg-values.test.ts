import { describe, expect, it } from 'vitest';
import { pgArg, utc } from '../../src/db/pg-tx.js';

// Values to and from PostgreSQL on fos's own statements (src/db/pg-tx.ts): a TIMESTAMP's text read
// by its digits must give exactly the instant the Date parser gave, and a Date bound again and
// again (its text kept) the same text as when built anew.

/** A TIMESTAMP(3) as PostgreSQL writes it: milliseconds without trailing zeros, none when 0. */
function pgText(t: number): string {
  const d = new Date(t);
  const p = (n: number, z = 2) => String(n).padStart(z, '0');
  const frac = d.getUTCMilliseconds() ? `.${p(d.getUTCMilliseconds(), 3)}`.replace(/0+$/, '') : '';
  return `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}${frac}`;
}
const parsed = (text: string) => new Date(`${text.replace(' ', 'T')}${/[+-]\d\d(:?\d\d)?$/.test(text) ? '' : 'Z'}`);

describe('PostgreSQL TIMESTAMP values', () => {
  it('read by their digits as the Date parser reads them, for any instant of years 100-9999', () => {
    const lo = Date.UTC(100, 0, 1);
    const hi = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    // Random instants, whole seconds, each millisecond form (.f, .ff, .fff) and the years' edges.
    const instants = [lo, hi, 0, Date.UTC(2024, 1, 29, 12), Date.UTC(2026, 10, 29, 17, 38, 23, 120)];
    for (let i = 0; i < 20_000; i++) {
      const t = lo + Math.floor(Math.random() * (hi - lo));
      instants.push(t, t - (t % 1000), t - (t % 100), t - (t % 10));
    }
    for (const t of instants) {
      const text = pgText(t);
      expect(utc(text).getTime(), text).toBe(t);
      expect(utc(text).getTime(), text).toBe(parsed(text).getTime());
    }
  });

  it('texts outside that shape are read by the parser, as before', () => {
    for (const text of ['0044-03-15 12:00:00', '2026-11-29 17:38:23.123456', '2026-11-29 17:38:23+02', '2026-11-29T17:38:23', 'infinity']) {
      expect(String(utc(text).getTime()), text).toBe(String(parsed(text).getTime()));
    }
  });

  it("a Date's text is the same whether it was just built or kept from the last call", () => {
    const a = new Date(Date.UTC(2026, 10, 29, 17, 38, 23, 5));
    const b = new Date(Date.UTC(2026, 10, 29, 17, 38, 24));
    expect([pgArg(a), pgArg(a), pgArg(b), pgArg(a), pgArg(new Date(a.getTime()))]).toEqual([
      '2026-11-29 17:38:23.005',
      '2026-11-29 17:38:23.005',
      '2026-11-29 17:38:24',
      '2026-11-29 17:38:23.005',
      '2026-11-29 17:38:23.005',
    ]);
    expect(pgArg(new Date(NaN))).toBe('0NaN-NaN-NaN NaN:NaN:NaN'); // as before: PostgreSQL refuses it
  });
});
