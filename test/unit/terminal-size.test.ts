import { describe, expect, it } from 'vitest';
import { sizeOf } from '../../src/cli/iostreams.js';

// A table is fitted to the terminal's width. A pty nobody sized (`script`, `docker exec -t`) reports
// 0 columns: every column but the id was hidden "to fit". $COLUMNS, else the default, then.
describe('terminal size', () => {
  it('takes what the terminal reports, else $COLUMNS, else the default', () => {
    expect(sizeOf(132, '80')).toBe(132);
    expect(sizeOf(0, '120')).toBe(120);
    expect(sizeOf(undefined, '90')).toBe(90);
    expect(sizeOf(0, undefined)).toBeUndefined();
    expect(sizeOf(0, 'wide')).toBeUndefined();
    expect(sizeOf(0, '-3')).toBeUndefined();
  });
});
