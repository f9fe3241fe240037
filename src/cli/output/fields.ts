import { UsageError } from '../errors.js';

/**
 * Field selection for `--json id,name,config.incoterm`: comma-separated, dotted paths reach
 * into objects, and a path through an array applies to every element.
 */
export function parseFields(spec: string): string[] {
  const fields = spec
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  for (const f of fields) {
    if (!/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/.test(f)) throw new UsageError(`invalid field "${f}" in --json`);
  }
  if (fields.length === 0) throw new UsageError('--json: field list is empty');
  return fields;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at a dotted path; arrays on the way are mapped. Missing gives undefined. */
export function getPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  const segments = path.split('.');
  for (let i = 0; i < segments.length; i++) {
    if (Array.isArray(current)) {
      const rest = segments.slice(i).join('.');
      return current.map((item) => getPath(item, rest));
    }
    if (!isObject(current)) return undefined;
    current = current[segments[i]];
  }
  return current;
}

function pickPath(value: unknown, segments: string[]): unknown {
  if (segments.length === 0) return value === undefined ? null : value;
  if (Array.isArray(value)) return value.map((item) => pickPath(item, segments));
  if (!isObject(value)) return null;
  const [head, ...rest] = segments;
  return { [head]: pickPath(value[head], rest) };
}

function merge(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.map((item, i) => merge(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const out: Record<string, unknown> = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k], v) : v;
    return out;
  }
  return b;
}

/** A copy of `record` holding only the selected fields (nested shape kept, missing as null). */
export function pickFields(record: unknown, fields: readonly string[]): unknown {
  if (!isObject(record)) return record;
  let out: unknown = {};
  for (const f of fields) out = merge(out, pickPath(record, f.split('.')));
  return out;
}

/**
 * `--json idd` is a usage error naming the fields there are (as gh does), not a column of nulls.
 * Checked against the first record: the API returns every field of a record, null or not.
 */
export function checkFields(record: unknown, fields: readonly string[] | undefined): void {
  if (!fields || !isObject(record)) return;
  const unknown = fields.filter((f) => !(f.split('.')[0] in record));
  if (!unknown.length) return;
  throw new UsageError(
    `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `"${f}"`).join(', ')} in --json; available fields:\n  ${Object.keys(record).sort().join('\n  ')}`,
  );
}
