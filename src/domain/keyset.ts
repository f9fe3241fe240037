import { invalid } from './errors.js';

// Keyset ("seek") paging behind the opaque `cursor` of every list (issue 9): the cursor holds the
// sort-key values of the last row of a page, and the next page is the rows strictly after them in
// the list's own order, so a deep page costs what the first does (OFFSET reads and drops every
// row before it). The list's orderBy must end with a unique key (id), as every list's does.

type Dir = 'asc' | 'desc';
interface Key {
  field: string;
  dir: Dir;
  nullsLast: boolean;
}
type OrderByItem = Record<string, Dir | { sort: Dir; nulls?: 'first' | 'last' }>;

/** The scalar sort keys of a Prisma orderBy (array or single object); undefined for other shapes (relation sorts). */
export function sortKeys(orderBy: unknown): Key[] | undefined {
  const items = (Array.isArray(orderBy) ? orderBy : [orderBy]) as OrderByItem[];
  const keys: Key[] = [];
  for (const item of items) {
    const entries = Object.entries(item ?? {});
    if (entries.length !== 1) return undefined;
    const [field, spec] = entries[0];
    if (spec === 'asc' || spec === 'desc') keys.push({ field, dir: spec, nullsLast: false });
    else if (spec && typeof spec === 'object' && (spec.sort === 'asc' || spec.sort === 'desc'))
      keys.push({ field, dir: spec.sort, nullsLast: spec.nulls === 'last' });
    else return undefined;
  }
  return keys.length ? keys : undefined;
}

/** A JS comparator of rows in the order of `orderBy` (scalar keys: dates, numbers, strings by code unit; nulls as sortKeys says). */
export function compareBy(orderBy: unknown): (a: object, b: object) => number {
  const keys = sortKeys(orderBy);
  if (!keys) throw new Error('compareBy needs a scalar orderBy');
  const value = (v: unknown) => (v instanceof Date ? v.getTime() : v);
  return (a, b) => {
    for (const { field, dir, nullsLast } of keys) {
      const x = value((a as Record<string, unknown>)[field]);
      const y = value((b as Record<string, unknown>)[field]);
      if (x === y) continue;
      if (x === null || x === undefined) return nullsLast ? 1 : dir === 'asc' ? -1 : 1;
      if (y === null || y === undefined) return nullsLast ? -1 : dir === 'asc' ? 1 : -1;
      const c = (x as number | string) < (y as number | string) ? -1 : 1;
      return dir === 'asc' ? c : -c;
    }
    return 0;
  };
}

const fingerprint = (keys: Key[]) => keys.map((k) => `${k.field}:${k.dir}${k.nullsLast ? ':nl' : ''}`).join(',');

type Encoded = null | string | number | boolean | { d: string } | { x: string };
const encodeValue = (v: unknown): Encoded => {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return { d: v.toISOString() };
  if (typeof v === 'bigint') return { x: v.toString() };
  if (typeof v === 'object') return { x: String(v) }; // Prisma Decimal
  return v as string | number | boolean;
};
const decodeValue = (v: Encoded): unknown => {
  if (v && typeof v === 'object') return 'd' in v ? new Date(v.d) : v.x;
  return v;
};

/** The cursor after `row` in the order of `orderBy`; undefined when the order is not keyset-capable. */
export function cursorAfter(row: Record<string, unknown>, orderBy: unknown): string | undefined {
  const keys = sortKeys(orderBy);
  if (!keys || keys.some((k) => !(k.field in row))) return undefined;
  const payload = { s: fingerprint(keys), v: keys.map((k) => encodeValue(row[k.field])) };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

const badCursor = () =>
  invalid(
    'query.cursor',
    'is not a cursor of this list and sort (use meta.next_cursor of the previous page, with the same order_by and order)',
  );

/** The sort-key values a cursor holds, checked against `orderBy` (400 when it does not fit). */
export function cursorValues(cursor: string, orderBy: unknown): unknown[] {
  const keys = sortKeys(orderBy);
  if (!keys) throw invalid('query.cursor', 'cursor paging is not available with this sort; use page');
  let payload: { s?: unknown; v?: unknown };
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!payload || payload.s !== fingerprint(keys) || !Array.isArray(payload.v) || payload.v.length !== keys.length) throw badCursor();
  const wellFormed = (v: unknown, key: Key) =>
    v === null ||
    (typeof v === 'string' && v.length <= 1000) ||
    (typeof v === 'number' && Number.isFinite(v)) ||
    typeof v === 'boolean' ||
    (typeof v === 'object' &&
      Object.keys(v as object).length === 1 &&
      (typeof (v as { d?: unknown }).d === 'string' ||
        (typeof (v as { x?: unknown }).x === 'string' && /^-?\d+(\.\d+)?$/.test((v as { x: string }).x))) &&
      'd' in (v as object) === /_at$/.test(key.field));
  if (!(payload.v as unknown[]).every((v, i) => wellFormed(v, keys[i]))) throw badCursor();
  const values = (payload.v as Encoded[]).map(decodeValue);
  if (values.some((v) => v instanceof Date && Number.isNaN(v.getTime()))) throw badCursor();
  return values;
}

/**
 * The where-condition selecting the rows after `cursor` (for the same orderBy), or a 400 when it
 * does not fit: { OR: […] }, with `bound` AND-ed with the first key's range (see the end).
 */
export function afterCursor(cursor: string, orderBy: unknown, { bound = false } = {}): Record<string, unknown> {
  const values = cursorValues(cursor, orderBy);
  const keys = sortKeys(orderBy)!;
  // (k1 > v1) OR (k1 = v1 AND k2 > v2) OR … ; "after" is "<" for desc keys; with NULLS LAST a null
  // comes after every value, and after a null only nulls (then the next key) follow.
  const or: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i++) {
    const prefix: Record<string, unknown>[] = keys
      .slice(0, i)
      .map((k, j) => ({ [k.field]: values[j] === null ? null : { equals: values[j] } }));
    const { field, dir, nullsLast } = keys[i];
    const v = values[i];
    let step: Record<string, unknown> | undefined;
    if (v === null)
      step = undefined; // nothing sorts strictly after a null (nulls last) but other nulls, via the next key
    else {
      const cmp = { [field]: { [dir === 'asc' ? 'gt' : 'lt']: v } };
      step = nullsLast ? { OR: [cmp, { [field]: null }] } : cmp;
    }
    if (step) or.push(prefix.length ? { AND: [...prefix, step] } : step);
  }
  if (!or.length) return { id: { in: [] } };
  // `bound`: the first key's non-strict bound (k1 >= v1, or <= for desc) is implied by the OR, so it changes
  // no result; it is there for the planners: neither SQLite nor PostgreSQL turns the OR into a
  // range on the (team, k1, …, id) index, and without the bound a page from the middle walks the
  // index from its start and filters (SQLite: or gathers every later row and sorts them). Not for
  // a nulls-last key, where nulls also follow a value.
  const { field, dir, nullsLast } = keys[0];
  if (!bound || values[0] === null || nullsLast) return { OR: or };
  return { AND: [{ [field]: { [dir === 'asc' ? 'gte' : 'lte']: values[0] } }, { OR: or }] };
}
