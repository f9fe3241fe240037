import type { Db, TxClient } from '../../db/types.js';
import {
  findFulfillmentOrderOrders,
  findLocationNames,
  findLocationTypeNames,
  findOrderNumbers,
  findProductKeys,
  findTeamNames,
  findWarehouseNames,
} from './store.js';

/** db.prisma or a transaction client. */
type Client = Db['prisma'] | TxClient;

type Ids = Iterable<string | null | undefined>;

/** id -> name for the given ids (nulls and repeats ignored), in one query; none when empty. */
async function namesBy(
  find: (client: Client, ids: string[]) => Promise<Array<{ id: string; name: string }>>,
  client: Client,
  ids: Ids,
): Promise<Map<string, string>> {
  const unique = [...new Set([...ids].filter((id): id is string => Boolean(id)))];
  if (!unique.length) return new Map();
  return new Map((await find(client, unique)).map((r) => [r.id, r.name]));
}

/** id -> name for the given team ids, in one query. */
export const teamNames = (client: Client, ids: Ids) => namesBy(findTeamNames, client, ids);

/** id -> name for the given warehouse ids, in one query. */
export const warehouseNames = (client: Client, ids: Ids) => namesBy(findWarehouseNames, client, ids);

/** id -> name for the given location type ids, in one query. */
export const locationTypeNames = (client: Client, ids: Ids) => namesBy(findLocationTypeNames, client, ids);

/** What a refusal names: its records' human keys beside their ids. */
export interface RefusalIds {
  warehouses?: Iterable<string | null | undefined>;
  products?: Iterable<string | null | undefined>;
  orders?: Iterable<string | null | undefined>;
  fulfillmentOrders?: Iterable<string | null | undefined>;
  locations?: Iterable<string | null | undefined>;
}

/** `Key (id)`, or the bare id when the key is unknown. */
export interface RefusalNames {
  warehouse(id: string): string;
  product(id: string): string;
  order(id: string): string;
  /** `fulfillment order <id> (order #1007)` */
  fulfillmentOrder(id: string): string;
  location(id: string): string;
}

const distinct = (ids?: Iterable<string | null | undefined>) => [...new Set([...(ids ?? [])].filter((id): id is string => Boolean(id)))];
const both = (key: string | null | undefined, id: string) => (key ? `${key} (${id})` : id);

/**
 * The human keys of the records a refusal names (warehouse name, SKU, order number, location
 * name), each kind in one query and only for the kinds asked: refusals call it when they refuse,
 * so the path that succeeds pays nothing (docs/conventions.md "Refusals name records").
 */
export async function refusalNames(client: Client, ids: RefusalIds): Promise<RefusalNames> {
  const [w, p, o, f, l] = [ids.warehouses, ids.products, ids.orders, ids.fulfillmentOrders, ids.locations].map(distinct);
  const [warehouses, products, fos, locations] = await Promise.all([
    w.length ? findWarehouseNames(client, w) : [],
    p.length ? findProductKeys(client, p) : [],
    f.length ? findFulfillmentOrderOrders(client, f) : [],
    l.length ? findLocationNames(client, l) : [],
  ]);
  const orderIds = [...new Set([...o, ...fos.map((x) => x.order_id)])];
  const orders = orderIds.length ? await findOrderNumbers(client, orderIds) : [];
  const map = <T extends { id: string }>(rows: T[], key: (r: T) => string | null | undefined) => new Map(rows.map((r) => [r.id, key(r)]));
  const wn = map(warehouses, (r) => r.name);
  const pn = map(products, (r) => r.sku ?? r.name);
  const on = map(orders, (r) => r.order_number);
  const fo = map(fos, (r) => on.get(r.order_id));
  const ln = map(locations, (r) => r.name);
  return {
    warehouse: (id) => both(wn.get(id), id),
    product: (id) => both(pn.get(id), id),
    order: (id) => (on.get(id) ? `order ${on.get(id)} (${id})` : `order ${id}`),
    fulfillmentOrder: (id) => `fulfillment order ${id}${fo.get(id) ? ` (order ${fo.get(id)})` : ''}`,
    location: (id) => both(ln.get(id), id),
  };
}

/** A refusal's first word capitalised: `Fulfillment order … is CANCELLED`. */
export const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `Fulfillment order <id> (order #1007)`: the subject of a refusal about one fulfillment order. */
export async function namedFulfillmentOrder(client: Client, id: string): Promise<string> {
  return capital((await refusalNames(client, { fulfillmentOrders: [id] })).fulfillmentOrder(id));
}
