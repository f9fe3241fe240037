import { activeLock } from '../orders/index.js';
import type { Db, Prisma, TxClient } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { ADDRESS_FIELDS as ORDER_ADDRESS_FIELDS } from '../orders/index.js';
import { countFulfillmentOrders } from './counts.js';
import { flatAddress, loadNames, type Names } from './lookups.js';
import {
  acceptPendingFulfillmentOrder,
  countFulfillmentOrderRows,
  findFulfillmentOrderRow,
  findFulfillmentOrderRows,
  findToteIds,
  type FoRow,
} from './store/fulfillment-orders.js';

// Fulfillment orders: list, read, accept. Locks live in locks.ts, packages in packages.ts.
// State machine (docs/fulfillment.md): PENDING -accept-> ACCEPTED -lock-> IN_PROGRESS
// -fulfill (nothing remains)-> FULFILLED.

type Client = Db['prisma'] | TxClient;

export const LOCKABLE = ['ACCEPTED', 'IN_PROGRESS'];
export const CLOSED_FO = ['FULFILLED', 'CANCELLED'];

export { activeLock };

export function presentFulfillmentOrder(fo: FoRow, names: Names, now = new Date()) {
  const warehouse = names.warehouse(fo.warehouse_id);
  const total = fo.line_items.reduce((s, l) => s + l.quantity, 0);
  const remaining = fo.line_items.reduce((s, l) => s + l.remaining_quantity, 0);
  const shipping = (fo.order.shipping_address ?? {}) as Record<string, unknown>;
  return {
    id: fo.id,
    order_id: fo.order_id,
    order_number: fo.order.order_number,
    status: fo.status,
    request_status: fo.request_status,
    fulfillment_status: remaining === 0 ? 'FULFILLED' : remaining < total ? 'PARTIALLY_FULFILLED' : 'UNFULFILLED',
    warehouse_id: fo.warehouse_id,
    warehouse_name: warehouse?.name ?? null,
    merchant_team_id: fo.merchant_team_id,
    merchant_team_name: names.team(fo.merchant_team_id),
    fulfiller_team_id: fo.fulfiller_team_id,
    fulfiller_team_name: names.team(fo.fulfiller_team_id),
    picking_session_id: fo.picking_session_id,
    total_quantity: total,
    remaining_quantity: remaining,
    line_items: fo.line_items.map((l) => ({
      id: l.id,
      fulfillment_order_id: l.fulfillment_order_id,
      order_line_item_id: l.order_line_item_id,
      product_id: l.product_id,
      sku: l.sku,
      name: l.name,
      image_url: l.image_url,
      quantity: l.quantity,
      remaining_quantity: l.remaining_quantity,
      fulfilled_quantity: l.quantity - l.remaining_quantity,
      short_quantity: l.short_quantity,
    })),
    ...flatAddress('shipping_address_', shipping, ORDER_ADDRESS_FIELDS),
    customer_email: fo.order.customer_email,
    customer_name: fo.order.customer_name,
    // Extensions: the order's, so a packer (and `fos fulfill run`) sees how fast it must ship.
    priority: fo.order.priority,
    shipping_method: fo.order.shipping_method,
    // Extensions (issue 28, pick scans): who picked it, and whether a picker came up short.
    picked_by_user_id: fo.picked_by_user_id,
    picked_by_user_name: fo.picked_by_user_name,
    short_picked: fo.short_picked,
    lock: activeLock(fo, now),
    created_at: fo.created_at,
    updated_at: fo.updated_at,
  };
}

export type FulfillmentOrderView = ReturnType<typeof presentFulfillmentOrder>;

async function present(client: Client, rows: FoRow[]) {
  const names = await loadNames(client, {
    warehouses: rows.map((r) => r.warehouse_id),
    teams: rows.flatMap((r) => [r.merchant_team_id, r.fulfiller_team_id]),
  });
  const now = new Date();
  return rows.map((r) => presentFulfillmentOrder(r, names, now));
}

export interface ListFulfillmentOrdersInput extends PageRequest {
  order_id?: string;
  status?: string[];
  warehouse_id?: string;
  /** A tote's name or id: the fulfillment orders picked into it (the pack station's "scan the tote"). */
  tote?: string;
}

const ORDER = [{ created_at: 'asc' }, { id: 'asc' }];

/** Oldest first: the list is a work queue. */
export async function listFulfillmentOrders(db: Db, teamId: string, input: ListFulfillmentOrdersInput) {
  const where: Prisma.FulfillmentOrderWhereInput = {
    fulfiller_team_id: teamId,
    ...(input.order_id ? { order_id: input.order_id } : {}),
    ...(input.status ? { status: { in: input.status } } : {}),
    ...(input.warehouse_id ? { warehouse_id: input.warehouse_id } : {}),
    ...(input.tote ? { tote_id: { in: await findToteIds(db.prisma, teamId, input.tote) } } : {}),
  };
  const [rows, total] = await Promise.all([
    findFulfillmentOrderRows(db.prisma, pageArgs(input, where, ORDER)),
    // An order has a handful of fulfillment orders: counting them is an index lookup. Otherwise
    // the maintained counts answer (a team can have a million).
    input.order_id || input.tote ? countFulfillmentOrderRows(db.prisma, where) : countFulfillmentOrders(db, teamId, input),
  ]);
  const page = toPage(rows, input, total, ORDER);
  return { data: await present(db.prisma, page.data), meta: page.meta };
}

export async function loadFulfillmentOrder(client: Client, teamId: string, id: string): Promise<FulfillmentOrderView> {
  const row = await findFulfillmentOrderRow(client, teamId, id);
  if (!row) throw notFound('Fulfillment order', id);
  return (await present(client, [row]))[0];
}

export const getFulfillmentOrder = (db: Db, teamId: string, id: string) => loadFulfillmentOrder(db.prisma, teamId, id);

/** PENDING -> ACCEPTED (request_status ACCEPTED). Accepting an accepted or started one changes nothing. */
export async function acceptFulfillmentOrder(db: Db, teamId: string, id: string) {
  // One compare-and-set, atomic by itself: no transaction needed around it. When it matched
  // nothing, the read only says why (an accepted or started one is answered as it is).
  const count = await acceptPendingFulfillmentOrder(db.prisma, teamId, id);
  const fo = await loadFulfillmentOrder(db.prisma, teamId, id);
  if (!count && !LOCKABLE.includes(fo.status)) {
    throw conflict(`Fulfillment order ${id} is ${fo.status} and can no longer be accepted.`, { fulfillment_order_status: fo.status });
  }
  return fo;
}
