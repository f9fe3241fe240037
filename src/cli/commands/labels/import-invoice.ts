import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { checkRecordFields, printRecord } from '../../output/print.js';
import { readReference } from '../../shared/body.js';
import { commandOf, withExamples } from '../../shared/help.js';
import { parseSchemaCsv } from '../../shared/schema-csv.js';
import { declareOutput, own } from '../../output/shape.js';
import type { Static } from 'typebox';
import type { InvoiceImportSchema } from '../../../contract/carrier-invoices.js';

// `fos labels import-invoice carrier-invoice.csv`: the lines of a carrier's invoice, sent to
// POST /v1/ops/carrier-invoices 1,000 per request (docs/carrier-invoices.md). Importing the same
// file again changes nothing: the server replays each request's first result.

type ImportAnswer = Static<typeof InvoiceImportSchema>;

export default function labelsImportInvoice(ctx: Context): Command {
  const cmd = new Command('import-invoice')
    .description("Import a carrier invoice CSV: record each label's carrier_correction and bill the differences to merchants")
    .argument(
      '<file>',
      'CSV file with a header row (tracking_number, carrier_invoice_number, carrier_invoice_date, corrected_carrier_cost, …), or - for stdin',
    )
    .option('--currency <code>', 'currency of rows without a currency column (ISO 4217)', 'USD')
    .option('--dry-run', 'check the file, send nothing');
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const opts = command.opts<{ currency: string; dryRun?: boolean }>();
    const [file] = command.processedArgs as string[];
    const currency = opts.currency.toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) throw new UsageError(`--currency: expected a 3-letter ISO 4217 code, got "${opts.currency}"`);
    const text = file === '-' ? await ctx.io.readStdin() : await readReference(ctx, `@${file}`, '<file>');
    // The columns come from the API's own schema (loaded only here, so `fos --help` stays light).
    const [{ ImportInvoiceBody }, { MAX_INVOICE_LINES }] = await Promise.all([
      import('../../../contract/carrier-invoices.js'),
      import('../../../contract/carrier-invoices-limits.js'),
    ]);
    const fields = (ImportInvoiceBody.properties.lines.items as unknown as { properties: Record<string, never> }).properties;
    const { bodies, rows } = parseSchemaCsv(text, fields, {
      required: ['tracking_number', 'carrier_invoice_number', 'carrier_invoice_date', 'corrected_carrier_cost'],
      what: 'invoice',
      instead: 'leave the column out',
    });
    if (!bodies.length) throw new UsageError('the file has a header but no rows');
    const lines = bodies.map((b) => ({
      currency,
      ...b,
      ...(typeof b.currency === 'string' ? { currency: b.currency.toUpperCase() } : {}),
    }));
    const filename = file === '-' ? 'stdin.csv' : file.split(/[\\/]/).pop()!;
    const requests = Math.ceil(lines.length / MAX_INVOICE_LINES);
    const summary = {
      file: filename,
      rows: lines.length,
      requests,
      import_ids: [] as string[],
      replayed: 0,
      corrected: 0,
      unchanged: 0,
      billed: [] as { currency: string; total: number }[],
      charges: 0,
      unmatched: [] as { row: number; tracking_number: string; reason: string }[],
    };
    await checkRecordFields(ctx, { ...summary, dry_run: true });
    if (opts.dryRun) {
      ctx.io.info(`dry run: ${lines.length} line(s) in ${requests} request(s); nothing sent`);
      await printRecord(ctx, { ...summary, dry_run: true });
      return;
    }
    const totals = new Map<string, number>();
    const progress = ctx.io.progress();
    try {
      for (let offset = 0; offset < lines.length; offset += MAX_INVOICE_LINES) {
        progress.update(`importing: ${offset}/${lines.length} lines`);
        const { data } = await ctx.client().request<ImportAnswer>('POST', '/ops/carrier-invoices', {
          body: { filename, lines: lines.slice(offset, offset + MAX_INVOICE_LINES) },
        });
        summary.import_ids.push(data.id);
        if (data.replayed) summary.replayed++;
        else {
          summary.corrected += data.corrected;
          summary.unchanged += data.unchanged;
          summary.charges += data.charges.length;
          for (const c of data.charges) totals.set(c.currency, Math.round(((totals.get(c.currency) ?? 0) + c.amount) * 100) / 100);
        }
        for (const u of data.unmatched)
          summary.unmatched.push({ row: rows[offset + u.line - 1], tracking_number: u.tracking_number, reason: u.reason });
      }
    } finally {
      progress.done();
    }
    summary.billed = [...totals].map(([c, total]) => ({ currency: c, total }));
    await printRecord(ctx, summary);
    if (summary.replayed === requests) ctx.io.info(`already imported (${summary.import_ids.join(', ')}): nothing changed`);
    else ctx.io.info(`${summary.corrected} label(s) corrected, ${summary.unchanged} unchanged, ${summary.charges} charge(s) billed`);
    if (summary.unmatched.length) {
      ctx.io.warn(
        `${summary.unmatched.length} line(s) matched no label: ${summary.unmatched
          .slice(0, 5)
          .map((u) => `row ${u.row} (${u.tracking_number}): ${u.reason}`)
          .join('; ')}${summary.unmatched.length > 5 ? '; …' : ''}`,
      );
    }
  });
  declareOutput(cmd, own('prints its own summary; checks --json against it before sending'));
  return withExamples(cmd, [
    'fos labels import-invoice ups-invoice-2026-11.csv',
    'fos labels import-invoice fedex.csv --currency CAD --dry-run',
  ]);
}
