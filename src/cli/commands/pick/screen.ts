import type { Static } from 'typebox';
import type { PickListSchema, PickRowSchema } from '../../../contract/locations.js';
import type { IOStreams } from '../../iostreams.js';

// What `fos pick` shows (issue 28): a few big, clear lines per step that fit an 80x24 terminal,
// green for a good scan, a bell and a red line for a refused one. All of it goes to stderr (the
// station's messages); stdout carries only data (one JSON line per scan when it is not a terminal).

/** A row of the walk and the whole pick list, as the API's contract defines them. */
export type PickRow = Static<typeof PickRowSchema>;

export type PickList = Static<typeof PickListSchema>;

const WIDTH = 78;
const fit = (s: string, n = WIDTH) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** `s` broken at spaces into lines of at most WIDTH, the later ones indented: a reason is read whole, not cut. */
function wrap(s: string, indent = '  '): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of s.split(' ')) {
    if (line && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].map((l) => fit(l));
}

export class Screen {
  constructor(private readonly io: IOStreams) {}

  private line(s = '') {
    this.io.stderr.write(`${s}\n`);
  }

  /** The next step: where to go, what to take, into which tote, and how far along the walk is. */
  next(list: PickList, row: PickRow, binScanned: boolean) {
    const tote = row.totes.find((t) => t.remaining > 0);
    const left = list.rows.reduce((n, r) => n + r.remaining, 0);
    const done = list.rows.filter((r) => r.remaining === 0).length;
    this.line(this.io.style('dim', '─'.repeat(WIDTH)));
    this.line(
      `  ${this.io.style('bold', 'BIN ')}   ${this.io.style('bold', this.io.style('cyan', fit(row.location_name, 60)))}${binScanned ? '  ✓' : ''}`,
    );
    const lot = row.lot_code ? `   lot ${row.lot_code}${row.expiration_date ? ` (exp ${row.expiration_date})` : ''}` : '';
    this.line(
      `  ${this.io.style('bold', 'TAKE')}   ${this.io.style('bold', `${row.remaining} × ${row.sku ?? row.barcode ?? '?'}`)}${fit(lot, 40)}`,
    );
    this.line(`         ${fit(row.product_name, 68)}`);
    if (tote)
      this.line(
        `  ${this.io.style('bold', 'TOTE')}   ${fit(`${tote.tote_name ?? '(no tote)'} · order ${tote.order_number} · ${tote.remaining} for it`, 68)}`,
      );
    this.line(
      this.io.style(
        'dim',
        fit(`  ${done}/${list.rows.length} rows done · ${left} ${left === 1 ? 'unit' : 'units'} left · undo · short <n> · quit`),
      ),
    );
    this.io.stderr.write(binScanned ? 'scan item › ' : 'scan bin › ');
  }

  ok(text: string) {
    this.line(this.io.style('green', fit(`✓ ${text}`)));
  }

  /** A refused scan: the bell, then the reason in red on one line (and what is expected). */
  refused(text: string) {
    this.io.stderr.write('\x07');
    for (const l of wrap(`✗ ${text}`)) this.line(this.io.style('red', this.io.style('bold', l)));
  }

  note(text: string) {
    this.line(fit(text));
  }

  complete(list: PickList) {
    this.line(this.io.style('dim', '─'.repeat(WIDTH)));
    this.line(this.io.style('green', this.io.style('bold', '  ✓ SESSION COMPLETE: every unit is picked')));
    for (const s of list.short) this.line(this.io.style('yellow', fit(`  short: ${s.quantity} × ${s.sku ?? '?'} (no bin holds them)`)));
  }
}
