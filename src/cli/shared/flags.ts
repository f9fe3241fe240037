import { Argument, InvalidArgumentError, Option, type Command } from 'commander';
import { canonicalEnum, ENUMS } from '../enums.js';
import { UsageError } from '../errors.js';
import { getPath } from '../output/fields.js';
import { setPath } from './body.js';
import type { RefKind } from './refs.js';

/**
 * Declarative flags that map to query parameters or body fields. One spec gives the commander
 * option (with its value check and completion choices) and the key it fills:
 *   { key: 'weight_unit', type: 'enum', values: ENUMS.weight_unit, description: 'G or LB' }
 * gives `--weight-unit <value>` -> body.weight_unit. Dotted keys nest (`config.incoterm`).
 */
export type FieldType = 'string' | 'int' | 'number' | 'boolean' | 'list' | 'date' | 'enum';

export interface FieldSpec {
  key: string;
  description: string;
  type?: FieldType;
  /** Allowed values for enum (and list) fields. */
  values?: readonly string[];
  min?: number;
  max?: number;
  /** Overrides the derived `--key-name`. */
  flag?: string;
  /** An older spelling still accepted, hidden from help (one flag name per meaning across commands). */
  alias?: string;
  /** Value placeholder in help, default `value`. */
  arg?: string;
  /** Must end up in the body (after --field/--data are merged). */
  required?: boolean;
  /** Names a record: an id, an id prefix or its exact name is accepted and sent as the id (shared/refs.ts). */
  ref?: RefKind;
}

/** `--warehouse <names|ids>`: the list filter every warehouse-scoped list takes (`key` and `description` may differ). */
export const warehousesFilter = (over: Partial<FieldSpec> = {}): FieldSpec => ({
  key: 'warehouse_id',
  flag: '--warehouse',
  arg: 'names|ids',
  type: 'list',
  description: 'warehouse names or ids, comma-separated',
  ref: 'warehouse',
  ...over,
});

export const flagName = (spec: FieldSpec) => spec.flag ?? `--${spec.key.replace(/[._]/g, '-')}`;

function parseBool(raw: string): boolean {
  const v = raw.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(v)) return true;
  if (['false', 'no', '0'].includes(v)) return false;
  throw new InvalidArgumentError('expected true or false.');
}

function parseNumber(raw: string, spec: FieldSpec, integer: boolean): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new InvalidArgumentError(`expected ${integer ? 'a whole number' : 'a number'}.`);
  }
  if (spec.min !== undefined && n < spec.min) throw new InvalidArgumentError(`must be at least ${spec.min}.`);
  if (spec.max !== undefined && n > spec.max) throw new InvalidArgumentError(`must be at most ${spec.max}.`);
  return n;
}

function enumValue(spec: FieldSpec, raw: string): string {
  try {
    return canonicalEnum(spec.key, raw, spec.values ?? []);
  } catch {
    throw new InvalidArgumentError(`allowed values are ${(spec.values ?? []).join(', ')}.`);
  }
}

/** Parses one flag value according to its spec (commander reports InvalidArgumentError as usage). */
export function parseFlagValue(spec: FieldSpec, raw: string, previous?: unknown): unknown {
  switch (spec.type ?? 'string') {
    case 'int':
      return parseNumber(raw, spec, true);
    case 'number':
      return parseNumber(raw, spec, false);
    case 'boolean':
      return parseBool(raw);
    case 'enum':
      return enumValue(spec, raw);
    case 'date':
      if (Number.isNaN(Date.parse(raw))) throw new InvalidArgumentError('expected an ISO 8601 date or date-time.');
      return raw;
    case 'list': {
      const items = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => (spec.values ? enumValue(spec, s) : s));
      return [...((previous as string[] | undefined) ?? []), ...items];
    }
    default:
      return raw;
  }
}

function optionFor(spec: FieldSpec, flag = flagName(spec)): Option {
  const type = spec.type ?? 'string';
  const arg = spec.arg ?? (type === 'boolean' ? 'true|false' : type === 'list' ? 'a,b' : 'value');
  const option = new Option(`${flag} <${arg}>`, spec.description);
  if (spec.values) option.choices(spec.values);
  // Set after choices(): our parser accepts any case and lists the allowed values.
  return option.argParser((raw: string, prev: unknown) => parseFlagValue(spec, raw, prev));
}

export function addFieldOptions(cmd: Command, specs: readonly FieldSpec[]): Command {
  for (const spec of specs) {
    cmd.addOption(optionFor(spec));
    if (spec.alias) cmd.addOption(optionFor(spec, spec.alias).hideHelp());
  }
  return cmd;
}

/** The values given for `specs` as an object keyed (and nested) by spec.key. */
export function collectFields(opts: Record<string, unknown>, specs: readonly FieldSpec[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const value = opts[optionFor(spec).attributeName()] ?? (spec.alias ? opts[optionFor(spec, spec.alias).attributeName()] : undefined);
    if (value !== undefined) setPath(out, spec.key, value);
  }
  return out;
}

/**
 * Checks a merged body against the specs: enum members (canonicalised in place) and required
 * keys. Catches values that came through --field/--data rather than dedicated flags.
 */
export function checkBody(body: Record<string, unknown>, specs: readonly FieldSpec[], opts: { create?: boolean } = {}): void {
  for (const spec of specs) {
    const value = getPath(body, spec.key);
    if (value === undefined || value === null) {
      if (opts.create && spec.required) {
        throw new UsageError(`missing ${spec.key}: pass ${flagName(spec)} or --field ${spec.key}=…`);
      }
      continue;
    }
    if (spec.values && typeof value === 'string') setPath(body, spec.key, canonicalEnum(spec.key, value, spec.values));
    if (spec.values && Array.isArray(value)) {
      setPath(
        body,
        spec.key,
        value.map((v) => canonicalEnum(spec.key, String(v), spec.values ?? [])),
      );
    }
  }
}

/** An option taking one of ENUMS[key], in any case (completion offers the values). */
export const enumOption = (flags: string, description: string, key: keyof typeof ENUMS) =>
  new Option(flags, description).choices(ENUMS[key]).argParser((raw: string) => {
    try {
      return canonicalEnum(key, raw, ENUMS[key]);
    } catch {
      throw new InvalidArgumentError(`allowed values are ${ENUMS[key].join(', ')}.`);
    }
  });

/** A positional argument restricted to `values` (any case; completion offers the values). */
export function enumArgument(name: string, description: string, label: string, values: readonly string[]): Argument {
  return new Argument(name, description).choices(values).argParser((v: string) => canonicalEnum(label, v, values));
}
