import { Command, type Argument } from 'commander';
import type { ListResponse, Query } from '../../client/types.js';
import type { Context } from '../context.js';
import { resolveOutput } from '../output/format.js';
import { printList, printResult } from '../output/print.js';
import { addFieldOptions, collectFields, type FieldSpec } from './flags.js';
import { addArguments, commandOf, withExamples } from './help.js';
import { exportCommand, type ExportSpec } from './export.js';
import { exportRecords } from '../../client/export-stream.js';
import { resolvePositionals, resolveRefFields } from './refs.js';
import { declareOutput, type OutputShape } from '../output/shape.js';

/**
 * A list command: query flags from specs, --page/--limit, and --all which walks every page
 * through the client's iterator and streams the records (json/ndjson/csv) as they arrive.
 */
export interface ListSpec {
  name?: string;
  description: string;
  /** Positional arguments, e.g. ['<picking-session-id>']. */
  args?: (string | Argument)[];
  path: (args: string[], opts: Record<string, unknown>) => string;
  query?: FieldSpec[];
  /** Largest `limit` the endpoint takes (100; picking sessions 50). */
  maxLimit?: number;
  columns: string[];
  /** Columns a narrow terminal leaves out last: what the list exists for. */
  keep?: string[];
  examples: string[];
  /** Extra options (e.g. --merchant) and checks run before the request. */
  configure?: (cmd: Command) => void;
  validate?: (opts: Record<string, unknown>, query: Query) => void;
  /** Query members the command always sends (e.g. `low-stock` is the inventory list with below_minimum=true). */
  fixedQuery?: Query;
  /** The list's export endpoint: its group gets an export command, and `--all` in the list's own order streams from it. */
  export?: Omit<ExportSpec, 'query'>;
  /** The route's list response schema (output/shape.ts): output options are checked against its records first. */
  output: OutputShape;
  /**
   * Positional ids as typed -> full ids; default: human keys and id prefixes through the list one
   * level up the path (as get commands do). For a path whose parent lists nothing.
   */
  resolveArgs?: (ctx: Context, args: string[]) => Promise<string[]>;
}

/** Each list command's export command, added beside it by group() (src/cli/shared/resource.ts). */
export const EXPORT_COMMANDS = new WeakMap<Command, Command>();

export function listCommand(ctx: Context, spec: ListSpec): Command {
  const maxLimit = spec.maxLimit ?? 100;
  const cmd = new Command(spec.name ?? 'list').description(spec.description);
  addArguments(cmd, spec.args ?? []);
  addFieldOptions(cmd, [
    ...(spec.query ?? []),
    { key: 'page', type: 'int', min: 0, arg: 'n', description: 'page number, 0-based (default 0)' },
    { key: 'limit', type: 'int', min: 1, max: maxLimit, arg: 'n', description: `records per page, 1..${maxLimit}` },
  ]);
  cmd.option('--all', 'fetch every page (streams records; mind the rate limit)');
  spec.configure?.(cmd);

  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const opts = command.opts();
    const args = await resolvePositionals(ctx, spec, command.processedArgs as string[], opts);
    const query = { ...(collectFields(opts, spec.query ?? []) as Query), ...spec.fixedQuery };
    spec.validate?.(opts, query);
    const path = spec.path(args, opts);
    const page = opts.page as number | undefined;
    const limit = opts.limit as number | undefined;
    const client = ctx.client();
    await resolveRefFields(() => client, query as Record<string, unknown>, spec.query ?? []);

    if (opts.all) {
      // Streamed records on the terminal would land on the progress line: no bar then.
      const { format } = await resolveOutput(ctx);
      const streamsToTerminal = format !== 'table' && ctx.io.isStdoutTTY;
      const progress = streamsToTerminal ? { update() {}, done() {} } : ctx.io.progress();
      // The export walks the same records newest first, counting one request per 10,000 of them
      // instead of one a page: used when the list is in that order from its start.
      const exportBase = spec.export?.path.replace(/\/export$/, '');
      const viaExport =
        spec.export &&
        (path === exportBase || path === `${exportBase}/list`) &&
        page === undefined &&
        limit === undefined &&
        query.order_by === undefined &&
        query.order === undefined;
      const rows = viaExport
        ? exportRecords<unknown>((await client.stream(spec.export!.path, query)).body as AsyncIterable<Buffer>)
        : client.paginate(
            path,
            { ...query, page },
            {
              pageSize: limit ?? maxLimit,
              onPage: ({ page: p, fetched }) => progress.update(`page ${p}: ${fetched} records`),
            },
          );
      // A table prints once the last page is in: clear the bar first, or the header lands on it.
      async function* thenClear() {
        try {
          yield* rows;
        } finally {
          progress.done();
        }
      }
      try {
        await printList(ctx, thenClear(), { columns: spec.columns, keep: spec.keep });
      } finally {
        progress.done();
      }
      return;
    }

    const body = await client.get<ListResponse<unknown>>(path, { ...query, page, limit });
    if (!body || !Array.isArray(body.data)) {
      await printResult(ctx, body);
      return;
    }
    await printList(ctx, body.data, { columns: spec.columns, keep: spec.keep });
    if (body.meta?.has_next_page && ctx.io.isStdoutTTY && ctx.io.isStderrTTY) {
      const next = (body.meta.page ?? page ?? 0) + 1;
      ctx.io.info(ctx.io.style('dim', `more records: --page ${next}, or --all`));
    }
  });
  if (spec.export) EXPORT_COMMANDS.set(cmd, exportCommand(ctx, { ...spec.export, query: spec.query ?? [] }));
  declareOutput(cmd, spec.output, { method: 'GET', path: spec.path, list: true });
  return withExamples(cmd, spec.examples);
}
