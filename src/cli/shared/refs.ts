import type { ApiClient } from '../../client/api-client.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { getPath } from '../output/fields.js';
import { setPath } from './body.js';
import type { FieldSpec } from './flags.js';
import { isUuid } from './order-ref.js';

/**
 * Records named the way people name them. A flag declared with `ref: 'warehouse'` takes an id,
 * an id prefix (as tables show ids, like git's short hashes) or the record's exact name; the
 * list endpoint resolves it (`?name=` exact, `?id_prefix=`). Several matches are refused with
 * the candidates (exit 2), none is "not found" (exit 4). Kinds without a name filter (products,
 * orders, …) take an id or an id prefix; anything else goes to the server as typed.
 */
export interface RefSpec {
  noun: string;
  /** The list endpoint (under the base URL). */
  list: string;
  /** Query member filtering by exact name, and the record field holding it. */
  nameQuery?: string;
  nameField?: string;
  /** Command that lists them, for the error messages. */
  hint: string;
  /** Field shown beside each id when a prefix is ambiguous (default nameField). */
  label?: string;
}

export const REFS = {
  warehouse: { noun: 'warehouse', list: '/ops/warehouses', nameQuery: 'name', nameField: 'name', hint: 'fos warehouses list' },
  product: { noun: 'product', list: '/ops/products', hint: 'fos products list', label: 'sku' },
  order: { noun: 'order', list: '/ops/orders', hint: 'fos orders list', label: 'order_number' },
  'fulfillment-order': {
    noun: 'fulfillment order',
    list: '/ops/fulfillment-orders',
    hint: 'fos fulfillment-orders list',
    label: 'order_number',
  },
  'purchase-order': { noun: 'purchase order', list: '/ops/purchase-orders', hint: 'fos purchase-orders list', label: 'reference' },
} satisfies Record<string, RefSpec>;
export type RefKind = keyof typeof REFS;

type Row = Record<string, unknown> & { id: string };
const PREFIX_RE = /^[0-9a-f-]{4,35}$/i;
export const looksLikeIdPrefix = (s: string) => PREFIX_RE.test(s.trim()) && /[0-9a-f]/i.test(s);

const candidates = (rows: Row[], label?: string) =>
  rows
    .slice(0, 10)
    .map((r) => (label && r[label] ? `${String(r[label])} (${r.id})` : r.id))
    .join(', ') + (rows.length > 10 ? ', …' : '');

/** The one record of `list` whose id starts with `prefix` (hex digits and dashes). */
export async function resolveIdPrefix(client: ApiClient, list: string, prefix: string, noun: string, label?: string): Promise<string> {
  const p = prefix.trim().toLowerCase();
  const page = await client.get<{ data: Row[] }>(list, { id_prefix: p, limit: 10 });
  // Only what really starts with it counts (a server that ignored the filter cannot mislead us).
  const rows = (page?.data ?? []).filter((r) => typeof r.id === 'string' && r.id.startsWith(p));
  if (rows.length === 1) return rows[0].id;
  if (!rows.length) throw new CliError(`no ${noun} has an id starting with ${prefix}`, ExitCode.NOT_FOUND);
  throw new UsageError(
    `id prefix ${prefix} is ambiguous: ${rows.length > 9 ? 'many ' : ''}${noun}s match (${candidates(rows, label)}); type more of the id`,
  );
}

/** A positional id as typed -> the full id: a prefix (as tables show ids) through `list`'s id_prefix. */
export async function fullIdOf(client: ApiClient, list: string, value: string, noun: string): Promise<string> {
  return isUuid(value) || !looksLikeIdPrefix(value) ? value : resolveIdPrefix(client, list, value, noun);
}

/** An id, id prefix or exact name of a `kind` record -> its id. */
export async function resolveRef(client: ApiClient, kind: RefKind, value: string): Promise<string> {
  const ref: RefSpec = REFS[kind];
  const text = value.trim();
  if (isUuid(text)) return text.toLowerCase();
  if (ref.nameQuery && ref.nameField) {
    const page = await client.get<{ data: Row[] }>(ref.list, { [ref.nameQuery]: text, limit: 100 });
    const named = (page?.data ?? []).filter((r) => r[ref.nameField!] === text);
    if (named.length === 1) return named[0].id;
    if (named.length > 1) {
      throw new UsageError(`${named.length} ${ref.noun}s are named "${text}": ${candidates(named)}; pass the id (or a prefix of it)`);
    }
  }
  if (looksLikeIdPrefix(text)) return resolveIdPrefix(client, ref.list, text, ref.noun, ref.label ?? ref.nameField);
  if (!ref.nameQuery) return text; // no name to look up: the server says what is wrong with it
  throw new CliError(`no ${ref.noun} is named "${text}" (names match exactly; ${ref.hint} shows them)`, ExitCode.NOT_FOUND);
}

/** Replaces, in a query or body, the values of the fields declared with `ref` by ids. */
export async function resolveRefFields(
  client: () => ApiClient,
  target: Record<string, unknown>,
  specs: readonly FieldSpec[],
): Promise<void> {
  for (const spec of specs) {
    if (!spec.ref) continue;
    const value = getPath(target, spec.key);
    if (typeof value === 'string') setPath(target, spec.key, await resolveRef(client(), spec.ref, value));
    else if (Array.isArray(value)) {
      const ids: string[] = [];
      for (const v of value) ids.push(await resolveRef(client(), spec.ref, String(v)));
      setPath(target, spec.key, ids);
    }
  }
}

/**
 * Positional `<…-id>` arguments given as a prefix -> full ids, through the list one level up the
 * command's path (`/merchant/vendors/<id>/…` -> `/merchant/vendors`).
 */
export async function resolveIdArgs(
  client: () => ApiClient,
  names: readonly string[],
  args: string[],
  path: (args: string[]) => string,
): Promise<string[]> {
  const out = [...args];
  for (let i = 0; i < names.length && i < out.length; i++) {
    const m = /^[<[]([a-z-]+)-id(\.\.\.)?[>\]]$/.exec(names[i]);
    const value = out[i];
    if (!m || typeof value !== 'string' || isUuid(value) || !looksLikeIdPrefix(value)) continue;
    const SENTINEL = '\u0001';
    const probe = path(out.map((a, k) => (k === i ? SENTINEL : a)));
    const at = probe.indexOf(encodeURIComponent(SENTINEL));
    if (at <= 0) continue;
    out[i] = await resolveIdPrefix(client(), probe.slice(0, at - 1), value, m[1].replace(/-/g, ' '));
  }
  return out;
}
