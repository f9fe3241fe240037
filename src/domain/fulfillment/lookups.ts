import type { Db, TxClient } from '../../db/types.js';
import { teamNames } from '../names.js';
import { ADDRESS_FIELDS as ORDER_ADDRESS_FIELDS, type Address as OrderAddress } from '../orders/address.js';

// Batched name lookups for responses (warehouse, team and shop names), one query per kind.

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

export async function loadNames(
  client: Client,
  ids: { warehouses?: Array<string | null | undefined>; teams?: Array<string | null | undefined>; shops?: Array<string | null | undefined> },
): Promise<Names> {
  // Sequential on purpose: client may be a transaction (one connection).
  const w0 = uniq(ids.warehouses ?? []);
  const s0 = uniq(ids.shops ?? []);
  const warehouses = w0.length ? await client.warehouse.findMany({ where: { id: { in: w0 } } }) : [];
  const t = await teamNames(client, ids.teams ?? []);
  const shops = s0.length ? await client.shop.findMany({ where: { id: { in: s0 } } }) : [];
  const w = new Map(warehouses.map((x) => [x.id, x]));
  const s = new Map(shops.map((x) => [x.id, x]));
  return {
    warehouse: (id) => {
      const x = id ? w.get(id) : undefined;
      return x && { name: x.name, address: { address1: x.address1, city: x.city, state: x.state, zip: x.zip, country: x.country }, label_format: x.label_format };
    },
    team: (id) => (id ? t.get(id) ?? null : null),
    shop: (id) => {
      const x = id ? s.get(id) : undefined;
      return x && { name: x.name, shop_type: x.shop_type };
    },
  };
}

/** An address as stored in Json columns: the order's address, plus email on package snapshots. */
export interface Address extends OrderAddress {
  email?: string | null;
}

export const ADDRESS_FIELDS = [...ORDER_ADDRESS_FIELDS, 'email'] as const;

export function asAddress(value: unknown): Address {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Address) : {};
}

/** `{name: 'A'}` with prefix `to_address_` -> `{to_address_name: 'A', to_address_company: null, …}`. */
export function flatAddress<P extends string>(prefix: P, value: unknown, fields: readonly string[] = ADDRESS_FIELDS) {
  const a = asAddress(value) as Record<string, unknown>;
  const out: Record<string, string | null> = {};
  for (const f of fields) {
    const v = a[f];
    out[`${prefix}${f}`] = v === undefined || v === null || v === '' ? null : String(v);
  }
  return out;
}
