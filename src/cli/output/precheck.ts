import type { Command } from 'commander';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { resolveOutput } from './format.js';
import { outputOf, recordTree, secretPaths, unknownAt } from './shape.js';

/**
 * Output options are checked before a command sends anything (gh does the same): an unknown
 * `--json` field (against the command's declared shape, shape.ts), a `--jq` that does not
 * compile, a `--template` that does not parse are usage errors (exit 2) with no request made, so
 * a write never succeeds and then exits non-zero because of how it was to be printed.
 * Run by main.ts's preAction hook, for every command.
 */
export interface CheckedOutput {
  /** The fields were checked against the response schema: printing does not check them again. */
  fieldsChecked: boolean;
  /** Members the API returns only once (`token`): always printed (print.ts, showSecrets). */
  secrets: string[];
}

const CHECKED = new WeakMap<Context, CheckedOutput>();

export const checkedOutput = (ctx: Context): CheckedOutput | undefined => CHECKED.get(ctx);

/** A command that checked `--json` against the record it makes (print.ts checkRecordFields): printing does not check again. */
export const markFieldsChecked = (ctx: Context) => CHECKED.set(ctx, { fieldsChecked: true, secrets: CHECKED.get(ctx)?.secrets ?? [] });

export async function checkOutputOptions(ctx: Context, cmd: Command): Promise<void> {
  const { jq, template } = ctx.options;
  const { fields } = await resolveOutput(ctx); // the field list's syntax, --jq with --format
  const declared = outputOf(cmd)?.shape;
  if (declared?.kind === 'fixed' && (fields || jq !== undefined || template !== undefined)) {
    throw new UsageError(`${cmd.name()} takes no --json fields, --jq or --template: it ${declared.why}`);
  }
  if (template !== undefined) await (await import('./template.js')).compileTemplate(template);
  if (jq !== undefined) await (await import('./jq.js')).compileJq(jq);
  if (declared?.kind === 'any') CHECKED.set(ctx, { fieldsChecked: true, secrets: [] });
  if (declared?.kind === 'none' && fields)
    throw new UsageError(`--json ${fields.join(',')}: this command prints no record (${declared.why})`);
  if (declared?.kind !== 'response' || (!fields && jq === undefined && template === undefined)) return;
  const tree = recordTree(await declared.load(cmd.opts()));
  const unknown = (fields ?? []).map((f) => ({ f, miss: unknownAt(tree, f) })).filter((u) => u.miss);
  if (unknown.length) {
    const names = unknown.map((u) => `"${u.f}"`).join(', ');
    const { at, available } = unknown[0].miss!;
    const level = at.includes('.') ? `fields of ${at.slice(0, at.lastIndexOf('.'))}` : 'fields';
    throw new UsageError(
      `unknown field${unknown.length > 1 ? 's' : ''} ${names} in --json; available ${level}:\n  ${available.join('\n  ')}`,
    );
  }
  CHECKED.set(ctx, { fieldsChecked: true, secrets: secretPaths(tree) });
}
