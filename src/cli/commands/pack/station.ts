import { createInterface } from 'node:readline';
import { ApiError } from '../../../client/errors.js';
import type { Context } from '../../context.js';
import { printRecord } from '../../output/print.js';
import { packTargetOf } from '../../shared/refs.js';
import { seg } from '../../shared/resource.js';
import { drawBox, messageLine, type Box, type Message } from './screen.js';
import { labelPackage, type LabelOptions } from './label.js';
import { parseWeight } from './weight.js';

// The packing station's loop (`fos pack`, docs/floor.md): lines from stdin, as a USB scanner
// types them (a code, then Enter), or words a person types. The box lives on the server
// (…/pack-scans), so a station that crashed or was closed shows the same box when it starts
// again, and every scan is sent with its own Idempotency-Key so the client's retry applies once.

export interface StationOptions extends LabelOptions {
  /** Pack only this fulfillment order (--fo, or the argument), then stop. */
  fo?: string;
  /** Fields of the package (weight, dimensions, name, rate_strategy) and lock_owner. */
  fields: Record<string, unknown>;
  lockOwner: string;
  /** --ship: every closed box is labelled (if not yet) and fulfilled at once. */
  ship?: boolean;
}

/** The box the station closed last: `ship` ships it. */
interface Closed {
  pkg: Record<string, unknown>;
  orderNumber: string;
}

type Outcome = 'next' | 'quit';

const foPath = (foId: string) => `/ops/fulfillment-orders/${seg(foId)}`;
const QUIT = new Set(['quit', 'exit', 'q']);
const SCAN = /^(?:(\d{1,5})\s*[*x]\s*)?(\S+)(?:\s+(\S+))?$/i;

export class PackStation {
  private readonly rl: ReturnType<typeof createInterface>;
  private readonly lines: AsyncIterator<string>;
  private last: Closed | null = null;
  /** Boxes closed into packages this run (0: the command exits 3, docs/cli.md). */
  packed = 0;

  constructor(
    private readonly ctx: Context,
    private readonly opts: StationOptions,
  ) {
    this.rl = createInterface({ input: ctx.io.stdin, terminal: false, crlfDelay: Infinity });
    this.lines = this.rl[Symbol.asyncIterator]();
  }

  private async read(): Promise<string | null> {
    const r = await this.lines.next();
    return r.done ? null : r.value.trim();
  }

  private say(m: Message): void {
    this.ctx.io.stderr.write(`${messageLine(this.ctx.io, m, this.ctx.io.terminalWidth || 80)}\n`);
  }

  /** Boxes one after another, or the one --fo names; ends at quit or the end of input. */
  async run(): Promise<void> {
    try {
      let message: Message | undefined;
      for (;;) {
        const foId = this.opts.fo ?? (await this.askOrder(message));
        if (!foId) return;
        const outcome = await this.packOne(foId);
        if (outcome.result === 'quit') return;
        if (this.opts.fo) {
          // One order: a `ship` typed after done ships its box; anything else ends.
          if (outcome.closed && !this.opts.ship && (await this.read())?.toLowerCase() === 'ship') await this.shipLast();
          return;
        }
        message = outcome.message;
      }
    } finally {
      this.rl.close();
    }
  }

  private async askOrder(message?: Message): Promise<string | null> {
    const io = this.ctx.io;
    if (io.isStderrTTY) io.stderr.write('\u001b[H\u001b[2J');
    if (message) this.say(message);
    const ship = this.last ? ', ship (the box just closed)' : '';
    io.stderr.write(`${io.style('bold', `SCAN THE ORDER (its number, tote or packing slip)${ship}, or quit`)}\n`);
    for (;;) {
      const line = await this.read();
      if (line === null || QUIT.has(line.toLowerCase())) return null;
      if (line.toLowerCase() === 'ship' && this.last) {
        await this.shipLast(); // it says what happened
        continue;
      }
      if (line) return line;
    }
  }

  private async packOne(foId: string): Promise<{ result: Outcome; closed: boolean; message?: Message }> {
    const client = this.ctx.client();
    let box: Box;
    try {
      foId = await packTargetOf(client, foId); // what was scanned: an order number, a tote, an id
      box = await client.get<Box>(`${foPath(foId)}/pack-scans`);
    } catch (err) {
      if (this.opts.fo) throw err; // the one order asked for cannot be packed: the command fails
      return { result: 'next', closed: false, message: { kind: 'error', text: errorText(err) } };
    }
    let message: Message | undefined = box.scans.length
      ? { kind: 'info', text: `Resumed: ${box.scans.length} scan(s) already in this box.` }
      : undefined;
    for (;;) {
      drawBox(this.ctx.io, box, message);
      const line = await this.read();
      if (line === null || QUIT.has((line ?? '').toLowerCase())) {
        if (box.scans.length)
          this.say({ kind: 'info', text: `Box left open (${box.scans.length} scan(s)): fos pack --fo ${foId} resumes it.` });
        return { result: 'quit', closed: false };
      }
      if (!line) continue;
      const word = line.toLowerCase();
      try {
        if (word === 'undo') [box, message] = await this.undo(foId, box);
        else if (/^short\b/.test(word)) [box, message] = await this.short(foId, box, line);
        else if (word === 'done') {
          const closed = await this.close(foId, box);
          if (closed) return { result: 'next', closed: true, message: closed };
          message = { kind: 'error', text: 'Nothing is scanned into this box yet: scan the items first.' };
        } else [box, message] = await this.scan(foId, line);
      } catch (err) {
        message = { kind: 'error', text: errorText(err) };
      }
    }
  }

  private async scan(foId: string, line: string): Promise<[Box, Message]> {
    const m = SCAN.exec(line);
    if (!m) throw new Error(`"${line}" is not a scan: a code, "3*CODE", or "CODE LOT"`);
    const body = {
      barcode: m[2],
      ...(m[1] ? { quantity: Number(m[1]) } : {}),
      ...(m[3] ? { lot_code: m[3] } : {}),
      lock_owner: this.opts.lockOwner,
    };
    const res = await this.ctx.client().post<Box & { scan: { sku: string | null; quantity: number } }>(`${foPath(foId)}/pack-scans`, body, {
      idempotencyKey: `pack-scan-${globalThis.crypto.randomUUID()}`,
    });
    const l = res.lines.find((x) => x.sku === res.scan.sku);
    const count = l ? ` (${l.scanned} of ${l.needed})` : '';
    return [res, { kind: 'ok', text: `${res.scan.quantity} x ${res.scan.sku ?? m[2]} in the box${count}` }];
  }

  /** `short <n> [CODE]`: n units of CODE (default: the next item shown) are not there; recorded, never packed. */
  private async short(foId: string, box: Box, line: string): Promise<[Box, Message]> {
    const m = /^short\s+(\d{1,5})(?:\s+(\S+))?$/i.exec(line);
    if (!m) throw new Error('short needs the number of missing units: "short 2", or "short 2 CODE"');
    const code = m[2] ?? box.remaining[0]?.sku;
    if (!code) throw new Error('Nothing is left to pack, so nothing can be short.');
    const res = await this.ctx
      .client()
      .post<Box & { scan: { sku: string | null; quantity: number } }>(
        `${foPath(foId)}/pack-scans`,
        { barcode: code, quantity: Number(m[1]), short: true, lock_owner: this.opts.lockOwner },
        { idempotencyKey: `pack-short-${globalThis.crypto.randomUUID()}` },
      );
    const sku = res.scan.sku ?? code;
    return [
      res,
      {
        kind: 'info',
        text: `Short: ${res.scan.quantity} x ${sku} recorded missing, not packed. The lead ships the rest: fos fulfill run ${box.order_number} --partial`,
      },
    ];
  }

  /**
   * Labels the last closed box (if it has no label) and fulfills it: the order ships. The shipped
   * package goes to stdout (`again`: its closed state went there already, so a terminal is not given its id twice).
   */
  private async shipLast(again = true): Promise<Message> {
    const last = this.last!;
    const client = this.ctx.client();
    const id = String(last.pkg.id);
    try {
      // The station's own lock when it holds one; else the server locks for the fulfill and releases.
      const fo = await client.get<{
        lock: { lock_owner: string } | null;
        line_items: Array<{ sku: string | null; short_quantity?: number }>;
      }>(foPath(String(last.pkg.fulfillment_order_id)));
      // Short units never ship from the station: the lead decides (split them off and ship the rest).
      const short = fo.line_items.filter((l) => (l.short_quantity ?? 0) > 0);
      if (short.length) {
        const what = short.map((l) => `${l.sku ?? 'item'} short ${l.short_quantity}`).join(', ');
        throw new Error(
          `order ${last.orderNumber} has ${what}; the lead ships what was found with: fos fulfill run ${last.orderNumber} --partial`,
        );
      }
      let labelled = '';
      if (!last.pkg.shipping_label && !last.pkg.shipment_status)
        labelled = ` ${(await labelPackage(this.ctx, last.pkg, last.orderNumber, this.opts)).text}`;
      last.pkg.shipping_label ??= true; // a second `ship` after a refused fulfill does not buy another label
      const body = fo.lock?.lock_owner === this.opts.lockOwner ? { locked_by: this.opts.lockOwner } : {};
      const done = await client.post<Record<string, unknown>>(`/ops/packages/${seg(id)}/fulfill`, body);
      this.last = null;
      await this.emit(done, again);
      const text = `Shipped: order ${last.orderNumber}, package ${id}, tracking ${String(done.tracking_number ?? '-')}.${labelled}`;
      this.say({ kind: 'ok', text });
      return { kind: 'ok', text };
    } catch (err) {
      const text = `Not shipped: ${errorText(err)}`;
      this.say({ kind: 'error', text });
      return { kind: 'error', text };
    }
  }

  private async undo(foId: string, box: Box): Promise<[Box, Message]> {
    const last = box.scans[box.scans.length - 1];
    if (!last) return [box, { kind: 'error', text: 'Nothing to undo: the box is empty.' }];
    const client = this.ctx.client();
    await client.delete(`${foPath(foId)}/pack-scans/${seg(last.id)}`, { query: { lock_owner: this.opts.lockOwner } });
    const now = await client.get<Box>(`${foPath(foId)}/pack-scans`);
    return [now, { kind: 'ok', text: `Undone: ${last.quantity} x ${last.sku ?? 'item'} taken out of the box` }];
  }

  /** A package on stdout: its id on a terminal (once per box: not `again`), else its JSON (docs/floor.md). */
  private async emit(pkg: Record<string, unknown>, again = false): Promise<void> {
    if (this.ctx.io.isStdoutTTY && !this.ctx.options.json && !this.ctx.options.jq) {
      if (!again) await this.ctx.io.out(`${String(pkg.id)}\n`);
    } else await printRecord(this.ctx, pkg);
  }

  /** done: asks the weight (unless given), packs, then labels when asked; null when the box is empty. */
  private async close(foId: string, box: Box): Promise<Message | null> {
    if (!box.scans.length) return null;
    const fields = { ...this.opts.fields };
    if (fields.weight === undefined && this.ctx.io.canPrompt) {
      const unit = ((fields.weight_unit as string | undefined) ?? (await this.teamWeightUnit())) as 'G' | 'LB';
      const weight = await this.askWeight(unit);
      if (weight === 'cancel') return { kind: 'info', text: 'Box not closed.' };
      if (weight !== undefined) Object.assign(fields, { weight, weight_unit: unit });
    }
    const pkg = await this.ctx.client().post<Record<string, unknown>>(
      `${foPath(foId)}/pack`,
      { ...fields, lock_owner: this.opts.lockOwner },
      {
        idempotencyKey: `pack-${foId}-${box.scans
          .map((s) => s.id)
          .join('.')
          .slice(-120)}`,
      },
    );
    const units = Number(pkg.total_item_quantity ?? 0);
    this.packed++;
    this.last = { pkg, orderNumber: box.order_number };
    let text = `Box closed: package ${String(pkg.id)} (${units} item(s)) for order ${box.order_number}.`;
    // stdout gets the box as this step leaves it: shipped (--ship), labelled (--print, --print-dir) or packed.
    if (this.opts.ship) {
      const shipped = await this.shipLast(false);
      if (shipped.kind !== 'ok') await this.emit(pkg);
      return { kind: shipped.kind, text: `${text} ${shipped.text}` };
    }
    if (this.opts.print || this.opts.labelDir) {
      let labelled: Record<string, unknown>;
      try {
        const done = await labelPackage(this.ctx, pkg, box.order_number, this.opts);
        text += ` ${done.text}`;
        labelled = done.labelled;
        pkg.shipping_label ??= true; // labelled at close: a `ship` now must not buy a second label
      } catch (err) {
        await this.emit(pkg);
        this.say({ kind: 'error', text: `The package is made but not labelled: ${errorText(err)}` });
        return { kind: 'error', text: `${text} Label it with: fos packages label ${String(pkg.id)} --print` };
      }
      await this.emit(labelled);
    } else await this.emit(pkg);
    text += ' Type ship to ship it.';
    this.say({ kind: 'ok', text });
    return { kind: 'ok', text };
  }

  /** G or LB: the team's measurement system (GET /me), for the weight prompt. */
  private async teamWeightUnit(): Promise<'G' | 'LB'> {
    const me = await this.ctx.client().get<{ measurement_system?: string }>('/me');
    return me.measurement_system === 'IMPERIAL' ? 'LB' : 'G';
  }

  private async askWeight(unit: 'G' | 'LB'): Promise<number | undefined | 'cancel'> {
    const io = this.ctx.io;
    const name = unit === 'G' ? 'grams' : 'pounds';
    for (;;) {
      io.stderr.write(`${io.style('bold', `WEIGHT in ${name} (${unit}), or 1.2kg, 500g, 2 lb, 12oz; Enter: none; cancel`)}\n`);
      const line = await this.read();
      if (line === null || line.toLowerCase() === 'cancel') return 'cancel';
      if (line === '') return undefined;
      const n = parseWeight(line, unit);
      if (n !== null && n >= 0) return n;
      this.say({
        kind: 'error',
        text: `"${line}" is not a weight: type a number of ${name}, or one with its unit (1.2kg, 500g, 2 lb, 12oz).`,
      });
    }
  }
}

/** A refusal as the station shows it: the server's detail, without the support reference. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.detail.replace(/\s*\(support reference: [0-9a-f]+\)\s*$/i, '');
  return err instanceof Error ? err.message : String(err);
}
