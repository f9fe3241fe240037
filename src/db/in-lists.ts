/** Values per IN (...) list: well under SQLite's and PostgreSQL's limits on bound parameters. */
export const IN_LIST_MAX = 500;

/** SQLITE_MAX_VARIABLE_NUMBER of the libSQL build (SQLite's default since 3.32; libsql.ts). */
export const SQLITE_MAX_BIND_VALUES = 32766;

/** `values` in slices of at most IN_LIST_MAX, one query each (scan forms, carrier invoice imports). */
export function* inLists<T>(values: readonly T[]): Generator<T[]> {
  for (let i = 0; i < values.length; i += IN_LIST_MAX) yield values.slice(i, i + IN_LIST_MAX);
}

// SQLite statements are prepared once per text and kept (libsql.ts, statements.ts, reads.ts). An
// IN list's text has one `?` per value, so a page of 1-50 orders and the outbox's claims of 1-32
// rows made a new text, and a new statement, for each length: 561 texts after 20,000 mixed
// requests and still rising, past the adapter's cache of 500, which then evicted and prepared
// again all the time. An evicted statement's native memory (~16-20 KiB) is freed only when V8
// collects its object, which V8, not seeing that memory, does not hurry, and glibc keeps the high
// mark: 1,000 texts cycling through the cache held ~80 MiB more than the same queries padded.
// Padded to a few lengths by repeating the list's last value (`x IN (a, b, b)` is `x IN (a, b)`,
// and so is NOT IN), a statement shape has a handful of texts (docs/performance.md, "Memory").

/** The length an IN list of `n` values is padded to: 1-4 as they are, then 6, 8, 12, 16, 24, 32, 48, 64... (at most half again). */
export function inListSize(n: number): number {
  if (n <= 4) return n;
  let p = 4;
  while (p * 2 < n) p *= 2;
  return n <= p * 1.5 ? p * 1.5 : p * 2;
}

// Quoted literals and identifiers (skipped: a `?` there is no placeholder), an IN list of
// placeholders (SQLite's `?` placeholders, with or without a space after the comma), or a lone `?`.
const TOKENS = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\bIN \((\?(?:, ?\?)*)\)|\?/gi;

interface Shape {
  /** The text with its lists padded; null when no list needs padding. */
  text: string | null;
  /** Placeholders in the unpadded text. */
  seen: number;
  /** After which argument (index) a list's last value is repeated, and how many times. */
  pads: [at: number, count: number][];
  added: number;
}

/** The padding a text needs: it depends on the text alone. */
function shapeOf(sql: string): Shape {
  let seen = 0;
  const pads: [at: number, count: number][] = [];
  const text = sql.replace(TOKENS, (token, list: string | undefined) => {
    if (token === '?') {
      seen++;
      return token;
    }
    if (list === undefined) return token;
    const n = list.split('?').length - 1;
    seen += n;
    const size = inListSize(n);
    if (size === n) return token;
    pads.push([seen - 1, size - n]);
    const sep = list.includes(', ') ? ', ' : ',';
    return `${token.slice(0, token.indexOf('(') + 1)}${Array(size).fill('?').join(sep)})`;
  });
  const added = pads.reduce((sum, [, count]) => sum + count, 0);
  return { text: pads.length ? text : null, seen, pads, added };
}

// Shapes by text, as the statements are kept by text: every statement ran through here (a
// fulfillment's 38) paid the scan (a case-insensitive regex over its whole text) on each run.
// Texts past SHAPED_TEXT_MAX (long IN lists, rare) are scanned each time: the cache stays small.
const NO_LIST: Shape = { text: null, seen: 0, pads: [], added: 0 };
const shapes = new Map<string, Shape>();
const SHAPES_MAX = 2000;
const SHAPED_TEXT_MAX = 8192;

function cachedShape(sql: string): Shape {
  let shape = shapes.get(sql);
  if (shape === undefined) {
    shape = /\bIN \(\?/i.test(sql) ? shapeOf(sql) : NO_LIST;
    if (sql.length > SHAPED_TEXT_MAX) return shape;
    if (shapes.size >= SHAPES_MAX) shapes.clear();
    shapes.set(sql, shape);
  }
  return shape;
}

/**
 * `sql` with each IN list of `?` placeholders padded to inListSize, and `args` with the list's last
 * value repeated to match. Unchanged when the placeholders are not all plain `?` (their count is
 * not the arguments'), or when padding would pass `maxArgs` bound values.
 */
export function padInLists<T>(sql: string, args: readonly T[], maxArgs: number): { sql: string; args: readonly T[] } {
  const { text, seen, pads, added } = cachedShape(sql);
  if (text === null || seen !== args.length || args.length + added > maxArgs) return { sql, args };
  const out: T[] = [];
  let from = 0;
  for (const [at, count] of pads) {
    out.push(...args.slice(from, at + 1));
    for (let i = 0; i < count; i++) out.push(args[at]);
    from = at + 1;
  }
  out.push(...args.slice(from));
  return { sql: text, args: out };
}
