import { Command, type Argument } from 'commander';
import type { HttpMethod } from '../../client/types.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { printRecord } from '../output/print.js';
import { addBodyOptions, buildBody } from './body.js';
import { confirmDestructive } from './confirm.js';
import { addFieldOptions, checkBody, collectFields, type FieldSpec } from './flags.js';
import { addArguments, commandOf, withExamples } from './help.js';

/** `get <id>`: prints one record. */
export interface GetSpec {
  name?: string;
  description: string;
  args: (string | Argument)[];
  path: (args: string[], opts: Record<string, unknown>) => string;
  examples: string[];
  configure?: (cmd: Command) => void;
}

export function getCommand(ctx: Context, spec: GetSpec): Command {
  const cmd = new Command(spec.name ?? 'get').description(spec.description);
  addArguments(cmd, spec.args);
  spec.configure?.(cmd);
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = commandOf(actionArgs);
    const record = await ctx.client().get(spec.path(command.processedArgs as string[], command.opts()));
    await printRecord(ctx, record);
  });
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
  /** Destructive: asks (or needs --yes) with this question. */
  confirm?: (args: string[]) => string;
  /** stderr line when the server answers without a body. */
  done?: (args: string[]) => string;
  /** Warning printed after a successful response (e.g. a secret shown only once). */
  notice?: string;
  /** Idempotency key for the request (makes retries safe). */
  idempotencyKey?: (opts: Record<string, unknown>) => string | undefined;
  examples: string[];
  configure?: (cmd: Command) => void;
}

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
    const args = command.processedArgs as string[];
    let body = await buildBody(ctx, opts, collectFields(opts, fields));
    if (spec.transform) body = spec.transform(body, opts, args);
    checkBody(body, fields, { create: spec.mode === 'create' });
    if (spec.mode === 'update' && Object.keys(body).length === 0) {
      throw new UsageError('nothing to update: pass at least one field flag, --field key=value or --data');
    }
    if (spec.confirm) await confirmDestructive(ctx, spec.confirm(args));
    const sendBody = spec.mode === 'action' && Object.keys(body).length === 0 ? undefined : body;
    const res = await ctx.client().request(spec.method, spec.path(args, opts), {
      body: sendBody,
      idempotencyKey: spec.idempotencyKey?.(opts),
    });
    if (res.data === undefined || res.data === '') {
      ctx.io.info(spec.done?.(args) ?? `${spec.name}: done`);
      return;
    }
    await printRecord(ctx, res.data);
    if (spec.notice) ctx.io.warn(spec.notice);
  });
  return withExamples(cmd, spec.examples);
}

/** A command group (`fos products …`) holding its verbs. */
export function group(name: string, description: string, verbs: Command[]): Command {
  const cmd = new Command(name).description(description);
  for (const v of verbs) cmd.addCommand(v);
  return cmd;
}

/** Encodes an id for a path segment. */
export const seg = (id: string | undefined) => encodeURIComponent(id ?? '');

/** `/base`, `/base/<id>`, `/base/<id>/<action>` with the id encoded. */
export const resourcePath = (base: string, id?: string, action?: string) =>
  `${base}${id === undefined ? '' : `/${seg(id)}`}${action ? `/${action}` : ''}`;
