import type { Db, TxClient } from '../../db/types.js';
import { raw, type Sql } from '@prisma/client/runtime/client';
import { ADDRESS_FIELDS as ORDER_ADDRESS_FIELDS, asAddress as asOrderAddress, type Address as OrderAddress } from '../orders/index.js';
import { nameRows, type NameRow } from './store/names.js';

// Batched name lookups for responses (warehouse, team and shop names).

type Client = Db['prisma'] | TxClient;

export interface Names {
  warehouse(id: string | null | undefined): { name: string; address: WarehouseAddress; label_format: string | null } | undefined;
  team(id: string | null | undefined): string | null;
  shop(id: string | null | undefined): { name: string; shop_type: string } | undefined;
}

export interface WarehouseAddress {
  address1: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
}

const uniq = (ids: Array<string | null | undefined>) => [...new Set(ids.filter((x): x is string => !!x))];

/**
 * Warehouses, teams and shops named in a response, in ONE statement (a UNION ALL of the kinds
 * asked for): every write of the fulfillment area presents its record with these names.
 */
export async function loadNames(
  client: Client,
  ids: {
    warehouses?: Array<string | null | undefined>;
    teams?: Array<string | null | undefined>;
    shops?: Array<string | null | undefined>;
  },
): Promise<Names> {
  const w0 = uniq(ids.warehouses ?? []);
  const t0 = uniq(ids.teams ?? []);
  const s0 = uniq(ids.shops ?? []);
  const rows = await nameRows(client, w0, t0, s0);
  return namesOf(rows);
}

function namesOf(rows: NameRow[]): Names {
  const of = (kind: NameRow['kind']) => new Map(rows.filter((r) => r.kind === kind).map((r) => [r.id, r]));
  const w = of('w');
  const t = of('t');
  const s = of('s');
  return {
    warehouse: (id) => {
      const x = id ? w.get(id) : undefined;
      return (
        x && {
          name: x.name,
          address: { address1: x.address1, city: x.city, state: x.state, zip: x.zip, country: x.country },
          label_format: x.extra,
        }
      );
    },
    team: (id) => (id ? (t.get(id)?.name ?? null) : null),
    shop: (id) => {
      const x = id ? s.get(id) : undefined;
      return x && { name: x.name, shop_type: x.extra! };
    },
  };
}

/**
 * The same names read with a row instead of by a statement of their own: columns (scalar
 * subqueries) for the SELECT or RETURNING list of a row of `table` that has "warehouse_id",
 * "merchant_team_id" and "fulfiller_team_id" (fulfillment orders, packages). A write that
 * presents its record adds them to the compare-and-set it makes anyway (docs/performance.md,
 * write path); namesOfRow() turns them back into Names.
 */
export function nameColumns(table: 'fulfillment_orders' | 'packages'): Sql {
  return raw(nameColumnsText(table));
}

/** nameColumns as SQL text (no parameters), for the stores' statements. */
export function nameColumnsText(table: 'fulfillment_orders' | 'packages'): string {
  // The label_format enum is cast to text, as in loadNames.
  const w = (expr: string, as: string) =>
    `(SELECT ${expr} FROM "warehouses" w WHERE w."id" = "${table}"."warehouse_id") AS "names_w_${as}"`;
  const t = (col: string, as: string) => `(SELECT t."name" FROM "teams" t WHERE t."id" = "${table}"."${col}") AS "names_t_${as}"`;
  return [
    ...['name', 'address1', 'city', 'state', 'zip', 'country'].map((c) => w(`w."${c}"`, c)),
    w('CAST(w."label_format" AS TEXT)', 'label_format'),
    t('merchant_team_id', 'merchant'),
    t('fulfiller_team_id', 'fulfiller'),
  ].join(', ');
}

export interface NameColumns {
  warehouse_id: string;
  merchant_team_id: string;
  fulfiller_team_id: string;
  names_w_name: string | null;
  names_w_address1: string | null;
  names_w_city: string | null;
  names_w_state: string | null;
  names_w_zip: string | null;
  names_w_country: string | null;
  names_w_label_format: string | null;
  names_t_merchant: string | null;
  names_t_fulfiller: string | null;
}

/** Names from a row read with nameColumns(), and the shop when the caller read it too. */
export function namesOfRow(r: NameColumns, shop?: { id: string; name: string; shop_type: string }): Names {
  const rows: NameRow[] = [];
  if (r.names_w_name !== null) {
    rows.push({
      kind: 'w',
      id: r.warehouse_id,
      name: r.names_w_name,
      address1: r.names_w_address1,
      city: r.names_w_city,
      state: r.names_w_state,
      zip: r.names_w_zip,
      country: r.names_w_country,
      extra: r.names_w_label_format,
    });
  }
  const team = (id: string, name: string | null) =>
    name !== null && rows.push({ kind: 't', id, name, address1: null, city: null, state: null, zip: null, country: null, extra: null });
  team(r.merchant_team_id, r.names_t_merchant);
  team(r.fulfiller_team_id, r.names_t_fulfiller);
  if (shop)
    rows.push({
      kind: 's',
      id: shop.id,
      name: shop.name,
      address1: null,
      city: null,
      state: null,
      zip: null,
      country: null,
      extra: shop.shop_type,
    });
  return namesOf(rows);
}

/** An address as stored in Json columns: the order's address, plus email on package snapshots. */
export interface Address extends OrderAddress {
  email?: string | null;
}

export const ADDRESS_FIELDS = [...ORDER_ADDRESS_FIELDS, 'email'] as const;

export const asAddress = (value: unknown) => asOrderAddress<Address>(value);

/** `{name: 'A'}` with prefix `to_address_` -> `{to_address_name: 'A', to_address_company: null, …}`. */
export function flatAddress<P extends string>(
  prefix: P,
  value: unknown,
  fields: readonly string[] = ADDRESS_FIELDS,
  /** The address's field each output field is read from, when not the same name (a label's street1: address1). */
  from: readonly string[] = fields,
) {
  const a = asAddress(value) as Record<string, unknown>;
  const keys = prefixedKeys(prefix, fields);
  const out: Record<string, string | null> = {};
  for (let i = 0; i < fields.length; i++) {
    const v = a[from[i]];
    out[keys[i]] = v === undefined || v === null || v === '' ? null : String(v);
  }
  return out;
}

// The output keys of flatAddress, by field list and prefix (a handful of each), made once: a key
// built per call is a new string the object's property store must look up in V8's string table.
const keysOf = new WeakMap<readonly string[], Map<string, readonly string[]>>();

function prefixedKeys(prefix: string, fields: readonly string[]): readonly string[] {
  let byPrefix = keysOf.get(fields);
  if (!byPrefix) keysOf.set(fields, (byPrefix = new Map()));
  let keys = byPrefix.get(prefix);
  if (!keys) byPrefix.set(prefix, (keys = fields.map((f) => `${prefix}${f}`)));
  return keys;
}
