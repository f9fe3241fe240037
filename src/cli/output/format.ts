import type { Context } from '../context.js';
import { validateFormat, type Format } from '../profile.js';
import { UsageError } from '../errors.js';
import { parseFields } from './fields.js';

/**
 * Which output format a command uses:
 *   1. `--format table|json|ndjson|csv`
 *   2. `--json [fields]`                      -> json
 *   3. stdout not a terminal                  -> json
 *   4. on a terminal: config default_format, else table
 * `--json id,name` selects fields in every format (with `--format csv` they are the columns).
 * `--jq` filters JSON: it implies json and cannot go with a table or CSV.
 */
export interface OutputSpec {
  format: Format;
  fields?: string[];
}

export async function resolveOutput(ctx: Context): Promise<OutputSpec> {
  const { json, format } = ctx.options;
  const fields = typeof json === 'string' && json !== '' ? parseFields(json) : undefined;
  if (ctx.options.jq !== undefined) {
    if (format && format !== 'json') throw new UsageError(`--jq filters JSON; it cannot be combined with --format ${format}`);
    return { format: 'json', fields };
  }
  if (format) return { format: validateFormat(format), fields };
  if (json !== undefined && json !== false) return { format: 'json', fields };
  if (!ctx.io.isStdoutTTY) return { format: 'json', fields };
  const configured = (await ctx.config.load()).defaultFormat();
  return { format: configured ?? 'table', fields };
}
