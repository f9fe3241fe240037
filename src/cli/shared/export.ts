import { Command } from 'commander';
import { ExportTally } from '../../client/export-stream.js';
import type { Query } from '../../client/types.js';
import type { Context } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { addFieldOptions, collectFields, type FieldSpec } from './flags.js';
import { withExamples } from './help.js';
import { declareOutput, fixed } from '../output/shape.js';
import { resolveRefFields } from './refs.js';

// `fos <list> export`: a list's export endpoint (GET …/export) written to stdout as it arrives,
// byte for byte (NDJSON or CSV, the server's own CSV), with the list's filters. An interrupted
// export says how many records arrived and how to resume after the last one.

export interface ExportSpec {
  /** The command's name in its group (`export`; `export-movements` where the group has several lists). */
  name: string;
  description: string;
  path: string;
  /** The list's filters (its sort flags are dropped: an export is newest first). */
  query: readonly FieldSpec[];
  examples: string[];
}

const SORT_KEYS = new Set(['order_by', 'order']);

export function exportCommand(ctx: Context, spec: ExportSpec): Command {
  const filters = spec.query.filter((f) => !SORT_KEYS.has(f.key));
  const cmd = new Command(spec.name).description(spec.description);
  addFieldOptions(cmd, filters);
  cmd.addHelpText(
    'after',
    `
Output: NDJSON (a JSON record a line), or with --format csv a header line then a line a record
(nested values as JSON; a text cell starting with = + - @ is prefixed with ' against formula
injection). Counts as one request per 10,000 records against the key's rate limit.`,
  );
  cmd.option('--after <id>', 'resume after this record id (the last one an interrupted export wrote)');
  cmd.action(async (opts: Record<string, unknown>) => {
    // The global --format: csv is the server's CSV, anything else NDJSON (--json, --jq and templates are for lists).
    if (ctx.options.jq !== undefined || ctx.options.template !== undefined || ctx.options.json !== undefined) {
      throw new UsageError(
        'an export writes NDJSON, or CSV with --format csv; filter it with the list command (--all) for --json, --jq or --template',
      );
    }
    const format = ctx.options.format === 'csv' ? 'csv' : 'ndjson';
    const query: Query = { ...(collectFields(opts, filters) as Query), format, after: opts.after as string | undefined };
    const client = ctx.client();
    await resolveRefFields(() => client, query as Record<string, unknown>, filters); // --warehouse by name, as the list takes it
    const { body } = await client.stream(spec.path, query);
    const tally = new ExportTally(format);
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        tally.take(chunk);
        await ctx.io.out(chunk);
      }
    } catch (err) {
      if (err instanceof CliError || (err as Error).name === 'StdoutClosedError') throw err;
      const resume = tally.lastId
        ? ` The first ${tally.records} records were written; resume with --after ${tally.lastId} (append: >>).`
        : ' No record was written.';
      throw new CliError(`export interrupted: ${(err as Error).message}.${resume}`, ExitCode.NETWORK);
    }
    if (ctx.io.isStderrTTY) ctx.io.info(ctx.io.style('dim', `${tally.records} records exported`));
  });
  declareOutput(cmd, fixed("writes the server's NDJSON or CSV as it arrives"));
  return withExamples(cmd, spec.examples);
}
