import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// docs/conventions.md: one spelling, the API's American "fulfill", so one search finds every use.
// Migrations are left as they were applied (their checksums are recorded in databases).
const BRITISH = new RegExp('[Ff]ulfil([^l]|$)|FULFIL([^lL]|$)');

describe('spelling', () => {
  it('writes "fulfill", never the British form, outside applied migrations', () => {
    let out = '';
    try {
      out = execFileSync(
        'git',
        ['grep', '-lIE', BRITISH.source, '--', '.', ':!prisma/migrations/**', ':!package-lock.json', ':!test/unit/spelling.test.ts'],
        {
          encoding: 'utf8',
        },
      );
    } catch (err) {
      if ((err as { status?: number }).status !== 1) throw err; // 1: no file matches
    }
    const files = out.split('\n').filter(Boolean);
    expect(files).toEqual([]);
  });
});
