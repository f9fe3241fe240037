import { newId } from '../../../db/ids.js';
import { placeholders } from '../../../db/dialect.js';
import { lockInOrder, type Statements } from '../../../db/statements.js';
import type { Package, PackageLineItem, ShippingLabel } from '../../../db/types.js';
import { nameColumnsText, type NameColumns } from '../lookups.js';
import { byCreated, caseBy, LOCKABLE_STATUSES, NO_ACTIVE_HOLD, statusIn } from './common.js';

// The fulfill's own statements (fulfill.ts): the claim of the fulfillment order, the decrements of
// its lines and of the order's lines, the settling of the fulfillment order and of the order.

export interface PackedBy {
  userId: string;
  userName: string;
}

export interface FulfillClaim extends NameColumns {
  id: string;
  order_id: string;
  status: string;
  /** Whether the merchant's delegation has a rate card that could price the shipping. */
  priced: boolean;
}

/** What the fulfillment order's lines have left is more than the package ships (one parameter: the package). */
const LEFT = `(SELECT COALESCE(SUM(l."remaining_quantity"), 0) FROM "fulfillment_order_line_items" l WHERE l."fulfillment_order_id" = "fulfillment_orders"."id")
  > (SELECT COALESCE(SUM(pl."quantity"), 0) FROM "package_line_items" pl WHERE pl."package_id" = ?)`;

const claimText = (settle: boolean, by: boolean) => `
  UPDATE "fulfillment_orders" SET "updated_at" = ?${
    settle
      ? `, "lock_owner" = NULL, "lock_expires_at" = NULL,
    "status" = CASE WHEN ${LEFT} THEN 'IN_PROGRESS' ELSE 'FULFILLED' END,
    "packing_completed_at" = CASE WHEN ${LEFT} THEN "packing_completed_at" ELSE ? END${by ? `, "packed_by_user_id" = ?, "packed_by_user_name" = ?` : ''}`
      : ''
  }
  WHERE "id" = (SELECT "fulfillment_order_id" FROM "packages" WHERE "id" = ? AND "fulfiller_team_id" = ?)
    AND "fulfiller_team_id" = ? AND "lock_owner" = ? AND "lock_expires_at" > ? AND ${statusIn(LOCKABLE_STATUSES)}
    AND ${NO_ACTIVE_HOLD}
  RETURNING "id", "order_id", "status", "warehouse_id", "merchant_team_id", "fulfiller_team_id", ${nameColumnsText('fulfillment_orders')},
    EXISTS (SELECT 1 FROM "fulfillment_delegations" d WHERE d."merchant_team_id" = "fulfillment_orders"."merchant_team_id"
      AND d."fulfiller_team_id" = "fulfillment_orders"."fulfiller_team_id" AND d."active" AND (d."rate_card" IS NOT NULL OR d."rate_card_id" IS NOT NULL)) AS "priced"`;
const CLAIM = [claimText(false, false), claimText(true, false), claimText(true, true)];

/**
 * The compare-and-set on the package's fulfillment order (the fulfill's first statement, a write):
 * locked by `lockedBy`, lock not expired, lockable, no active hold on its order. Where one writer
 * holds the database (SQLite) it also settles the fulfillment order at once: lock released, status
 * from what its lines have left less what the package ships (each line must give its part, or the
 * transaction fails); elsewhere settleFulfillmentOrder does that after the decrements (a subquery
 * here could read a snapshot from before a concurrent fulfill it waited for). Null: no match.
 */
export async function claimForFulfill(
  st: Statements,
  c: { teamId: string; packageId: string; lockedBy: string; now: Date; by?: PackedBy },
): Promise<FulfillClaim | null> {
  const settle = st.dialect.singleWriter;
  const settleParams = settle ? [c.packageId, c.packageId, c.now, ...(c.by ? [c.by.userId, c.by.userName] : [])] : [];
  const [row] = await st.all<FulfillClaim>(CLAIM[settle ? (c.by ? 2 : 1) : 0], [
    c.now,
    ...settleParams,
    c.packageId,
    c.teamId,
    c.teamId,
    c.lockedBy,
    c.now,
    ...LOCKABLE_STATUSES,
    true,
  ]);
  return row ? { ...row, priced: Boolean(row.priced) } : null;
}

/**
 * The fulfillment order after its fulfill: settled by the claim where one writer holds the
 * database (checked against what its lines have left), else now, from what the decrements left.
 */
export async function settleFulfillmentOrder(
  st: Statements,
  fo: { id: string; status: string },
  c: { packageId: string; linesLeft: boolean; now: Date; by?: PackedBy; atCommit?: boolean },
): Promise<{ id: string; status: string }> {
  if (st.dialect.singleWriter) {
    if ((fo.status === 'FULFILLED') === c.linesLeft)
      throw new Error(`fulfill of package ${c.packageId}: fulfillment order ${fo.id} settled as ${fo.status}, but its lines say otherwise`);
    return { id: fo.id, status: fo.status };
  }
  const status = c.linesLeft ? 'IN_PROGRESS' : 'FULFILLED';
  const sql = `UPDATE "fulfillment_orders" SET "status" = ?, "lock_owner" = NULL, "lock_expires_at" = NULL, "updated_at" = ?${
    c.linesLeft ? '' : ', "packing_completed_at" = ?'
  }${c.by ? ', "packed_by_user_id" = ?, "packed_by_user_name" = ?' : ''} WHERE "id" = ?`;
  const params = [status, c.now, ...(c.linesLeft ? [] : [c.now]), ...(c.by ? [c.by.userId, c.by.userName] : []), fo.id];
  // The row is the claim's (locked since): the UPDATE cannot miss it, and its outcome is known
  // here, so with `atCommit` it leaves with the COMMIT (no round trip while the fulfill holds its level locks).
  await (c.atCommit && st.runAtCommit ? st.runAtCommit(sql, params) : st.run(sql, params));
  return { id: fo.id, status };
}

/** A fulfillment order's line as the fulfill's decrement returns it. */
export interface FoLineAfter {
  id: string;
  order_line_item_id: string;
  product_id: string | null;
  sku: string | null;
  name: string;
  quantity: number;
  remaining_quantity: number;
  created_at: Date;
}

/**
 * ONE conditional UPDATE of the fulfillment order's lines (a CASE gives each shipped line its
 * quantity, never below zero) that returns EVERY line of the order after the change, in created
 * order: the lines the package does not ship take 0 and keep their updated_at, so the fulfill needs
 * no read of the lines first. A line that cannot give its quantity (its remaining units, less the
 * units recorded short: short_quantity), or an id that is no line of this order, is absent from the result (the caller then fails its transaction).
 */
export async function decrementFulfillmentOrderLines(
  st: Statements,
  foId: string,
  amounts: Array<[id: string, quantity: number]>,
  now: Date,
): Promise<FoLineAfter[]> {
  const q = caseBy('id', amounts);
  const rows = await st.all<FoLineAfter>(
    `UPDATE "fulfillment_order_line_items" SET "remaining_quantity" = "remaining_quantity" - COALESCE(${q.sql}, 0),
      "updated_at" = CASE WHEN "id" IN (${placeholders(amounts.length)}) THEN ? ELSE "updated_at" END
    WHERE "fulfillment_order_id" = ? AND "remaining_quantity" >= COALESCE(${q.sql}, 0)
      AND (COALESCE(${q.sql}, 0) = 0 OR "remaining_quantity" - "short_quantity" >= COALESCE(${q.sql}, 0))
    RETURNING "id", "order_line_item_id", "product_id", "sku", "name", "quantity", "remaining_quantity", "created_at"`,
    [...q.params, ...amounts.map(([id]) => id), now, foId, ...q.params, ...q.params, ...q.params],
  );
  const { int, date } = st.dialect;
  return rows
    .map((r) => ({ ...r, quantity: int(r.quantity), remaining_quantity: int(r.remaining_quantity), created_at: date(r.created_at) }))
    .sort(byCreated);
}

export interface OrderLineAfter {
  id: string;
  remaining_quantity: number;
  /** The sales channel's id of the line (for the tracking push). */
  remote_id: string | null;
}

/** The same decrement for the order's CORE lines; a line that cannot give its quantity is absent. */
/**
 * PostgreSQL: the warehouse's levels of these products locked in id order, before the fulfill's
 * lines (lock order: fulfillment order -> package -> inventory levels -> FO lines -> order lines
 * -> order). A receipt, adjustment or release locks its levels first and then fills backorders
 * (order lines, the order): taking levels after order lines here would close a cycle with it.
 * Nothing on SQLite (one writer).
 */
export async function lockLevelsOf(st: Statements, warehouseId: string, productIds: string[]): Promise<void> {
  if (!productIds.length) return;
  await lockInOrder(st, 'inventory_levels', `"warehouse_id" = ? AND "product_id" IN (${placeholders(productIds.length)})`, [
    warehouseId,
    ...productIds,
  ]);
}

export async function decrementOrderLines(
  st: Statements,
  orderId: string,
  amounts: Array<[id: string, quantity: number]>,
  now: Date,
): Promise<Map<string, OrderLineAfter>> {
  if (!amounts.length) return new Map();
  // PostgreSQL: in id order first; fulfills of two fulfillment orders of one order (a split) share
  // lines. One line needs no order. Several: the locks in the same statement, a CTE the UPDATE
  // takes its rows from (its rows are locked by the CTE's FOR UPDATE, in id order, before it
  // changes them), so no round trip of its own while the fulfill holds its level locks.
  const ids = amounts.map(([id]) => id);
  const lock = amounts.length > 1 ? st.dialect.lockRowsInOrder('order_line_items', `"id" IN (${placeholders(ids.length)})`) : null;
  const q = caseBy('id', amounts);
  const rows = await st.all<OrderLineAfter>(
    `${lock ? `WITH "locked" AS MATERIALIZED (${lock}) ` : ''}UPDATE "order_line_items" SET "remaining_quantity" = "remaining_quantity" - ${q.sql}, "updated_at" = ?
    WHERE "order_id" = ? AND "kind" = 'CORE' AND "id" IN (${lock ? 'SELECT "id" FROM "locked"' : placeholders(ids.length)}) AND "remaining_quantity" >= ${q.sql}
    RETURNING "id", "remaining_quantity", "remote_id"`,
    [...(lock ? ids : []), ...q.params, now, orderId, ...(lock ? [] : ids), ...q.params],
  );
  return new Map(rows.map((r) => [r.id, { ...r, remaining_quantity: st.dialect.int(r.remaining_quantity) }]));
}

export interface OrderProgress {
  id: string;
  order_number: string;
  fulfillment_count: number;
  fulfillment_status: string;
  shop_id: string | null;
  remote_id: string | null;
  merchant_team_id: string;
  /** The order's shop, read with it (null without a shop). */
  shop: { id: string; name: string; slug: string; shop_type: string } | null;
}

/** Whether the order has CORE lines left to ship (no parameters). */
const ORDER_LEFT = `EXISTS (SELECT 1 FROM "order_line_items" l WHERE l."order_id" = "orders"."id" AND l."kind" = 'CORE' AND l."remaining_quantity" > 0)`;
const PROGRESS = `
  UPDATE "orders" SET "fulfillment_count" = "fulfillment_count" + 1, "tracking_count" = "tracking_count" + ?,
    "fulfillment_status" = CASE WHEN ${ORDER_LEFT} THEN 'PARTIALLY_FULFILLED' ELSE 'FULFILLED' END,
    "status" = CASE WHEN NOT ${ORDER_LEFT} THEN 'CLOSED' WHEN "status" = 'OPEN' THEN 'PENDING_FULFILLMENT' ELSE "status" END,
    "closed_at" = CASE WHEN ${ORDER_LEFT} THEN "closed_at" ELSE ? END, "updated_at" = ?
  WHERE "id" = ?
  RETURNING "id", "order_number", "fulfillment_count", "fulfillment_status", "shop_id", "remote_id", "merchant_team_id",
    ${['name', 'slug', 'shop_type'].map((c) => `(SELECT CAST(s."${c}" AS TEXT) FROM "shops" s WHERE s."id" = "orders"."shop_id") AS "shop_${c}"`).join(', ')}`;

/**
 * What a fulfill does to its order, after its line decrements: one more fulfillment (and tracking
 * number), and its statuses from what is left to ship: partially fulfilled -> PENDING_FULFILLMENT
 * (from OPEN); nothing left -> FULFILLED and CLOSED. Returns the order with its shop (the
 * tracking push and the response name it). Where a statement reads its own snapshot
 * (PostgreSQL) the order's row lock comes first, so the UPDATE (a new snapshot) sees what a
 * concurrent fulfill of another of the order's fulfillment orders committed while this one waited:
 * no write skew (test/api/race.test.ts, "two fulfillment orders of one order").
 */
export async function recordFulfillment(st: Statements, orderId: string, tracked: boolean, now: Date): Promise<OrderProgress> {
  const lock = st.dialect.lockRow('orders');
  if (lock) await st.all(lock, [orderId]);
  type Row = Omit<OrderProgress, 'shop'> & { shop_name: string | null; shop_slug: string | null; shop_shop_type: string | null };
  const [{ shop_name, shop_slug, shop_shop_type, ...order }] = await st.all<Row>(PROGRESS, [tracked ? 1 : 0, now, now, orderId]);
  const shop =
    order.shop_id && shop_name !== null ? { id: order.shop_id, name: shop_name, slug: shop_slug!, shop_type: shop_shop_type! } : null;
  return { ...order, fulfillment_count: st.dialect.int(order.fulfillment_count), shop };
}

export interface FulfillmentRow {
  id: string;
  package_id: string;
  fulfillment_order_id: string;
  order_id: string;
  fulfiller_team_id: string;
  merchant_team_id: string;
  name: string;
  type: string;
  status: string;
  packed_by_user_id: string | null;
  packed_by_user_name: string | null;
  picked_by_user_id: string | null;
  picked_by_user_name: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * The fulfillment row (package_id is unique: a second fulfill of the package fails here; the
 * package's claim refuses it first), every column given, as the Prisma model would write it. Its
 * outcome is known here: with `atCommit`, on PostgreSQL it leaves with the COMMIT (a failure fails
 * the commit; not when a charge will reference it).
 */
export async function insertFulfillment(
  st: Statements,
  f: Pick<FulfillmentRow, 'package_id' | 'fulfillment_order_id' | 'order_id' | 'fulfiller_team_id' | 'merchant_team_id' | 'name'>,
  now: Date,
  opts: { by?: PackedBy; atCommit?: boolean } = {},
): Promise<FulfillmentRow> {
  const { by } = opts;
  const row: FulfillmentRow = {
    id: newId(),
    ...f,
    type: 'PICK_PACK',
    status: 'FULFILLED',
    packed_by_user_id: by?.userId ?? null,
    packed_by_user_name: by?.userName ?? null,
    picked_by_user_id: null,
    picked_by_user_name: null,
    created_at: now,
    updated_at: now,
  };
  const cols = Object.keys(row) as Array<keyof FulfillmentRow>;
  const sql = `INSERT INTO "fulfillments" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${placeholders(cols.length)})`;
  const params = cols.map((c) => row[c]);
  await (opts.atCommit && st.runAtCommit ? st.runAtCommit(sql, params) : st.run(sql, params));
  return row;
}

/** The package's claim: PENDING and labelled -> FULFILLED, returned whole (the response is presented from it). Null: no match. */
export async function claimPackageForFulfill(st: Statements, packageId: string, now: Date): Promise<Package | null> {
  const [row] = await st.all<Package>(
    `UPDATE "packages" SET "status" = 'FULFILLED', "shipped_at" = ?, "updated_at" = ?
    WHERE "id" = ? AND "status" = 'PENDING' AND "shipment_status" IS NOT NULL RETURNING *`,
    [now, now, packageId],
  );
  return row ?? null;
}

/** A package's lines in the order a read shows them. */
export const packageLines = (st: Statements, packageId: string) =>
  st.all<PackageLineItem>(`SELECT * FROM "package_line_items" WHERE "package_id" = ? ORDER BY "created_at", "id"`, [packageId]);

/** A package's shipping label (at most one: package_id is unique). */
export async function labelOfPackage(st: Statements, packageId: string): Promise<ShippingLabel | null> {
  const [row] = await st.all<ShippingLabel>(`SELECT * FROM "shipping_labels" WHERE "package_id" = ?`, [packageId]);
  return row ?? null;
}
