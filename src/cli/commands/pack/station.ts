import { createInterface } from 'node:readline';
import { ApiError } from '../../../client/errors.js';
import type { Context } from '../../context.js';
import { printRecord } from '../../output/print.js';
import { packTargetOf } from '../../shared/refs.js';
import { seg } from '../../shared/resource.js';
import { drawBox, messageLine, type Box, type Message } from './screen.js';
import { labelPackage, type LabelOptions } from './label.js';

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
}

type Outcome = 'next' | 'quit';

const foPath = (foId: string) => `/ops/fulfillment-orders/${seg(foId)}`;
const QUIT = new Set(['quit', 'exit', 'q']);
const SCAN = /^(?:(\d{1,5})\s*[*x]\s*)?(\S+)(?:\s+(\S+))?$/i;

export class PackStation {
  private readonly rl: ReturnType<typeof createInterface>;
  private readonly lines: AsyncIterator<string>;

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
        if (outcome.result === 'quit' || this.opts.fo) return;
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
    io.stderr.write(`${io.style('bold', 'SCAN THE ORDER (its number, tote or packing slip), or quit')}\n`);
    for (;;) {
      const line = await this.read();
      if (line === null || QUIT.has(line.toLowerCase())) return null;
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

  private async undo(foId: string, box: Box): Promise<[Box, Message]> {
    const last = box.scans[box.scans.length - 1];
    if (!last) return [box, { kind: 'error', text: 'Nothing to undo: the box is empty.' }];
    const client = this.ctx.client();
    await client.delete(`${foPath(foId)}/pack-scans/${seg(last.id)}`, { query: { lock_owner: this.opts.lockOwner } });
    const now = await client.get<Box>(`${foPath(foId)}/pack-scans`);
    return [now, { kind: 'ok', text: `Undone: ${last.quantity} x ${last.sku ?? 'item'} taken out of the box` }];
  }

  /** done: asks the weight (unless given), packs, then labels when asked; null when the box is empty. */
  private async close(foId: string, box: Box): Promise<Message | null> {
    if (!box.scans.length) return null;
    const fields = { ...this.opts.fields };
    if (fields.weight === undefined && this.ctx.io.canPrompt) {
      const weight = await this.askWeight(fields.weight_unit as string | undefined);
      if (weight === 'cancel') return { kind: 'info', text: 'Box not closed.' };
      if (weight !== undefined) fields.weight = weight;
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
    if (this.ctx.io.isStdoutTTY && !this.ctx.options.json && !this.ctx.options.jq) await this.ctx.io.out(`${String(pkg.id)}\n`);
    else await printRecord(this.ctx, pkg);
    const units = Number(pkg.total_item_quantity ?? 0);
    let text = `Box closed: package ${String(pkg.id)} (${units} item(s)) for order ${box.order_number}.`;
    if (this.opts.print || this.opts.labelDir) {
      try {
        text += ` ${await labelPackage(this.ctx, pkg, box.order_number, this.opts)}`;
      } catch (err) {
        this.say({ kind: 'error', text: `The package is made but not labelled: ${errorText(err)}` });
        return { kind: 'error', text: `${text} Label it with: fos packages label ${String(pkg.id)} --print` };
      }
    }
    this.say({ kind: 'ok', text });
    return { kind: 'ok', text };
  }

  private async askWeight(unit?: string): Promise<number | undefined | 'cancel'> {
    const io = this.ctx.io;
    for (;;) {
      io.stderr.write(`${io.style('bold', `WEIGHT${unit ? ` (${unit})` : ''}: type it, Enter for none, or cancel`)}\n`);
      const line = await this.read();
      if (line === null || line.toLowerCase() === 'cancel') return 'cancel';
      if (line === '') return undefined;
      const n = Number(line);
      if (Number.isFinite(n) && n >= 0) return n;
      this.say({ kind: 'error', text: `"${line}" is not a weight.` });
    }
  }
}

/** A refusal as the station shows it: the server's detail, without the support reference. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.detail.replace(/\s*\(support reference: [0-9a-f]+\)\s*$/i, '');
  return err instanceof Error ? err.message : String(err);
}
