import type { Context } from '../../context.js';
import type { Progress } from '../../iostreams.js';
import { csvLine } from '../../../shared/csv.js';
import { getPath, pickFields } from '../../output/fields.js';
import { resolveOutput, type OutputSpec } from '../../output/format.js';
import { runJq } from '../../output/jq.js';
import { renderTable } from '../../output/table.js';
import { checkRecordFields } from '../../output/print.js';
import { RESULT_MEMBERS, type FulfillResult } from './result.js';

/**
 * Where `fos fulfill run` writes: step lines on stderr (prefixed with the fulfillment order),
 * a progress bar on stderr when it is a terminal (batch runs), and the results on stdout —
 * one JSON object per line as each fulfillment order finishes (json/ndjson), CSV rows, or a
 * table at the end (the default on a terminal).
 */
const CSV_COLUMNS = [
  'input',
  'fulfillment_order_id',
  'order_id',
  'order_number',
  'status',
  'package_id',
  'tracking_code',
  'step',
  'reason',
  'state',
  'error.kind',
  'error.message',
];

const KEY_ORDER: (keyof FulfillResult)[] = [
  'input',
  'fulfillment_order_id',
  'order_id',
  'order_number',
  'status',
  'package_id',
  'package_ids',
  'tracking_code',
  'label_file',
  'step',
  'reason',
  'state',
  'error',
  'accept',
  'items',
  'label',
  'steps',
];

/** The result with its keys in the documented order. */
function ordered(r: FulfillResult): FulfillResult {
  const out: Record<string, unknown> = {};
  for (const k of KEY_ORDER) if (r[k] !== undefined) out[k] = r[k];
  return out as unknown as FulfillResult;
}

const detail = (r: FulfillResult) =>
  r.status === 'failed' ? `${r.step}: ${r.error?.message ?? ''} [${r.state}]` : r.status === 'skipped' ? (r.reason ?? '') : '';

function tableRow(r: FulfillResult, dryRun: boolean) {
  const fo = r.fulfillment_order_id ?? r.input;
  if (dryRun) {
    return {
      fulfillment_order: fo,
      order: r.order_number,
      status: r.status,
      accept: r.accept ? 'yes' : '',
      items: r.items?.map((i) => `${i.sku ?? i.name} ×${i.quantity}`).join(', ') ?? detail(r),
      label: r.label ?? '',
    };
  }
  return {
    order: r.order_number ?? '',
    status: r.status,
    reason: detail(r),
    tracking: r.tracking_code,
    fulfillment_order: fo,
    package: r.package_id,
  };
}

/** What a narrow terminal keeps of the closing table: which order, what happened, and why. */
const KEEP = ['order', 'status', 'reason'];

export class Reporter {
  readonly results: FulfillResult[] = [];
  private readonly bar: Progress;
  private total = 0;
  private finished = 0;
  private phase = '';
  private wroteCsvHeader = false;

  private constructor(
    private readonly ctx: Context,
    private readonly output: OutputSpec,
    showBar: boolean,
    private readonly dryRun: boolean,
  ) {
    this.bar = showBar ? ctx.io.progress() : { update() {}, done() {} };
  }

  static async create(ctx: Context, opts: { bar: boolean; dryRun: boolean }): Promise<Reporter> {
    await checkRecordFields(ctx, RESULT_MEMBERS); // before the first request
    return new Reporter(ctx, await resolveOutput(ctx), opts.bar, opts.dryRun);
  }

  /** A step line on stderr; the progress bar is redrawn below it. */
  log(prefix: string, message: string): void {
    this.bar.done();
    this.ctx.io.info(`${this.ctx.io.style('dim', prefix)} ${message}`);
    this.redraw();
  }

  warn(message: string): void {
    this.bar.done();
    this.ctx.io.warn(message);
    this.redraw();
  }

  /** Switches the bar to a new phase ("resolving", "fulfilling") counting `total` steps. */
  startPhase(phase: string, total: number): void {
    this.phase = phase;
    this.total = total;
    this.finished = 0;
    this.redraw();
  }

  /** One more step of the phase done. */
  advance(): void {
    this.finished++;
    this.redraw();
  }

  private counts() {
    const c = { fulfilled: 0, skipped: 0, failed: 0, planned: 0 };
    for (const r of this.results) c[r.status]++;
    return c;
  }

  private redraw(): void {
    if (!this.phase) return;
    const c = this.counts();
    const finished = this.finished;
    const width = 20;
    const filled = this.total ? Math.min(width, Math.round((finished / this.total) * width)) : 0;
    const tally = this.dryRun ? `${c.planned} planned` : `${c.fulfilled} fulfilled`;
    this.bar.update(
      `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.phase}: ${finished}/${this.total} · ${tally} · ${c.skipped} skipped · ${c.failed} failed`,
    );
  }

  /** Records a result and, unless printing a table, writes it at once. */
  async emit(unordered: FulfillResult): Promise<void> {
    const result = ordered(unordered);
    this.results.push(result);
    const { format, fields } = this.output;
    const jq = this.ctx.options.jq;
    if (jq !== undefined) {
      // Results stream one per line, so jq filters each (as `… | jq -c` over the lines would).
      await this.ctx.io.out(await runJq(fields ? pickFields(result, fields) : result, jq, this.ctx.io.isStdoutTTY));
    } else if (format === 'json' || format === 'ndjson') {
      await this.ctx.io.out(`${JSON.stringify(fields ? pickFields(result, fields) : result)}\n`);
    } else if (format === 'csv') {
      const columns = fields ?? CSV_COLUMNS;
      if (!this.wroteCsvHeader) {
        this.wroteCsvHeader = true;
        await this.ctx.io.out(csvLine(columns));
      }
      await this.ctx.io.out(csvLine(columns.map((c) => getPath(result, c))));
    }
    this.redraw();
  }

  /** Clears the bar; prints the table (table format) and a one-line summary on stderr. */
  async finish(): Promise<void> {
    this.bar.done();
    const { format, fields } = this.output;
    if (format === 'table' && this.results.length) {
      const rows = this.results.map((r) => (fields ? pickFields(r, fields) : tableRow(r, this.dryRun)));
      // No failure, no skip: no reason column.
      const columns = Object.keys(rows[0] as object).filter(
        (c) => fields || c !== 'reason' || rows.some((r) => (r as { reason?: string }).reason),
      );
      // renderTable never cuts ids (what one acts on next); other columns share what is left.
      await this.ctx.io.out(renderTable(this.ctx.io, rows, columns, 0, fields ? [] : KEEP));
      // A narrow terminal may cut a reason: every failure's whole reason follows the table.
      for (const r of this.results.filter((x) => x.status === 'failed')) {
        this.ctx.io.info(`failed ${r.order_number ?? r.fulfillment_order_id ?? r.input}: ${detail(r)}`);
      }
    }
    const c = this.counts();
    const parts = this.dryRun
      ? [`${c.planned} planned`, `${c.skipped} skipped`, `${c.failed} failed`]
      : [`${c.fulfilled} fulfilled`, `${c.skipped} skipped`, `${c.failed} failed`];
    this.ctx.io.info(`${this.dryRun ? 'dry run (nothing written): ' : ''}${parts.join(', ')}`);
  }
}
