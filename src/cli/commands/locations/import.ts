import { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { UsageError } from '../../errors.js';
import { checkRecordFields, printRecord } from '../../output/print.js';
import { readReference } from '../../shared/body.js';
import { commandOf, withExamples } from '../../shared/help.js';
import { resolveRef } from '../../shared/refs.js';
import { parse } from '../../shared/schema-csv.js';
import { declareOutput, own } from '../../output/shape.js';

// `fos locations import bins.csv --warehouse <name|id>`: a spreadsheet of bins (name, and optionally
// type, barcode, pick_sequence, active) sent as ONE bulk request, so the file goes in whole or not
// at all. Every row is checked first; problems are reported with their row numbers (header = row 1).

const MAX = 10_000;
const norm = (h: string) => h.toLowerCase().replace(/[\s_-]+/g, '');
const COLUMNS: Record<string, string[]> = {
  name: ['name', 'location', 'bin'],
  type: ['type', 'locationtype'],
  barcode: ['barcode'],
  pick_sequence: ['picksequence', 'sequence', 'seq'],
  active: ['active'],
};

export function parseLocationsCsv(text: string): Record<string, unknown>[] {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (err) {
    throw new UsageError(`not a readable CSV file: ${(err as Error).message}`);
  }
  if (!records.length) throw new UsageError('the file is empty: expected a header row (name,type,barcode,pick_sequence) and rows');
  const header = records[0].map(norm);
  const col = Object.fromEntries(Object.entries(COLUMNS).map(([k, names]) => [k, header.findIndex((h) => names.includes(h))]));
  if (col.name < 0) throw new UsageError(`row 1: no name column (headers: ${records[0].join(', ')})`);
  if (records.length - 1 > MAX) throw new UsageError(`${records.length - 1} rows: at most ${MAX} locations per import`);
  const problems: string[] = [];
  const rows = records.slice(1).map((r, i) => {
    const row = i + 2;
    const out: Record<string, unknown> = { name: r[col.name] };
    if (!r[col.name]) problems.push(`row ${row}: no name`);
    const type = col.type >= 0 ? r[col.type]?.toUpperCase() : '';
    if (type) {
      if (!(ENUMS.location_type as readonly string[]).includes(type))
        problems.push(`row ${row}: type ${r[col.type]} is not one of ${ENUMS.location_type.join(', ')}`);
      out.type = type;
    }
    if (col.barcode >= 0 && r[col.barcode]) out.barcode = r[col.barcode];
    if (col.pick_sequence >= 0 && r[col.pick_sequence]) {
      const n = Number(r[col.pick_sequence]);
      if (!Number.isSafeInteger(n) || n < 0) problems.push(`row ${row}: pick_sequence ${r[col.pick_sequence]} is not a whole number >= 0`);
      out.pick_sequence = n;
    }
    if (col.active >= 0 && r[col.active]) {
      const v = r[col.active].toLowerCase();
      if (!['true', 'false', 'yes', 'no', '1', '0'].includes(v)) problems.push(`row ${row}: active ${r[col.active]} is not true or false`);
      out.active = ['true', 'yes', '1'].includes(v);
    }
    return out;
  });
  if (problems.length) throw new UsageError(`${problems.length} problem(s), nothing sent:\n${problems.slice(0, 20).join('\n')}`);
  if (!rows.length) throw new UsageError('the file has a header but no rows');
  return rows;
}

export default function locationsImport(ctx: Context): Command {
  const cmd = new Command('import').description('Create locations from a CSV file (name,type,barcode,pick_sequence,active): all or none');
  cmd.argument('<file>', 'CSV file, or - for stdin');
  cmd.requiredOption('--warehouse <name|id>', 'warehouse the locations belong to (name, id or id prefix)');
  cmd.option('--dry-run', 'check the file and show what would be sent, send nothing');
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const opts = command.opts();
    const [file] = command.processedArgs as string[];
    const text = file === '-' ? await ctx.io.readStdin() : await readReference(ctx, `@${file}`, '<file>');
    const locations = parseLocationsCsv(text);
    await checkRecordFields(ctx, { file, warehouse_id: '', rows: 0, created: 0, dry_run: true });
    // Resolved in a dry run too: the run checks the warehouse as well as the file.
    const warehouse = await resolveRef(ctx.client(), 'warehouse', String(opts.warehouse));
    if (opts.dryRun) {
      ctx.io.info(`dry run: ${locations.length} location(s) for warehouse ${warehouse}; nothing sent`);
      await printRecord(ctx, { file, warehouse_id: warehouse, rows: locations.length, dry_run: true });
      return;
    }
    const res = await ctx
      .client()
      .request<{ created: number }>('POST', '/ops/locations/bulk', { body: { warehouse_id: warehouse, locations } });
    ctx.io.info(`created ${res.data.created} location(s)`);
    await printRecord(ctx, { file, warehouse_id: warehouse, created: res.data.created });
  });
  declareOutput(cmd, own('prints its own summary; checks --json against it before sending'));
  return withExamples(cmd, [
    'fos locations import bins.csv --warehouse 0193…',
    'fos locations import bins.csv --warehouse 0193… --dry-run',
  ]);
}
