import { describe, expect, it } from 'vitest';
import { Screen } from '../../src/cli/commands/pick/screen.js';

// The pick station's screen (docs/floor.md, "fos pick"): every line fits 80 columns, and a refusal's
// reason is wrapped rather than cut (a cut one had lost what the scan was refused for).
function screen() {
  let out = '';
  const io = { stderr: { write: (s: string) => ((out += s), true) }, style: (_name: string, text: string) => text };
  return { screen: new Screen(io as never), out: () => out };
}

describe('fos pick screen', () => {
  it('wraps a long refusal at 80 columns and keeps every word of it', () => {
    const { screen: s, out } = screen();
    const reason =
      'More than needed: tote Wave 1-01 needs 1 of ACME-LAMP-400 from DEFAULT, 4 scanned; scan one unit at a time or take the rest to the next tote';
    s.refused(reason);
    const lines = out().replace('\x07', '').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(lines.map((l) => l.trim()).join(' ')).toBe(`✗ ${reason}`);
  });
});
