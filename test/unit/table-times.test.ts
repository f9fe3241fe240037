import { describe, expect, it } from 'vitest';
import type { IOStreams } from '../../src/cli/iostreams.js';
import { renderTable } from '../../src/cli/output/table.js';

// A table narrowed to the terminal shows a time whole (to the minute) or leaves it out, naming
// it: `2026-11-3…` tells a lead nothing (orders list at 140 columns showed that).

function render(width: number, rows: Record<string, unknown>[], columns: string[]) {
  const notes: string[] = [];
  const io = { isStdoutTTY: true, terminalWidth: width, style: (_s: string, t: string) => t, info: (m: string) => notes.push(m) };
  return { out: renderTable(io as unknown as IOStreams, rows, columns), notes };
}

const rows = [1, 2, 3].map((n) => ({
  order_number: `#100${n}`,
  customer_name: `Customer number ${n} with a long name`,
  status: 'OPEN',
  created_at: `2026-11-30T07:2${n}:03.171Z`,
}));
const columns = ['order_number', 'customer_name', 'status', 'created_at'];

describe('times in a narrowed table', () => {
  it('shortens a time to the minute and never cuts it', () => {
    const { out } = render(60, rows, columns);
    expect(out).toContain('2026-11-30 07:21Z');
    expect(out).not.toMatch(/2026-11-[^ ]*…/);
  });

  it('leaves the time out, naming it, when even the minute does not fit', () => {
    const { out, notes } = render(40, rows, columns);
    expect(out).not.toContain('2026-11');
    expect(notes.join('\n')).toContain('hidden to fit the terminal: created_at');
    expect(out).toContain('#1001');
  });
});
