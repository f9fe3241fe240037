import { Command } from 'commander';
import { ApiError } from '../../../client/errors.js';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { CliError, exitCodeFor, UsageError } from '../../errors.js';
import { printRecord } from '../../output/print.js';
import { readReference } from '../../shared/body.js';
import { addFieldOptions, collectFields } from '../../shared/flags.js';
import { commandOf, withExamples } from '../../shared/help.js';
import { parseLinesCsv } from './csv-lines.js';

// `fos inventory import counts.csv --warehouse <id>`: a spreadsheet of counts (or deltas) sent as
// adjustments of up to 1,000 lines each, so 10,000 rows take ten requests. Each request is one
// transaction on the server; when one is refused, the rows before it stay applied and the error
// names the CSV row (not the request line) that was refused.

const BATCH = 1000;

export default function inventoryImport(ctx: Context): Command {
  const cmd = new Command('import').description('Import counts or adjustments from a CSV file (sku,counted or sku,delta), 1,000 rows per request');
  cmd.argument('<file>', 'CSV file, or - for stdin');
  addFieldOptions(cmd, [
    { key: 'warehouse_id', flag: '--warehouse', arg: 'id', description: 'warehouse the rows belong to' },
    { key: 'reason', type: 'enum', values: ENUMS.adjustment_reason, description: 'default CYCLE_COUNT for counts, CORRECTION for deltas' },
    { key: 'note', description: 'free text kept on every movement' },
  ]);
  cmd.option('--force', 'accept counts below what is committed (never below zero)');
  cmd.option('--dry-run', 'check the file and show what would be sent, send nothing');
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const opts = command.opts();
    const [file] = command.processedArgs as string[];
    const fields = collectFields(opts, []) as Record<string, unknown>;
    const warehouse = opts.warehouse as string | undefined;
    if (!warehouse) throw new UsageError('--warehouse <id> is required');
    const text = file === '-' ? await ctx.io.readStdin() : await readReference(ctx, `@${file}`, '<file>');
    const { mode, lines, rows } = parseLinesCsv(text);
    const reason = (opts.reason as string | undefined) ?? (mode === 'counted' ? 'CYCLE_COUNT' : 'CORRECTION');
    const batches = Math.ceil(lines.length / BATCH);
    const summary = { file, warehouse_id: warehouse, reason, mode, rows: lines.length, requests: batches, applied: 0, adjustment_ids: [] as string[] };
    if (!lines.length) {
      ctx.io.info('nothing to import: the file has no rows with a change');
      await printRecord(ctx, summary);
      return;
    }
    if (opts.dryRun) {
      ctx.io.info(`dry run: ${lines.length} ${mode} row(s) in ${batches} request(s) to warehouse ${warehouse}, reason ${reason}; nothing sent`);
      await printRecord(ctx, { ...summary, dry_run: true });
      return;
    }
    const client = ctx.client();
    const progress = ctx.io.progress();
    try {
      for (let b = 0; b < batches; b++) {
        const slice = lines.slice(b * BATCH, (b + 1) * BATCH);
        progress.update(`importing: ${summary.applied}/${lines.length} rows (request ${b + 1} of ${batches})`);
        const body = { warehouse_id: warehouse, reason, lines: slice, ...(fields.note ? { note: fields.note } : {}), ...(opts.force ? { force: true } : {}) };
        try {
          const res = await client.request<{ id: string }>('POST', '/ops/inventory/adjustments', { body });
          summary.adjustment_ids.push(res.data.id);
          summary.applied += slice.length;
        } catch (err) {
          throw refused(err, rows, b * BATCH, summary.applied);
        }
      }
    } finally {
      progress.done();
    }
    ctx.io.info(`imported ${summary.applied} row(s) in ${batches} request(s)`);
    await printRecord(ctx, summary);
  });
  return withExamples(cmd, [
    'fos inventory import counts.csv --warehouse "Portland DC"',
    'fos inventory import counts.csv --warehouse "Portland DC" --dry-run',
    'fos inventory import shrink.csv --warehouse "Portland DC" --reason LOST --note "Q4 write-off"',
  ]);
}

/** The server's refusal, told in CSV rows: `row 1013 (line 12 of request 2): …`. */
function refused(err: unknown, rows: number[], offset: number, applied: number): unknown {
  if (!(err instanceof ApiError)) return err;
  const m = /^lines\[(\d+)\]/.exec(err.detail) ?? /lines\[(\d+)\]/.exec(JSON.stringify(err.errors ?? ''));
  const where = m ? `row ${rows[offset + Number(m[1])]}: ` : '';
  const detail = m ? err.detail.replace(/^lines\[\d+\][.:]?\s*/, '') : err.detail;
  const kept = applied ? `rows ${rows[0]}-${rows[applied - 1]} were applied; ` : '';
  return new CliError(`${where}${detail}\n${kept}nothing from row ${rows[offset]} on was applied (fix the row and import the rest again)`, exitCodeFor(err));
}
