import Table from 'cli-table3';
import type { IOStreams } from '../iostreams.js';
import { getPath } from './fields.js';

/** Human tables for a terminal (cli-table3, borderless like `gh`). */

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** One cell: scalars as text, scalar arrays joined, other arrays counted, objects as JSON; cut at `max`. */
export function cellText(value: unknown, max = 60): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (Array.isArray(value)) text = value.every(isScalar) ? value.join(', ') : `[${value.length} items]`;
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  text = text.replace(/\s*[\r\n]+\s*/g, ' ');
  return text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;
}

/**
 * Columns for a list table: the preferred ones that appear in the rows, else the first
 * scalar fields of the first row (at most 8).
 */
export function tableColumns(rows: readonly unknown[], preferred: readonly string[] = []): string[] {
  const present = preferred.filter((c) => rows.some((r) => getPath(r, c) !== undefined));
  if (present.length) return present;
  const first = rows.find((r) => typeof r === 'object' && r !== null) as Record<string, unknown> | undefined;
  if (!first) return [];
  return Object.keys(first)
    .filter((k) => isScalar(first[k]))
    .slice(0, 8);
}

/** cli-table3 pads every cell; drop the trailing blanks of each line. */
const trimLines = (text: string) =>
  `${text
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')}\n`;

// This module is imported when a table is printed (output/print.ts), so JSON output and scripts
// never load cli-table3. (A static import: the standalone binary's bundle must see it.)
function newTable(io: IOStreams, head: string[] = []): Table.Table {
  return new Table({
    head: head.map((h) => io.style('bold', h)),
    chars: BORDERLESS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
}

/** Ids, SKUs and tracking codes are what one copies into the next command: never cut them. */
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isIdColumn = (name: string, cells: readonly string[]) =>
  /(^|[._])(id|sku|tracking|tracking_code)$/.test(name) || (cells.length > 0 && cells.every((c) => c === '' || UUID_RE.test(c)));

const tableWidth = (ws: readonly number[]) => ws.reduce((a, b) => a + b, 0) + 2 * Math.max(0, ws.length - 1);

/**
 * Column widths that fit `budget` characters: columns keep their natural width when the
 * table fits; otherwise the widest non-id columns are narrowed first, each down to its `floor`
 * (its header's width: headers are never cut).
 */
export function fitWidths(natural: readonly number[], fixed: readonly boolean[], budget: number, floors: readonly number[] = []): number[] {
  if (tableWidth(natural) <= budget) return [...natural];
  const floor = (i: number) => Math.min(natural[i], Math.max(floors[i] ?? 0, 10));
  let widths = [...natural];
  for (let cap = Math.max(...natural) - 1; cap >= 0; cap--) {
    widths = natural.map((w, i) => (fixed[i] ? w : Math.max(Math.min(w, cap), floor(i))));
    if (tableWidth(widths) <= budget || widths.every((w, i) => fixed[i] || w === floor(i))) break;
  }
  return widths;
}

/**
 * What goes first when a table is too wide for the terminal: empty columns, timestamps, then
 * secondary columns (right to left), then the figures people read (stock, quantities, priority,
 * customer, totals, status), ids last — by then they are already shortened.
 */
const NEEDED_RE =
  /(^|_)(sku|name|title|order_number|status|priority|customer_name|quantity|available|on_hand|committed|unavailable|total_price|total|amount|price|calculated_amount|rate_tier|power_role|state)$/;
function dropRank(name: string, isId: boolean, empty: boolean, kept: boolean): number {
  if (kept) return -1;
  if (empty) return 4;
  if (/_at$/.test(name)) return 3;
  if (isId) return 0;
  if (/(^|_)(payment|fulfillment|request|shipment|processing)_status$/.test(name)) return 2;
  return NEEDED_RE.test(name) ? 1 : 2;
}

/** The shortest prefix length (at least 8) that tells every UUID of the column apart. */
export function uniquePrefixLength(values: readonly string[]): number {
  const ids = [...new Set(values.filter((v) => v !== ''))];
  for (let n = 8; n < 36; n++) {
    if (new Set(ids.map((v) => v.slice(0, n))).size === ids.length) return n;
  }
  return 36;
}

/**
 * Replaces the UUIDs of id columns by their shortest prefix unique within the column, as git
 * shortens hashes: no "…", so it can be pasted, and every command takes it (shared/refs.ts).
 */
function shortenIds(cells: string[][], fixed: readonly boolean[]): void {
  fixed.forEach((isId, i) => {
    const column = cells.map((r) => r[i]);
    if (!isId || !column.some((c) => UUID_RE.test(c))) return;
    const n = uniquePrefixLength(column);
    if (n >= 36) return;
    for (const r of cells) if (UUID_RE.test(r[i])) r[i] = r[i].slice(0, n);
  });
}

/** ISO timestamps to the minute (`2026-11-25 01:39Z`) when a table must be narrowed. */
const ISO_RE = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d):\d\d(\.\d+)?Z$/;
const TIME_COLUMN = /(_at|_date|^time)$/;
function shortenTimes(cells: string[][], columns: readonly string[]): void {
  columns.forEach((c, i) => {
    if (!TIME_COLUMN.test(c)) return;
    for (const r of cells) r[i] = r[i].replace(ISO_RE, '$1 $2Z');
  });
}

/**
 * `keep`: the columns a list exists for (movements: time, bucket, delta, kind, reason), left out
 * only when nothing else is left to leave out.
 */
export function renderTable(
  io: IOStreams,
  rows: readonly unknown[],
  columns: readonly string[],
  indent = 0,
  keep: readonly string[] = [],
): string {
  // Untruncated text first (bounded so one huge cell cannot dominate), then fit the terminal.
  const cells = rows.map((row) => columns.map((c) => cellText(getPath(row, c), 200)));
  const fixed = columns.map((c, i) =>
    isIdColumn(
      c,
      cells.map((r) => r[i]),
    ),
  );
  // Off a terminal nothing wraps, so nothing is cut.
  const budget = io.isStdoutTTY ? io.terminalWidth - indent : Number.POSITIVE_INFINITY;
  const naturalOf = (i: number) => Math.max(columns[i].length, ...cells.map((r) => r[i].length));
  let natural = columns.map((_, i) => naturalOf(i));
  const floors = columns.map((c) => c.length);
  let shown = columns.map((_, i) => i);
  // A kept column narrows only down to 24 characters (a whole short timestamp, most reasons). A
  // time is shown whole or not at all: `2026-11-3…` tells nothing (shortened to the minute first).
  const floorOf = (i: number) =>
    TIME_COLUMN.test(columns[i])
      ? Math.max(floors[i], natural[i])
      : keep.includes(columns[i])
        ? Math.max(floors[i], Math.min(natural[i], 24))
        : floors[i];
  const fit = () =>
    fitWidths(
      shown.map((i) => natural[i]),
      shown.map((i) => fixed[i]),
      budget,
      shown.map(floorOf),
    );
  // Too wide even with the text columns narrowed (fitWidths), in this order: leave out empty
  // columns, shorten UUIDs to a prefix unique within the table (as git shortens hashes) and
  // timestamps to the minute, leave out timestamps and secondary columns, then the needed
  // columns, ids last, the kept ones never before the rest; a wrapped table is unreadable.
  // Shown columns keep their order.
  const rank = columns.map((c, i) =>
    dropRank(
      c,
      fixed[i],
      cells.every((r) => r[i] === ''),
      keep.includes(c),
    ),
  );
  const dropOrder = columns.map((_, i) => i).sort((a, b) => rank[b] - rank[a] || b - a);
  let widths = fit();
  let shortened = false;
  for (const victim of dropOrder) {
    if (tableWidth(widths) <= budget) break;
    // Short ids and times before any column with values goes.
    if (!shortened && rank[victim] < 4) {
      shortened = true;
      shortenIds(cells, fixed);
      shortenTimes(cells, columns);
      natural = columns.map((_, i) => naturalOf(i));
      widths = fit();
      if (tableWidth(widths) <= budget) break;
    }
    if (shown.length <= 1) break;
    shown = shown.filter((i) => i !== victim);
    widths = fit();
  }
  if (shown.length < columns.length) {
    const hidden = columns.filter((_, i) => !shown.includes(i));
    // `--json a,b --format table` picks columns (fos --help says so).
    io.info(io.style('dim', `(hidden to fit the terminal: ${hidden.join(', ')})`));
  }
  const table = newTable(
    io,
    shown.map((i) => columns[i].toUpperCase()),
  );
  for (const r of cells) table.push(shown.map((i, k) => (r[i].length > widths[k] ? cellText(r[i], widths[k]) : r[i])));
  const pad = ' '.repeat(indent);
  return trimLines(
    table
      .toString()
      .split('\n')
      .map((l) => pad + l)
      .join('\n'),
  );
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
const isObjectList = (v: unknown): v is Record<string, unknown>[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));

/** Columns worth showing for nested records (line items, holds, packages…), in this order. */
const NESTED_PREFERRED = [
  'id',
  'sku',
  'name',
  'title',
  'action',
  'reason',
  'active',
  'status',
  'quantity',
  'total_quantity',
  'remaining_quantity',
  'fulfilled_quantity',
  'quantity_received',
  'quantity_restocked',
  'quantity_damaged',
  'quantity_open',
  'condition',
  'price',
  'warehouse_name',
  'tracking_code',
  'reason_notes',
];
/** Receipts and returns exist to say what came back damaged: kept on a narrow terminal. */
const NESTED_KEEP = ['sku', 'quantity', 'quantity_received', 'quantity_damaged', 'condition', 'remaining_quantity'];

/**
 * How a command shows one list of a record as a table (issue 34: the pick list's bins, lots and
 * totes; a product's stock per warehouse): `rows` reshapes the list (e.g. one line per tote),
 * `columns` are shown in this order and kept on a narrow terminal.
 */
export interface NestedView {
  columns: readonly string[];
  rows?: (list: Record<string, unknown>[]) => Record<string, unknown>[];
}

/**
 * A single record as FIELD / VALUE lines. Without a field list, empty fields are left out
 * (`--json` shows everything) and lists of records (line items, holds…) follow as small tables.
 */
export function renderRecord(
  io: IOStreams,
  record: Record<string, unknown>,
  fields?: readonly string[],
  views: Record<string, NestedView> = {},
): string {
  const all = fields ?? Object.keys(record);
  const nested = fields ? [] : all.filter((k) => isObjectList(record[k]));
  const keys = fields ? all : all.filter((k) => !isEmpty(record[k]) && !nested.includes(k));
  const keyWidth = Math.max(...keys.map((k) => k.length), 5);
  const max = Math.max(20, io.terminalWidth - keyWidth - 3);
  const table = newTable(io);
  for (const k of keys) table.push([io.style('bold', k), cellText(getPath(record, k), max)]);
  let text = keys.length ? trimLines(table.toString()) : '';
  for (const k of nested) {
    const view = views[k];
    const rows = view?.rows ? view.rows(record[k] as Record<string, unknown>[]) : (record[k] as Record<string, unknown>[]);
    const preferred = NESTED_PREFERRED.filter((c) => rows.some((r) => !isEmpty(r[c])));
    const columns = view?.columns ?? (preferred.length >= 2 ? preferred.slice(0, 8) : tableColumns(rows));
    const count = (record[k] as unknown[]).length;
    text += `\n${io.style('bold', `${k} (${count})`)}\n${renderTable(io, rows, columns, 2, view?.columns ?? NESTED_KEEP)}`;
  }
  return text;
}
