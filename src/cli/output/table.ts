import Table from 'cli-table3';
import type { IOStreams } from '../iostreams.js';
import { getPath } from './fields.js';

/** Human tables for a terminal (cli-table3, borderless like `gh`). */

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
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
  return Object.keys(first).filter((k) => isScalar(first[k])).slice(0, 8);
}

/** cli-table3 pads every cell; drop the trailing blanks of each line. */
const trimLines = (text: string) => `${text.split('\n').map((l) => l.trimEnd()).join('\n')}\n`;

function newTable(io: IOStreams, head: string[] = []): Table.Table {
  return new Table({
    head: head.map((h) => io.style('bold', h)),
    chars: BORDERLESS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
}

export function renderTable(io: IOStreams, rows: readonly unknown[], columns: readonly string[]): string {
  const max = Math.max(12, Math.min(60, Math.floor(io.terminalWidth / Math.max(1, columns.length))));
  const table = newTable(io, columns.map((c) => c.toUpperCase()));
  for (const row of rows) table.push(columns.map((c) => cellText(getPath(row, c), max)));
  return trimLines(table.toString());
}

/** A single record as FIELD / VALUE lines. */
export function renderRecord(io: IOStreams, record: Record<string, unknown>, fields?: readonly string[]): string {
  const keys = fields ?? Object.keys(record);
  const keyWidth = Math.max(...keys.map((k) => k.length), 5);
  const max = Math.max(20, io.terminalWidth - keyWidth - 3);
  const table = newTable(io);
  for (const k of keys) table.push([io.style('bold', k), cellText(getPath(record, k), max)]);
  return trimLines(table.toString());
}
