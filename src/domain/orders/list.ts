import type { Db, Prisma } from '../../db/types.js';
import { invalid } from '../errors.js';
import { cursorAfter, cursorValues } from '../keyset.js';
import { csvList, enumList, pageArgs, pageWindow, toPage, type PageRequest } from '../pagination.js';
import { FULFILLMENT_STATUSES, ORDER_STATUSES, PAYMENT_STATUSES } from '../../contract/orders-enums.js';
import { idsOfNamed } from './list-names.js';
import { orderSearch } from './search.js';
import { orderListPage, type OrderPageQuery, type OrderPageRow } from './store/common.js';
import { findOrderListPage } from './store/lists.js';
import { loadNames, orderListItem, type Names, type OrderListRow } from './view.js';

// GET /v1/ops/orders (spec 4.5): filters, sorts, page or keyset cursor. The common pages (no
// search, sorted by a date) are one prepared statement through the driver (store.ts
// orderListPage); a search or the order_number sort go through Prisma.

export interface OrderListQuery extends PageRequest {
  search?: string;
  status?: string;
  payment_status?: string;
  fulfillment_status?: string;
  created_at_min?: string;
  created_at_max?: string;
  updated_at_min?: string;
  updated_at_max?: string;
  order_by?: 'created_at' | 'updated_at' | 'order_number';
  order?: 'asc' | 'desc';
  /** Additive filters (issue 34 item 4): comma-separated ids (merchants and shops: or exact names); on_hold: with (true) or without an active hold. */
  merchant_team_id?: string;
  shop_id?: string;
  warehouse_id?: string;
  on_hold?: boolean;
  /** Comma-separated tags: orders having any of them (order_tags, index team, tag, order_id). */
  tag?: string;
}

/**
 * The additive filters, as Prisma conditions: merchants and shops by their (team, column,
 * created_at, id) indexes, warehouses through the order's fulfillment orders (index team, warehouse, created_at),
 * holds through order_fulfillment_holds (index active, order_id), tags through order_tags (index
 * team, tag, order_id; any of the listed tags, as the spec's comma lists mean any of the values).
 */
async function narrowing(db: Db, teamId: string, q: OrderListQuery): Promise<Prisma.OrderWhereInput | undefined> {
  const merchants = await idsOfNamed(db, teamId, 'merchant', 'query.merchant_team_id', csvList(q.merchant_team_id));
  const shops = await idsOfNamed(db, teamId, 'shop', 'query.shop_id', csvList(q.shop_id));
  const warehouses = csvList(q.warehouse_id);
  const tags = csvList(q.tag);
  const where: Prisma.OrderWhereInput = {
    ...(merchants ? { merchant_team_id: { in: merchants } } : {}),
    ...(shops ? { shop_id: { in: shops } } : {}),
    ...(warehouses ? { fulfillment_orders: { some: { fulfiller_team_id: teamId, warehouse_id: { in: warehouses } } } } : {}),
    ...(tags ? { tag_rows: { some: { fulfiller_team_id: teamId, tag: { in: tags } } } } : {}),
    ...(q.on_hold === undefined ? {} : { holds: q.on_hold ? { some: { active: true } } : { none: { active: true } } }),
  };
  return Object.keys(where).length ? where : undefined;
}

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** ISO 8601 date or date-time (UTC unless an offset is given). A bare date as an upper bound means the end of that day. */
function bound(path: string, value: string | undefined, upper: boolean): Date | undefined {
  if (!value) return undefined;
  const v = value.trim();
  const m = ISO.exec(v);
  const date = m ? new Date(m[1] && !m[4] ? `${v}Z` : m[1] ? v : `${v}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime())) throw invalid(path, 'must be an ISO 8601 date or date-time');
  return !m![1] && upper ? new Date(date.getTime() + 86_400_000 - 1) : date;
}

function range(prefix: 'created_at' | 'updated_at', min?: string, max?: string) {
  const gte = bound(`query.${prefix}_min`, min, false);
  const lte = bound(`query.${prefix}_max`, max, true);
  return gte || lte ? { ...(gte ? { gte } : {}), ...(lte ? { lte } : {}) } : undefined;
}

/** `driver: false` reads every page through Prisma (the parity test compares both paths). */
export async function listOrders(db: Db, fulfillerTeamId: string, q: OrderListQuery, { driver = true } = {}) {
  const search = q.search?.trim();
  const searching = q.search !== undefined && q.search !== '';
  if (searching && (!search || search.length < 3)) throw invalid('query.search', 'must be at least 3 characters');
  const status = enumList('query.status', q.status, ORDER_STATUSES);
  const payment = enumList('query.payment_status', q.payment_status, PAYMENT_STATUSES);
  const fulfillment = enumList('query.fulfillment_status', q.fulfillment_status, FULFILLMENT_STATUSES);
  const created = range('created_at', q.created_at_min, q.created_at_max);
  const updated = range('updated_at', q.updated_at_min, q.updated_at_max);
  const dir = q.order ?? 'desc';
  const orderBy: Prisma.OrderOrderByWithRelationInput[] =
    q.order_by === 'order_number'
      ? [{ order_number_class: 'asc' }, { order_sort_key: dir }, { id: dir }] // numbers first, either way (numbers.ts)
      : [{ [q.order_by ?? 'created_at']: dir }, { id: dir }];

  const narrowed = await narrowing(db, fulfillerTeamId, q);
  // The driver's prepared page covers the spec's filters; the additive ones go through Prisma.
  if (driver && !searching && q.order_by !== 'order_number' && !q.id_prefix && !narrowed) {
    const after = q.cursor ? cursorValues(q.cursor, orderBy) : undefined;
    if (!after || (after[0] instanceof Date && typeof after[1] === 'string')) {
      const key = q.order_by ?? 'created_at';
      const page: OrderPageQuery = { teamId: fulfillerTeamId, status, payment, fulfillment, created, updated, key, dir, ...pageWindow(q) };
      const rows = await orderListPage(db, { ...page, after: after as [Date, string] | undefined });
      if (rows) return driverPage(rows, q, key, orderBy);
    }
  }

  const where: Prisma.OrderWhereInput = { fulfiller_team_id: fulfillerTeamId };
  if (searching) where.OR = await orderSearch(db, search!);
  if (status) where.status = { in: status as never };
  if (payment) where.payment_status = { in: payment };
  if (fulfillment) where.fulfillment_status = { in: fulfillment };
  if (created) where.created_at = created;
  if (updated) where.updated_at = updated;
  if (narrowed) Object.assign(where, narrowed);
  const rows = await findOrderListPage(db.prisma, pageArgs(q, where, orderBy));
  const page = toPage(rows, q, undefined, orderBy);
  const names = await loadNames(db, page.data);
  return { data: page.data.map((o) => orderListItem(o, names)), meta: page.meta };
}

/** Stored ISO text (the adapter's `+00:00` form) as Date#toISOString() writes it. */
const isoText = (v: string) => (v.length === 29 && v.endsWith('+00:00') ? `${v.slice(0, 23)}Z` : new Date(v).toISOString());
const isoOrNull = (v: string | null) => (v === null ? null : isoText(v));
const json = (v: string | null) => (v === null ? null : (JSON.parse(v) as unknown));

/** The page of orderListPage's rows: the same items (orderListItem) and meta as the Prisma path's. */
function driverPage(rows: OrderPageRow[], q: OrderListQuery, key: 'created_at' | 'updated_at', orderBy: unknown) {
  const page = toPage(rows, q);
  const names: Names = { team: new Map(), shop: new Map() };
  const data = page.data.map((r) => {
    if (r.merchant_team_name !== null) names.team.set(r.merchant_team_id, r.merchant_team_name);
    if (r.shop_id) names.shop.set(r.shop_id, { id: r.shop_id, name: r.shop_name!, shop_type: r.shop_type! } as never);
    // Dates stay ISO text (the serializer writes strings as they are): no Date per value.
    const row = {
      ...r,
      created_at: isoText(r.created_at),
      closed_at: isoOrNull(r.closed_at),
      cancelled_at: isoOrNull(r.cancelled_at),
      tags: json(r.tags),
      shipping_address: json(r.shipping_address),
      line_item_image_urls: json(r.line_item_image_urls),
      address_verified: Boolean(r.address_verified),
    } as unknown as OrderListRow;
    return orderListItem(row, names);
  });
  const last = page.data[page.data.length - 1];
  const next = rows.length > q.limit && last ? (cursorAfter({ [key]: new Date(last[key]), id: last.id }, orderBy) ?? null) : null;
  return { data, meta: { ...page.meta, next_cursor: next } };
}
