import { Command } from 'commander';
import { createHash } from 'node:crypto';
import { ApiError, NetworkError } from '../../../client/errors.js';
import type { ApiClient } from '../../../client/api-client.js';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { CliError, exitCodeFor, UsageError } from '../../errors.js';
import { checkRecordFields, printRecord } from '../../output/print.js';
import { readReference } from '../../shared/body.js';
import { addFieldOptions, collectFields } from '../../shared/flags.js';
import { commandOf, withExamples } from '../../shared/help.js';
import { resolveRef } from '../../shared/refs.js';
import { parseLinesCsv } from './csv-lines.js';
import { declareOutput, own } from '../../output/shape.js';
import type { Static } from 'typebox';
import type { AdjustmentSchema } from '../../../contract/inventory.js';

// `fos inventory import counts.csv --warehouse <name|id>`: a spreadsheet of counts (or deltas)
// sent as adjustments of up to 1,000 lines each, so 10,000 rows take ten requests. Every request
// is first sent as a dry run (the server checks each line: unknown SKUs, counts below what is
// committed…), so a wrong file is refused by CSV row before anything changes; then each is
// applied, one transaction per request. It ends with a before -> after table per SKU and
// warehouse; --dry-run shows that table from the dry runs and changes nothing. Each applying
// request carries an Idempotency-Key derived from the file's content, the options and the chunk,
// so a request retried, or the whole import run again after a crash or a lost connection,
// applies each row exactly once (the server answers a repeat with its first answer). --run <name>
// makes a new set of keys, to apply the same file again on purpose.

const BATCH = 1000;

/** What it reads of an adjustment (a pick of the contract's schema). */
type Adjusted = Pick<Static<typeof AdjustmentSchema>, 'id' | 'warehouse_name' | 'lines'>;

export default function inventoryImport(ctx: Context): Command {
  const cmd = new Command('import').description(
    'Import counts or adjustments from a CSV file (sku,counted or sku,delta): checked first, then 1,000 rows per request, ending with a before -> after table',
  );
  cmd.argument('<file>', 'CSV file, or - for stdin');
  addFieldOptions(cmd, [
    { key: 'warehouse_id', flag: '--warehouse', arg: 'name|id', description: 'warehouse the rows belong to (name, id or id prefix)' },
    { key: 'reason', type: 'enum', values: ENUMS.adjustment_reason, description: 'default CYCLE_COUNT for counts, CORRECTION for deltas' },
    { key: 'note', description: 'free text kept on every movement' },
  ]);
  cmd.option('--force', 'accept counts below what is committed (never below zero)');
  cmd.option('--dry-run', 'check every row with the server and show the before -> after table; change nothing');
  cmd.option(
    '--run <name>',
    'apply a file imported before (within 7 days) again: without it a re-run applies only the rows not yet applied',
  );
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const opts = command.opts();
    const [file] = command.processedArgs as string[];
    const fields = collectFields(opts, []) as Record<string, unknown>;
    if (!opts.warehouse) throw new UsageError('--warehouse <name|id> is required');
    const text = file === '-' ? await ctx.io.readStdin() : await readReference(ctx, `@${file}`, '<file>');
    const { mode, lines, rows } = parseLinesCsv(text);
    const reason = (opts.reason as string | undefined) ?? (mode === 'counted' ? 'CYCLE_COUNT' : 'CORRECTION');
    const batches = Math.ceil(lines.length / BATCH);
    const client = ctx.client();
    const warehouse = await resolveRef(client, 'warehouse', String(opts.warehouse));
    const summary = {
      file,
      warehouse_id: warehouse,
      reason,
      mode,
      rows: lines.length,
      requests: batches,
      applied: 0,
      adjustment_ids: [] as string[],
    };
    await checkRecordFields(ctx, { ...summary, dry_run: true, lines: [] });
    if (!lines.length) {
      ctx.io.info('nothing to import: the file has no rows with a change');
      await printRecord(ctx, { ...summary, lines: [] });
      return;
    }
    const body = (slice: typeof lines, dryRun: boolean) => ({
      warehouse_id: warehouse,
      reason,
      lines: slice,
      ...(fields.note ? { note: fields.note } : {}),
      ...(opts.force ? { force: true } : {}),
      ...(dryRun ? { dry_run: true } : {}),
    });
    const progress = ctx.io.progress();
    const results: Adjusted[] = [];
    let replayed = 0; // chunks an earlier run applied: answered from their stored result
    try {
      // Every row checked by the server before any is applied.
      const checked: Adjusted[] = [];
      for (let b = 0; b < batches; b++) {
        progress.update(`checking: ${b * BATCH}/${lines.length} rows (request ${b + 1} of ${batches})`);
        checked.push(await send(client, body(lines.slice(b * BATCH, (b + 1) * BATCH), true), rows, b * BATCH, 0));
      }
      if (opts.dryRun) results.push(...checked);
      else {
        for (let b = 0; b < batches; b++) {
          progress.update(`importing: ${summary.applied}/${lines.length} rows (request ${b + 1} of ${batches})`);
          const slice = lines.slice(b * BATCH, (b + 1) * BATCH);
          const res = await send(
            client,
            body(slice, false),
            rows,
            b * BATCH,
            summary.applied,
            chunkKey(text, opts.run as string | undefined, b, body(slice, false)),
          );
          if (res.replayed) replayed++;
          results.push(res);
          summary.adjustment_ids.push(res.id);
          summary.applied += slice.length;
        }
      }
    } finally {
      progress.done();
    }
    const table = changes(results, rows);
    const moved = table.filter((r) => r.delta !== 0).length;
    ctx.io.info(
      opts.dryRun
        ? `dry run: ${lines.length} ${mode} row(s) checked in ${batches} request(s), ${moved} level(s) would change, reason ${reason}; nothing was changed`
        : `imported ${summary.applied} row(s) in ${batches} request(s): ${moved} level(s) changed` +
            (replayed
              ? ` (${replayed} request(s) already applied by an earlier run: answered from their first result, not applied again)`
              : ''),
    );
    await printRecord(ctx, { ...summary, ...(opts.dryRun ? { dry_run: true } : {}), lines: table });
  });
  declareOutput(cmd, own('prints its own summary; checks --json against it before sending'));
  return withExamples(cmd, [
    'fos inventory import counts.csv --warehouse "Portland DC"',
    'fos inventory import counts.csv --warehouse "Portland DC" --dry-run',
    'fos inventory import shrink.csv --warehouse "Portland DC" --reason LOST --note "Q4 write-off"',
  ]);
}

/** The chunk's idempotency key: the same file, options and chunk always give the same key. */
function chunkKey(file: string, run: string | undefined, chunk: number, body: unknown): string {
  const h = createHash('sha256')
    .update(file)
    .update('\0')
    .update(run ?? '')
    .update('\0')
    .update(JSON.stringify(body))
    .digest('hex');
  return `fos-import-${h.slice(0, 40)}-${chunk + 1}`;
}

async function send(
  client: ApiClient,
  body: object,
  rows: number[],
  offset: number,
  applied: number,
  idempotencyKey?: string,
): Promise<Adjusted & { replayed?: boolean }> {
  try {
    const res = await client.request<Adjusted>('POST', '/ops/inventory/adjustments', { body, idempotencyKey });
    return { ...res.data, replayed: res.headers['idempotent-replayed'] === 'true' };
  } catch (err) {
    throw refused(err, rows, offset, applied, (body as { dry_run?: boolean }).dry_run === true);
  }
}

/** One row per CSV row: on hand before -> after at the warehouse, and the change. */
function changes(results: Adjusted[], rows: number[]) {
  return results
    .flatMap((r) => r.lines)
    .map((l, i) => ({
      row: rows[i],
      sku: l.sku ?? l.product_id,
      warehouse: results[0]?.warehouse_name ?? '',
      before: l.before.on_hand,
      after: l.on_hand,
      delta: l.on_hand - l.before.on_hand,
      available_after: l.available,
    }));
}

/** The server's refusal, told in CSV rows: `row 1013: …`, and what was (not) applied. */
function refused(err: unknown, rows: number[], offset: number, applied: number, checking: boolean): unknown {
  if (err instanceof NetworkError && checking) {
    return new CliError(
      `${err.message}\nnothing was imported (every row is checked before any is applied): running the same import again is safe`,
      exitCodeFor(err),
    );
  }
  if (err instanceof NetworkError) {
    const kept = applied ? `rows ${rows[0]}-${rows[applied - 1]} are known applied; ` : 'no row is known applied; ';
    return new CliError(
      `${err.message}\n${kept}rows from ${rows[offset]} on may or may not have been applied. ` +
        'Running the same import again is safe: each request carries an idempotency key, so rows already applied are not applied twice.',
      exitCodeFor(err),
    );
  }
  if (!(err instanceof ApiError)) return err;
  const m = /lines\[(\d+)\]/.exec(err.detail) ?? /lines\[(\d+)\]/.exec(JSON.stringify(err.errors ?? ''));
  const where = m ? `row ${rows[offset + Number(m[1])]}: ` : '';
  // "lines[2].sku" means nothing to whoever holds the CSV file: the row number replaces it.
  const detail = err.detail
    .replace(/^lines\[\d+\][.:]?\s*/, '')
    .replace(/\s*\(lines\[\d+\][^)]*\)/, '')
    .replace(/\s*\(support reference: [0-9a-f]+\)$/, '');
  if (checking)
    return new CliError(
      `${where}${detail}\nnothing was imported (every row is checked before any is applied): fix the file and import it again`,
      exitCodeFor(err),
    );
  const kept = applied ? `rows ${rows[0]}-${rows[applied - 1]} were applied; ` : '';
  return new CliError(
    `${where}${detail}\n${kept}nothing from row ${rows[offset]} on was applied (fix the row and import the rest again)`,
    exitCodeFor(err),
  );
}
