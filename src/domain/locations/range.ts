import { invalid } from '../errors.js';

// Bin names from a range, e.g. "A-01-01..A-20-05": both ends split on "-" into the same number of
// parts; a part is a number range (zero-padded to the start's width: 01..20), a letter range (A..D)
// or a literal kept as is. Names are generated aisle by aisle (the last part varies fastest).

export const MAX_RANGE = 10_000;

function partValues(from: string, to: string, path: string): string[] {
  if (from === to) return [from];
  if (/^\d+$/.test(from) && /^\d+$/.test(to)) {
    const a = Number(from);
    const b = Number(to);
    if (a > b) throw invalid(path, `${from} comes after ${to}`);
    const width = from.length;
    return Array.from({ length: b - a + 1 }, (_, i) => String(a + i).padStart(width, '0'));
  }
  if (/^[A-Z]$/i.test(from) && /^[A-Z]$/i.test(to) && (from === from.toUpperCase()) === (to === to.toUpperCase())) {
    const a = from.charCodeAt(0);
    const b = to.charCodeAt(0);
    if (a > b) throw invalid(path, `${from} comes after ${to}`);
    return Array.from({ length: b - a + 1 }, (_, i) => String.fromCharCode(a + i));
  }
  throw invalid(path, `cannot make a range from ${JSON.stringify(from)} to ${JSON.stringify(to)} (numbers or single letters only)`);
}

/** Every name of the range, in order; 422 for a malformed range or more than MAX_RANGE names. */
export function expandRange(range: string, path = 'range'): string[] {
  const ends = range.split('..');
  if (ends.length !== 2 || !ends[0] || !ends[1]) throw invalid(path, 'write it as FIRST..LAST, e.g. A-01-01..A-20-05');
  const a = ends[0].trim().split('-');
  const b = ends[1].trim().split('-');
  if (a.length !== b.length) throw invalid(path, `both ends need the same parts (${a.length} vs ${b.length})`);
  const parts = a.map((p, i) => partValues(p, b[i], path));
  const total = parts.reduce((n, p) => n * p.length, 1);
  if (total > MAX_RANGE) throw invalid(path, `makes ${total} locations; at most ${MAX_RANGE} at once`);
  return parts.reduce<string[]>((names, values) => names.flatMap((n) => values.map((v) => (n ? `${n}-${v}` : v))), ['']);
}
