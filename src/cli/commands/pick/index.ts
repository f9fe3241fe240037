import { createInterface } from 'node:readline';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { ApiError } from '../../../client/errors.js';
import { CliError, ExitCode } from '../../errors.js';
import { withExamples } from '../../shared/help.js';
import { resolveRef } from '../../shared/refs.js';
import { seg } from '../../shared/resource.js';
import { Screen, type PickList, type PickRow } from './screen.js';
import { declareOutput, fixed } from '../../output/shape.js';

// `fos pick <session>`: a picking station for a USB barcode scanner (a keyboard that types a line
// and Enter). It shows the next bin and item, then reads scans: a bin label, then item barcodes
// (`3*CODE` for three at once). Every scan goes to POST …/scans, which checks it; a refused scan
// rings the bell and prints a red line. `undo` takes back this run's last scan, `short <n>` reports
// n units missing at the bin. The state lives on the server (the pick list), so after a crash the
// station simply resumes where the session stands. Exit 0 when the session is complete, 1 when
// stdin ends or `quit` leaves it unfinished. docs/floor.md.

const QTY_RE = /^(\d{1,5})\s*[*x]\s*(.+)$/i;

interface Station {
  ctx: Context;
  session: string;
  screen: Screen;
  list: PickList;
  bin: string | null;
  /** A scan was accepted since the last reload. */
  picked: boolean;
  undo: string[];
}

const nextRow = (list: PickList) => list.rows.find((r) => r.remaining > 0);

const fetchList = (ctx: Context, session: string) => ctx.client().get<PickList>(`/ops/picking-sessions/${seg(session)}/pick-list`);

async function reload(st: Station) {
  st.list = await fetchList(st.ctx, st.session);
  // A bin scan holds while the bin still has units to pick; then the next bin must be scanned. A
  // label (barcode) is known by name after its first good scan; until then the server judges it.
  // Only after a good scan: a bin just scanned stays until the server judges the item scanned there.
  const named = st.list.rows.filter((r) => r.location_name === st.bin);
  if (st.picked && named.length && !named.some((r) => r.remaining > 0)) st.bin = null;
  st.picked = false;
}

async function send(st: Station, body: Record<string, unknown>) {
  try {
    const r = await st.ctx.client().post<{
      scan: { id: string; location_name: string; quantity: number; sku: string | null; tote_name: string | null; short: boolean };
    }>(
      `/ops/picking-sessions/${seg(st.session)}/scans`,
      body,
      { idempotencyKey: globalThis.crypto.randomUUID() }, // a retried request (lost answer) applies once
    );
    st.undo.push(r.scan.id);
    st.bin = r.scan.location_name; // the bin's name, whether its label or its name was scanned
    st.picked = true;
    if (!st.ctx.io.isStdoutTTY) await st.ctx.io.out(`${JSON.stringify(r.scan)}\n`);
    st.screen.ok(
      r.scan.short
        ? `short ${r.scan.quantity} × ${r.scan.sku} reported`
        : `${r.scan.quantity} × ${r.scan.sku} → tote ${r.scan.tote_name ?? '-'}`,
    );
  } catch (err) {
    if (!(err instanceof ApiError) || (err.status !== 409 && err.status !== 422)) throw err;
    st.screen.refused(err.detail.replace(/\s*\(support reference: \w+\)$/, ''));
    if (/^(Wrong bin|Unknown location)/.test(err.detail)) st.bin = null; // scan the right bin again
  }
}

/** One scanner line; false when the picker quits. */
async function handle(st: Station, line: string, row: PickRow): Promise<boolean> {
  const word = line.toLowerCase();
  if (word === 'quit' || word === 'q') return false;
  if (word === 'undo') {
    const id = st.undo.pop();
    if (!id) st.screen.refused('Nothing to undo in this run.');
    else {
      await st.ctx.client().delete(`/ops/picking-sessions/${seg(st.session)}/scans/${seg(id)}`);
      st.screen.ok('last scan undone');
    }
    return true;
  }
  const short = /^short\s+(\d{1,5})$/i.exec(line);
  if (short) {
    if (!st.bin) st.screen.refused(`Scan the bin first (${row.location_name}).`);
    else await send(st, { location: st.bin, barcode: row.barcode ?? row.sku, quantity: Number(short[1]), short: true });
    return true;
  }
  const isBin = st.list.rows.some((r) => r.location_name.toLowerCase() === word);
  if (!st.bin || isBin) {
    st.bin = line;
    if (!isBin || line.toLowerCase() !== row.location_name.toLowerCase()) st.screen.note(`bin ${line}`);
    return true;
  }
  const q = QTY_RE.exec(line);
  await send(st, { location: st.bin, barcode: q ? q[2].trim() : line, quantity: q ? Number(q[1]) : 1 });
  return true;
}

async function walk(st: Station, lines: AsyncIterator<string>) {
  for (;;) {
    const row = nextRow(st.list);
    if (!row) {
      st.screen.complete(st.list);
      return;
    }
    st.screen.next(st.list, row, st.bin !== null);
    const next = await lines.next();
    if (next.done) throw new CliError('stdin closed before the session was complete; run `fos pick` again to resume', ExitCode.ERROR);
    const line = String(next.value).trim();
    if (!line) continue;
    if (!(await handle(st, line, row))) throw new CliError('left the session unfinished; run `fos pick` again to resume', ExitCode.ERROR);
    await reload(st);
  }
}

async function run(ctx: Context, session: string) {
  const st: Station = {
    ctx,
    session,
    screen: new Screen(ctx.io),
    list: await fetchList(ctx, session),
    bin: null,
    picked: false,
    undo: [],
  };
  const rl = createInterface({ input: ctx.io.stdin, terminal: false });
  try {
    await walk(st, rl[Symbol.asyncIterator]());
  } finally {
    rl.close();
    // A terminal's stdin would otherwise keep the process alive after the last step.
    const stdin = ctx.io.stdin as NodeJS.ReadableStream & { isTTY?: boolean; destroy?: () => void };
    if (stdin.isTTY) stdin.destroy?.();
    else stdin.pause();
  }
}

export default function pick(ctx: Context): Command {
  const cmd = new Command('pick')
    .description('Picking station for a barcode scanner: walk a picking session bin by bin, every scan checked')
    .argument('<picking-session-id>', 'the session to pick: its name, id or id prefix (fos picking-sessions create --wave …)')
    .action(async (session: string) => run(ctx, await resolveRef(ctx.client(), 'picking-session', session)));
  declareOutput(cmd, fixed('is an interactive station printing each scan as a JSON line'));
  return withExamples(cmd, ['fos pick 0193…', 'fos picking-sessions create --wave Main --max-orders 20 --jq .id | xargs fos pick']);
}
