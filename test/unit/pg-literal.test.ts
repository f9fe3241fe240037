import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { escapeLiteral } from '../../src/db/pg-tx.js';

// pg-tx.ts writes the COMMIT's statements' literals itself: the same text as pg's escapeLiteral.
const pgUtils = createRequire(import.meta.url)('pg/lib/utils.js') as { escapeLiteral(s: string): string };

describe('pg-tx escapeLiteral', () => {
  it("writes pg's text: quotes and backslashes doubled, E'…' with a backslash", () => {
    const cases = ['', 'plain', "it's", "''", 'a\\b', "\\'", '{"k":"v\\"q\'"}', 'é ☃ 😀', 'line\nbreak\t', '\\'];
    const chars = ["'", '\\', 'a', 'é', '😀', '"', '\n', ' '];
    let seed = 7;
    for (let n = 0; n < 500; n++) {
      let s = '';
      for (let i = 0; i < n % 17; i++) s += chars[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % chars.length];
      cases.push(s);
    }
    for (const s of cases) expect(escapeLiteral(s)).toBe(pgUtils.escapeLiteral(s));
  });
});
