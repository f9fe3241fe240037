import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

/**
 * Request bodies from the command line, shared by every create/update command and `fos api`:
 *   --data '{"name":"Mug"}' | --data @body.json | --data -     a JSON object to start from
 *   -F, --field key=value    typed: true/false/null, numbers, [..]/{..} JSON, @file, @- (stdin)
 *   -f, --raw-field key=value  always a string
 * Keys nest with dots or brackets: `config.incoterm=FAS`, `data[name]=Pallet`, `tags[]=a`.
 */
const APPEND = Symbol('append');
type Segment = string | typeof APPEND;

export function parseKeyPath(key: string): Segment[] {
  const segments: Segment[] = [];
  const re = /([^.[\]]+)|\[([^\]]*)\]|\./g;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(key)) !== null) {
    if (m.index !== consumed) break;
    consumed = re.lastIndex;
    if (m[1] !== undefined) segments.push(m[1]);
    else if (m[2] !== undefined) segments.push(m[2] === '' ? APPEND : m[2]);
  }
  if (consumed !== key.length || segments.length === 0 || segments[0] === APPEND || key.startsWith('.') || key.endsWith('.')) {
    throw new UsageError(`invalid field name "${key}"`);
  }
  return segments;
}

/** Sets a nested value, creating objects (and arrays for `[]`) on the way. */
export function setPath(target: Record<string, unknown>, key: string, value: unknown): void {
  const segments = parseKeyPath(key);
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i];
    const last = i === segments.length - 1;
    if (seg === APPEND) {
      if (!Array.isArray(node)) throw new UsageError(`field "${key}": [] used on a non-array`);
      if (last) node.push(value);
      else {
        const child = {};
        node.push(child);
        node = child;
      }
      continue;
    }
    const obj = node as Record<string, unknown>;
    if (last) {
      obj[seg] = value;
      return;
    }
    const wantArray = segments[i + 1] === APPEND;
    const existing = obj[seg];
    if (wantArray ? !Array.isArray(existing) : typeof existing !== 'object' || existing === null || Array.isArray(existing)) {
      obj[seg] = wantArray ? [] : {};
    }
    node = obj[seg] as Record<string, unknown> | unknown[];
  }
}

export function splitAssignment(arg: string, flag: string): [string, string] {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} expects key=value, got "${arg}"`);
  return [arg.slice(0, eq), arg.slice(eq + 1)];
}

/** Reads `@path` / `@-` (stdin) references. */
export async function readReference(ctx: Context, ref: string, flag: string): Promise<string> {
  const source = ref.slice(1);
  if (source === '-') return ctx.io.readStdin();
  try {
    return await readFile(source, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The value of `-F key=value`: literals, numbers, JSON arrays/objects, or @file contents. */
export async function typedValue(ctx: Context, raw: string): Promise<unknown> {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  if (raw.startsWith('@')) return readReference(ctx, raw, '--field');
  if (/^[[{]/.test(raw)) {
    try {
      return JSON.parse(raw);
    } catch {
      throw new UsageError(`--field: value ${raw} is not valid JSON`);
    }
  }
  return raw;
}

export interface BodyInput {
  data?: string;
  field?: string[];
  rawField?: string[];
}

/** Option parser collecting a repeatable flag's values. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Adds --data, -F/--field and -f/--raw-field to a command. */
export function addBodyOptions(cmd: Command): Command {
  return cmd
    .option('--data <json|@file|->', 'JSON object to send (fields below are merged into it)')
    .option('-F, --field <key=value>', 'typed body field: numbers, true/false/null, JSON, @file (repeatable)', collect)
    .option('-f, --raw-field <key=value>', 'string body field (repeatable)', collect);
}

/** Parses --data; must be a JSON object. */
export async function parseData(ctx: Context, data: string, flag = '--data'): Promise<Record<string, unknown>> {
  const text = data === '-' ? await ctx.io.readStdin() : data.startsWith('@') ? await readReference(ctx, data, flag) : data;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${flag}: invalid JSON: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${flag}: expected a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Merges `source` into `target`, recursing into plain objects (arrays are replaced). */
export function deepAssign(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(source)) {
    target[k] = isPlainObject(v) && isPlainObject(target[k]) ? deepAssign({ ...(target[k] as Record<string, unknown>) }, v) : v;
  }
  return target;
}

/** --data, then dedicated flags (`flags`), then -F/-f fields, later ones winning. */
export async function buildBody(ctx: Context, input: BodyInput, flags: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const body = deepAssign(input.data !== undefined ? await parseData(ctx, input.data) : {}, flags);
  for (const arg of input.field ?? []) {
    const [key, raw] = splitAssignment(arg, '--field');
    setPath(body, key, await typedValue(ctx, raw));
  }
  for (const arg of input.rawField ?? []) {
    const [key, raw] = splitAssignment(arg, '--raw-field');
    setPath(body, key, raw);
  }
  return body;
}
