import type { Static } from 'typebox';
import type { PackBoxSchema } from '../../../contract/pack-scans.js';
import type { IOStreams } from '../../iostreams.js';

// What the packing station shows (`fos pack`): one screen per box, redrawn after every scan, made
// to read from arm's length on an 80x24 terminal: the order, the NEXT item in bold capitals, one
// line per item with scanned/needed, the last scan's outcome (green, or red with a bell), and the
// words the station understands. Everything goes to stderr; stdout carries only the packages.

/** The open box as GET …/pack-scans answers it (the API's contract), and one of its lines. */
export type Box = Static<typeof PackBoxSchema>;
export type BoxLine = Box['lines'][number];

export interface Message {
  kind: 'ok' | 'error' | 'info';
  text: string;
}

const cut = (s: string, width: number) => (s.length > width ? `${s.slice(0, Math.max(0, width - 1))}…` : s);

/** The screen's lines (without colour) for a box; `rows` bounds how many item lines fit. */
export function boxLines(box: Box, width: number, rows: number): { header: string[]; items: string[]; next: string } {
  const w = Math.max(20, width - 1);
  const tote = box.tote_name ? `   TOTE ${box.tote_name}` : '';
  const units = box.lines.reduce((n, l) => n + l.scanned, 0);
  const of = box.lines.reduce((n, l) => n + l.needed, 0);
  const header = [
    cut(`ORDER ${box.order_number}${tote}   ${units} of ${of} in the box`, w),
    cut(`fulfillment order ${box.fulfillment_order_id}`, w),
  ];
  // Lines still needing units first, so what is left always shows on a small screen.
  const sorted = [...box.lines.filter((l) => l.remaining > 0), ...box.lines.filter((l) => l.remaining === 0)];
  const room = Math.max(1, rows);
  const shown = sorted.length > room ? sorted.slice(0, room - 1) : sorted;
  const items = shown.map((l) => {
    const mark = l.remaining === 0 ? '[x]' : '[ ]';
    return cut(`${mark} ${String(l.scanned).padStart(3)}/${String(l.needed).padEnd(3)} ${l.sku ?? '-'}  ${l.name}`, w);
  });
  if (shown.length < sorted.length) items.push(`    … and ${sorted.length - shown.length} more item(s)`);
  const first = box.remaining[0];
  const next = box.complete
    ? box.scans.length
      ? 'BOX COMPLETE: TYPE DONE TO CLOSE IT'
      : 'NOTHING LEFT TO PACK IN THIS ORDER'
    : cut(`NEXT: ${first.quantity} X ${first.sku ?? first.name}${first.sku ? `  ${first.name}` : ''}`, w);
  return { header, items, next };
}

/** Draws the box: clears a terminal first, so each scan shows one fresh screen. */
export function drawBox(io: IOStreams, box: Box, message?: Message): void {
  const height = io.terminalHeight || 24;
  const { header, items, next } = boxLines(box, io.terminalWidth || 80, height - 10);
  const out: string[] = [];
  if (io.isStderrTTY) out.push('\u001b[H\u001b[2J');
  out.push(io.style('bold', header[0]), io.style('dim', header[1]), '');
  out.push(...items, '');
  out.push(io.style('bold', next), '');
  if (message) out.push(messageLine(io, message, io.terminalWidth || 80));
  out.push(io.style('dim', 'scan an item  ·  undo  ·  done (close the box)  ·  quit'));
  io.stderr.write(`${out.join('\n')}\n`);
}

/** Words wrapped to `width`, at most `max` lines (the last one cut). */
function wrap(text: string, width: number, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.length > max ? [...lines.slice(0, max - 1), cut(lines.slice(max - 1).join(' '), width)] : lines;
}

/** An outcome, up to three lines: red, after the terminal bell, for a refusal. */
export function messageLine(io: IOStreams, m: Message, width: number): string {
  const mark = m.kind === 'error' ? '✗ ' : m.kind === 'ok' ? '✓ ' : '';
  const text = wrap(`${mark}${m.text}`, Math.max(20, width - 1), 3).join('\n');
  if (m.kind === 'error') return `\u0007${io.style('red', text)}`;
  if (m.kind === 'ok') return io.style('green', text);
  return text;
}
