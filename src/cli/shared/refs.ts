import type { Argument } from 'commander';
import type { ApiClient } from '../../client/api-client.js';
import type { Context } from '../context.js';
import { CliError, ExitCode } from '../errors.js';
import { getPath } from '../output/fields.js';
import { setPath } from './body.js';
import type { FieldSpec } from './flags.js';
import { argNames } from './help.js';
import { isUuid } from './order-ref.js';
import * as keys from './ref-keys.js';

/**
 * Records named the way the floor names them (docs/cli.md "Short ids and names"). A flag declared
 * with `ref: 'product'`, a positional `<product-id>` and the stations take an id, an id prefix (as
 * tables show ids, like git's short hashes) or the record's human key: a product's SKU or barcode,
 * an order's number (`1007`, `#1007`) for orders, their fulfillment orders and packages, a
 * warehouse's, location's or picking session's name. The key is tried first (an order number
 * `1007` is also hex), then the id prefix (`?id_prefix=`). Several matches are refused with the
 * candidates (exit 2), none is "not found" (exit 4).
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
  /** The human key (what it is called in messages) and how the API finds the records it names. */
  key?: { what: string; find: (client: ApiClient, text: string, list: string) => Promise<keys.Named[]> };
  /** The key's find matches id prefixes itself: the id wanted is not the list's records' own. */
  prefixInKey?: boolean;
}

const orderNumber = { what: 'order number', find: (c: ApiClient, t: string) => keys.ordersByNumber(c, t) };

export const REFS = {
  warehouse: { noun: 'warehouse', list: '/ops/warehouses', nameQuery: 'name', nameField: 'name', hint: 'fos warehouses list' },
  product: {
    noun: 'product',
    list: '/ops/products',
    hint: 'fos products list',
    label: 'sku',
    key: { what: 'SKU or barcode', find: keys.productsByKey },
  },
  order: { noun: 'order', list: '/ops/orders', hint: 'fos orders list', label: 'order_number', key: orderNumber },
  'fulfillment-order': {
    noun: 'fulfillment order',
    list: '/ops/fulfillment-orders',
    hint: 'fos fulfillment-orders list',
    label: 'order_number',
    key: { what: 'order number', find: (c: ApiClient, t: string) => keys.fulfillmentOrdersByNumber(c, t) },
  },
  package: {
    noun: 'package',
    list: '/ops/packages',
    hint: 'fos packages list',
    label: 'name',
    key: { what: 'order number', find: (c: ApiClient, t: string) => keys.packagesByNumber(c, t) },
  },
  'picking-session': {
    noun: 'picking session',
    list: '/ops/picking-sessions',
    hint: 'fos picking-sessions list',
    label: 'name',
    key: { what: 'name', find: (c: ApiClient, t: string) => keys.sessionsByName(c, t) },
  },
  location: {
    noun: 'location',
    list: '/ops/locations',
    hint: 'fos locations list',
    label: 'name',
    key: { what: 'name or barcode', find: (c: ApiClient, t: string) => keys.locationsByName(c, t) },
  },
  'purchase-order': {
    noun: 'purchase order',
    list: '/ops/purchase-orders',
    hint: 'fos purchase-orders list',
    label: 'reference',
    key: { what: 'reference', find: (c: ApiClient, t: string) => keys.purchaseOrdersByReference(c, t) },
  },
  role: { noun: 'role', list: '/roles', hint: 'fos roles list', label: 'name', key: { what: 'name', find: keys.rolesByName } },
  // A merchant team, by its name among the merchants this team fulfills for (their delegations).
  merchant: {
    noun: 'merchant',
    list: '/ops/delegations',
    hint: 'fos delegations list',
    label: 'merchant_team_name',
    key: { what: 'name', find: keys.merchantsByName },
    prefixInKey: true,
  },
} satisfies Record<string, RefSpec>;
export type RefKind = keyof typeof REFS;

/** `<fulfillment-order-id>`-style argument names whose records have a human key. */
const ARG_KINDS: Record<string, RefKind> = {
  product: 'product',
  order: 'order',
  'fulfillment-order': 'fulfillment-order',
  package: 'package',
  'picking-session': 'picking-session',
  location: 'location',
  warehouse: 'warehouse',
  'purchase-order': 'purchase-order',
  role: 'role',
};

type Row = Record<string, unknown> & { id: string };
export const looksLikeIdPrefix = keys.looksLikeIdPrefix;

export const AmbiguousRef = keys.AmbiguousRef;

const named = (rows: Row[], label?: string): keys.Named[] =>
  rows.map((r) => ({ id: r.id, label: label && r[label] ? String(r[label]) : '' }));

/**
 * The one record of `list` whose id starts with `prefix` (hex digits and dashes). `key`, when the
 * text was first tried as a human key (an order number), makes "none" say so.
 */
export async function resolveIdPrefix(
  client: ApiClient,
  list: string,
  prefix: string,
  noun: string,
  label?: string,
  key?: string,
): Promise<string> {
  const p = prefix.trim().toLowerCase();
  const page = await client.get<{ data: Row[] }>(list, { id_prefix: p, limit: 10 });
  // Only what really starts with it counts (a server that ignored the filter cannot mislead us).
  const rows = (page?.data ?? []).filter((r) => typeof r.id === 'string' && r.id.startsWith(p));
  if (rows.length === 1) return rows[0].id;
  if (!rows.length) {
    throw new CliError(
      key ? `no ${noun} has ${key} ${prefix} (and no ${noun} id starts with it)` : `no ${noun} has an id starting with ${prefix}`,
      ExitCode.NOT_FOUND,
    );
  }
  throw new AmbiguousRef(
    `id prefix ${prefix} is ambiguous: ${rows.length > 9 ? 'many' : rows.length} ${noun}s match; type more of the id`,
    named(rows, label),
  );
}

/** A positional id as typed -> the full id: a prefix (as tables show ids) through `list`'s id_prefix. */
export async function fullIdOf(client: ApiClient, list: string, value: string, noun: string): Promise<string> {
  return isUuid(value) || !looksLikeIdPrefix(value) ? value : resolveIdPrefix(client, list, value, noun);
}

/** An id, id prefix, human key or exact name of a `kind` record -> its id. `list` overrides the kind's (the merchant family). */
export async function resolveRef(client: ApiClient, kind: RefKind, value: string, list?: string): Promise<string> {
  const ref: RefSpec = REFS[kind];
  const text = value.trim();
  if (isUuid(text)) return text.toLowerCase();
  if (ref.key) {
    const found = await ref.key.find(client, text, list ?? ref.list);
    if (found.length === 1) return found[0].id;
    if (found.length > 1) {
      throw new AmbiguousRef(
        `${ref.key.what} ${text} is ambiguous: ${found.length} ${ref.noun}s match; pass the id (or a prefix of it)`,
        found,
      );
    }
  }
  if (ref.nameQuery && ref.nameField) {
    const page = await client.get<{ data: Row[] }>(ref.list, { [ref.nameQuery]: text, limit: 100 });
    const rows = (page?.data ?? []).filter((r) => r[ref.nameField!] === text);
    if (rows.length === 1) return rows[0].id;
    if (rows.length > 1)
      throw new AmbiguousRef(
        `${rows.length} ${ref.noun}s are named "${text}": pass the id (or a prefix of it)`,
        named(rows, ref.nameField),
      );
  }
  if (!ref.prefixInKey && looksLikeIdPrefix(text))
    return resolveIdPrefix(client, list ?? ref.list, text, ref.noun, ref.label ?? ref.nameField, ref.key?.what);
  if (ref.key) throw new CliError(`no ${ref.noun} has ${ref.key.what} ${text} (${ref.hint} shows them)`, ExitCode.NOT_FOUND);
  if (!ref.nameQuery) return text; // no name to look up: the server says what is wrong with it
  throw new CliError(`no ${ref.noun} is named "${text}" (names match exactly; ${ref.hint} shows them)`, ExitCode.NOT_FOUND);
}

/** Replaces, in a query or body, the values of the fields declared with `ref` by ids. */
export async function resolveRefFields(
  client: () => ApiClient,
  target: Record<string, unknown>,
  specs: readonly Pick<FieldSpec, 'key' | 'ref'>[],
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
 * Positional `<…-id>` arguments as typed -> full ids. A kind with a human key (`<product-id>`:
 * SKU or barcode, `<fulfillment-order-id>`: order number, …) goes through resolveRef, listing
 * through the path one level up (`/merchant/products/<id>` -> `/merchant/products`); other kinds
 * take an id prefix through that list.
 */
export async function resolveIdArgs(
  client: () => ApiClient,
  names: readonly string[],
  args: string[],
  path: (args: string[]) => string,
): Promise<string[]> {
  const out: unknown[] = [...args];
  for (let i = 0; i < names.length && i < out.length; i++) {
    const m = /^[<[]([a-z-]+)-ids?(\.\.\.)?[>\]]$/.exec(names[i]);
    if (!m) continue;
    const kind = ARG_KINDS[m[1]];
    const one = async (value: string): Promise<string> => {
      if (isUuid(value) || (!kind && !looksLikeIdPrefix(value))) return value;
      const SENTINEL = '\u0001';
      const probe = path(out.map((a, k) => (k === i ? SENTINEL : a)) as string[]);
      const at = probe.indexOf(encodeURIComponent(SENTINEL));
      const list = at > 0 ? probe.slice(0, at - 1) : undefined;
      if (kind) return resolveRef(client(), kind, value, list);
      return list ? resolveIdPrefix(client(), list, value, m[1].replace(/-/g, ' ')) : value;
    };
    const value = out[i];
    if (typeof value === 'string') out[i] = await one(value);
    else if (Array.isArray(value)) {
      const ids: string[] = [];
      for (const v of value) ids.push(await one(String(v)));
      out[i] = ids;
    }
  }
  return out as string[];
}

/**
 * What a packing station is given (`fos pack`'s prompt and --fo) -> the fulfillment order to pack:
 * its id or id prefix, the tote it was picked into (name or id), or its order's number (`1007`,
 * `#1007`, or the packing slip's barcode).
 */
export async function packTargetOf(client: ApiClient, text: string): Promise<string> {
  const value = text.trim();
  if (isUuid(value)) return value.toLowerCase();
  const inTote = await keys.fulfillmentOrdersInTote(client, value);
  if (inTote.length === 1) return inTote[0].id;
  if (inTote.length > 1)
    throw new AmbiguousRef(`tote ${value} holds ${inTote.length} open fulfillment orders: scan the order number`, inTote);
  return resolveRef(client, 'fulfillment-order', value);
}

/** What a command declares of its positional arguments (shared/resource.ts get and write, shared/list.ts). */
interface PositionalSpec {
  args?: readonly (string | Argument)[];
  path: (args: string[], opts: Record<string, unknown>) => string;
  resolveArgs?: (ctx: Context, args: string[]) => Promise<string[]>;
}

/** A command's positional arguments as ids: its own resolveArgs, else resolveIdArgs over the declared names. */
export function resolvePositionals(ctx: Context, spec: PositionalSpec, args: string[], opts: Record<string, unknown>): Promise<string[]> {
  if (spec.resolveArgs) return spec.resolveArgs(ctx, args);
  return resolveIdArgs(
    () => ctx.client(),
    argNames(spec.args ?? []),
    args,
    (a) => spec.path(a, opts),
  );
}
