import { Command, type Argument } from 'commander';
import type { HttpMethod } from '../../client/types.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { printRecord, type RecordViews } from '../output/print.js';
import { declareOutput, type OutputShape } from '../output/shape.js';
import { addBodyOptions, buildBody } from './body.js';
import { addFieldOptions, checkBody, collectFields, type FieldSpec } from './flags.js';
import { addArguments, commandOf, withExamples } from './help.js';
import { EXPORT_COMMANDS } from './list.js';
import { resolvePositionals, resolveRefFields } from './refs.js';

/** `get <id>`: prints one record. */
export interface GetSpec {
  name?: string;
  description: string;
  args: (string | Argument)[];
  path: (args: string[], opts: Record<string, unknown>) => string;
  examples: string[];
  configure?: (cmd: Command) => void;
  /** Turns what the user typed into ids (e.g. an order number into its order id). */
  resolveArgs?: (ctx: Context, args: string[]) => Promise<string[]>;
  /** How the record's lists show as tables on a terminal (output/table.ts NestedView). */
  views?: RecordViews;
  /** What it prints: the route's response schema (output/shape.ts); output options are checked against it first. */
  output: OutputShape;
}

export function getCommand(ctx: Context, spec: GetSpec): Command {
  const cmd = new Command(spec.name ?? 'get').description(spec.description);
  addArguments(cmd, spec.args);
  spec.configure?.(cmd);
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const args = await resolvePositionals(ctx, spec, command.processedArgs as string[], command.opts());
    const record = await ctx.client().get(spec.path(args, command.opts()));
    await printRecord(ctx, record, spec.views);
  });
  declareOutput(cmd, spec.output, { method: 'GET', path: spec.path });
  return withExamples(cmd, spec.examples);
}

/**
 * Create/update/action commands. Body = --data, then the dedicated flags in `fields`, then
 * -F/-f fields; enums and required keys are checked on the merged body before sending.
 */
export interface WriteSpec {
  name: string;
  description: string;
  method: HttpMethod;
  args?: (string | Argument)[];
  path: (args: string[], opts: Record<string, unknown>) => string;
  fields?: FieldSpec[];
  /** Adds --data/-F/-f (default: true when the command takes fields). */
  bodyOptions?: boolean;
  /** `create` checks required fields; `update` refuses an empty body; `action` may send none. */
  mode: 'create' | 'update' | 'action';
  /** Fills defaults, reshapes (e.g. wraps in { data }) or checks the body. */
  transform?: (body: Record<string, unknown>, opts: Record<string, unknown>, args: string[]) => Record<string, unknown>;
  /**
   * Destructive: asks (or needs --yes) with this question. `what` names the record
   * (`"ci-runner" (01a2…)`) when `lookup` says how to fetch it, else it is the id.
   */
  confirm?: (args: string[], what: string) => string;
  /** The record a confirmation names: GET this path, label it (fetched only to ask). */
  lookup?: { path: (args: string[]) => string; label: (record: Record<string, unknown>) => unknown };
  /** On a terminal: ask for what the flags left out (fills `body`), before it is checked. */
  interactive?: (ctx: Context, body: Record<string, unknown>) => Promise<void>;
  /** stderr line when the server answers without a body. */
  done?: (args: string[]) => string;
  /** Warning printed after a successful response (e.g. a secret shown only once). */
  notice?: string;
  /** Idempotency key for the request (makes retries safe). */
  idempotencyKey?: (opts: Record<string, unknown>) => string | undefined;
  examples: string[];
  configure?: (cmd: Command) => void;
  /** Body members a file or --data may name by name (a rule's `actions.warehouse_id`), resolved as a flag's `ref`. */
  refs?: readonly Pick<FieldSpec, 'key' | 'ref'>[];
  /** Turns what the user typed into ids (e.g. an order number into its order id). */
  resolveArgs?: (ctx: Context, args: string[]) => Promise<string[]>;
  /** Body members taken from the (resolved) arguments, e.g. { order_id }. */
  argsToBody?: (args: string[]) => Record<string, unknown>;
  /** Prints the answer in a form of its own instead (true), or leaves it to the default (false). */
  print?: (ctx: Context, record: unknown, opts: Record<string, unknown>) => Promise<boolean>;
  /** Runs after the record is printed (e.g. fetch the label just bought and print it). */
  after?: (ctx: Context, record: unknown, opts: Record<string, unknown>) => Promise<void>;
  /** What it prints: the route's response schema (output/shape.ts); output options are checked against it first. */
  output: OutputShape;
}

/**
 * A key made once per run of a command, so the client's retry of that run (a lost answer, a 503)
 * is answered by the server's stored first answer instead of applying the write twice.
 */
export const keyPerRun = (verb: string) => () => `fos-${verb}-${globalThis.crypto.randomUUID()}`;

export function writeCommand(ctx: Context, spec: WriteSpec): Command {
  const fields = spec.fields ?? [];
  const cmd = new Command(spec.name).description(spec.description);
  addArguments(cmd, spec.args ?? []);
  addFieldOptions(cmd, fields);
  if (spec.bodyOptions ?? fields.length > 0) addBodyOptions(cmd);
  spec.configure?.(cmd);

  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const opts = command.opts();
    let args = command.processedArgs as string[];
    let body = await buildBody(ctx, opts, collectFields(opts, fields));
    if (spec.transform) body = spec.transform(body, opts, args);
    if (spec.interactive && ctx.io.canPrompt && !opts.data) await spec.interactive(ctx, body);
    checkBody(body, fields, { create: spec.mode === 'create' });
    if (spec.mode === 'update' && Object.keys(body).length === 0) {
      throw new UsageError('nothing to update: pass at least one field flag, --field key=value or --data');
    }
    args = await resolvePositionals(ctx, spec, args, opts);
    await resolveRefFields(() => ctx.client(), body, [...fields, ...(spec.refs ?? [])]);
    if (spec.argsToBody) body = { ...body, ...spec.argsToBody(args) };
    // confirm.js and order-ref.js load when an action needs them, not when commands are defined.
    if (spec.confirm) await (await import('./confirm.js')).confirmDestructive(ctx, spec.confirm(args, await confirmName(ctx, spec, args)));
    const sendBody = spec.mode === 'action' && Object.keys(body).length === 0 ? undefined : body;
    const res = await ctx.client().request(spec.method, spec.path(args, opts), {
      body: sendBody,
      idempotencyKey: spec.idempotencyKey?.(opts),
    });
    if (res.data === undefined || res.data === '') {
      ctx.io.info(spec.done?.(args) ?? `${spec.name}: done`);
      return;
    }
    if (await spec.print?.(ctx, res.data, opts)) return;
    await printWritten(ctx, res.data);
    if (spec.notice) ctx.io.warn(spec.notice);
    await spec.after?.(ctx, res.data, opts);
  });
  declareOutput(cmd, spec.output, { method: spec.method, path: spec.path });
  return withExamples(cmd, spec.examples);
}

/**
 * The answer of a write that succeeded: a failure to print it (a --jq runtime error, say) is
 * said on stderr with the answer as JSON, and the command still exits 0: the change was made,
 * and a script that retried on a non-zero exit would make it twice.
 */
async function printWritten(ctx: Context, record: unknown): Promise<void> {
  try {
    await printRecord(ctx, record);
  } catch (err) {
    if ((err as Error).name === 'StdoutClosedError') throw err;
    ctx.io.warn(`the change was made, but its answer could not be printed as asked (${(err as Error).message}); the answer:`);
    await ctx.io.out(`${JSON.stringify(record, null, 2)}\n`);
  }
}

/**
 * How a confirmation names its record: `"ci-runner" (01a2c3d4…)`. Looked up only when a question
 * will really be asked (not with --yes, not in scripts, which fail for want of --yes anyway).
 */
async function confirmName(ctx: Context, spec: WriteSpec, args: string[]): Promise<string> {
  const id = args[0] ?? '';
  if (!spec.lookup || ctx.options.yes || !ctx.io.canPrompt) return id;
  const record = await ctx.client().get<Record<string, unknown>>(spec.lookup.path(args));
  const label = record && typeof record === 'object' ? spec.lookup.label(record) : undefined;
  const shortId = id.length > 12 ? `${id.slice(0, 8)}…` : id;
  return label ? `${JSON.stringify(String(label))} (${shortId})` : id;
}

/** A command group (`fos products …`) holding its verbs. */
export function group(name: string, description: string, verbs: Command[]): Command {
  const cmd = new Command(name).description(description);
  for (const v of verbs) {
    cmd.addCommand(v);
    const exporter = EXPORT_COMMANDS.get(v); // a list's export (listCommand's `export`) follows it
    if (exporter) cmd.addCommand(exporter);
  }
  return cmd;
}

/** resolveArgs for commands whose first argument is an order: an id or an order number. */
export const orderArg = async (ctx: Context, [ref, ...rest]: string[]) => [
  await (await import('./order-ref.js')).orderIdOf(ctx.client(), ref),
  ...rest,
];

/** Encodes an id for a path segment. */
export const seg = (id: string | undefined) => encodeURIComponent(id ?? '');

/** `/base`, `/base/<id>`, `/base/<id>/<action>` with the id encoded. */
export const resourcePath = (base: string, id?: string, action?: string) =>
  `${base}${id === undefined ? '' : `/${seg(id)}`}${action ? `/${action}` : ''}`;
