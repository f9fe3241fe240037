import { statementsOf } from '../../db/statements.js';
import type { Db, Prisma, Provider, TxClient } from '../../db/types.js';
import { jsonRowsSql } from '../../db/values.js';
import { OPEN_STATUSES, type PurchaseOrderRow } from './view.js';

// The purchase orders' data access (issues 24 and 38): the claim of an order (receive.ts) and the
// bulk receipt's guarded UPDATE (receive-bulk.ts) on the write paths' prepared statements, rows
// typed as Prisma reads them (the receipt's lines travel as one JSON parameter); the other reads
// and writes through Prisma. The rules (what may be received, closed, cancelled) stay in the
// area's other files.

type Client = Db['prisma'] | TxClient;

const OPEN_LIST = OPEN_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * The team's order, if still open, with its updated_at set (a compare-and-set on its status that
 * also takes its row lock on PostgreSQL), and its lines; null when it is not the team's or not open.
 */
export async function claimOpen(tx: TxClient, provider: Provider, teamId: string, id: string, now: Date): Promise<PurchaseOrderRow | null> {
  const st = statementsOf(tx, provider);
  const [po] = await st.all<Omit<PurchaseOrderRow, 'lines'>>(
    `UPDATE "purchase_orders" SET "updated_at" = ? WHERE "id" = ? AND "team_id" = ? AND "status" IN (${OPEN_LIST}) RETURNING *`,
    [now, id, teamId],
  );
  if (!po) return null;
  const lines = await st.all<PurchaseOrderRow['lines'][number]>(`SELECT * FROM "purchase_order_lines" WHERE "purchase_order_id" = ?`, [id]);
  return { ...po, lines };
}

/** One row of raiseReceived: [purchase-order line id, units received, of which damaged]. */
export type ReceivedRow = [string, number, number];

/**
 * Raises each line's quantity_received (and quantity_damaged) in ONE UPDATE … FROM (rows), where
 * it does not pass the quantity ordered unless `allowOver`; returns the lines it raised.
 */
export async function raiseReceived(tx: TxClient, provider: Provider, values: ReceivedRow[], allowOver: boolean, now: Date) {
  const st = statementsOf(tx, provider);
  const cols = [
    { name: 'id', pg: 'TEXT' },
    { name: 'q', pg: 'INTEGER' },
    { name: 'd', pg: 'INTEGER' },
  ];
  const rows = await st.all<{ id: string; quantity_received: number }>(
    `WITH "v" AS (${jsonRowsSql(provider, cols)})
     UPDATE "purchase_order_lines" SET "quantity_received" = "purchase_order_lines"."quantity_received" + v."q",
       "quantity_damaged" = "purchase_order_lines"."quantity_damaged" + v."d", "updated_at" = ?
     FROM "v" WHERE "purchase_order_lines"."id" = v."id"
       AND (${allowOver ? 'TRUE' : 'FALSE'} OR "purchase_order_lines"."quantity_received" <= "purchase_order_lines"."quantity" - v."q")
     RETURNING "purchase_order_lines"."id", "purchase_order_lines"."quantity_received"`,
    [JSON.stringify(values), now],
  );
  return rows.map((r) => ({ id: r.id, quantity_received: st.dialect.int(r.quantity_received) }));
}

/** The fulfiller's active delegation from this merchant. */
export function findActiveDelegation(tx: TxClient, fulfillerTeamId: string, merchantTeamId: string) {
  return tx.fulfillmentDelegation.findFirst({
    where: { fulfiller_team_id: fulfillerTeamId, merchant_team_id: merchantTeamId, active: true },
  });
}

/** The vendor's id if it belongs to one of these (merchant) teams. */
export function vendorOfTeams(tx: TxClient, teamIds: string[], id: string) {
  return tx.vendor.findFirst({ where: { id, merchant_team_id: { in: teamIds } }, select: { id: true } });
}

/** The order with its lines, returned with them. */
export function insertPurchaseOrder(
  tx: TxClient,
  data: Omit<Prisma.PurchaseOrderUncheckedCreateInput, 'lines'>,
  lines: { product_id: string; sku: string | null; quantity: number }[],
) {
  return tx.purchaseOrder.create({ data: { ...data, lines: { create: lines } }, include: { lines: true } });
}

/** Sets the order's status (and its dates); the order with its lines. */
export function updateOrderStatus(tx: TxClient, id: string, data: Prisma.PurchaseOrderUpdateInput) {
  return tx.purchaseOrder.update({ where: { id }, data, include: { lines: true } });
}

/** Sets the order's status after a receipt (its lines not read). */
export function updateReceivedStatus(tx: TxClient, id: string, data: Prisma.PurchaseOrderUpdateInput) {
  return tx.purchaseOrder.update({ where: { id }, data });
}

export function findWarehouseName(tx: TxClient, id: string) {
  return tx.warehouse.findUnique({ where: { id }, select: { name: true } });
}

/** One page of orders (pageArgs' window) with their lines. */
export function findOrderPage(
  client: Client,
  window: { where: Prisma.PurchaseOrderWhereInput; orderBy: never; skip: number; take: number },
) {
  return client.purchaseOrder.findMany({ ...window, include: { lines: true } });
}

/** The order (within `scope`: the fulfiller's or the merchant's) with its lines. */
export function findScopedOrder(client: Client, scope: Prisma.PurchaseOrderWhereInput, id: string) {
  return client.purchaseOrder.findFirst({ where: { id, ...scope }, include: { lines: true } });
}

/** What resolving a receipt's products before the claim needs of the team's order. */
export function findOrderMerchant(client: Client, teamId: string, id: string) {
  return client.purchaseOrder.findFirst({ where: { id, team_id: teamId }, select: { merchant_team_id: true, status: true } });
}

export function findOrderStatus(tx: TxClient, teamId: string, id: string) {
  return tx.purchaseOrder.findFirst({ where: { id, team_id: teamId }, select: { status: true } });
}

export function findOrderLines(tx: TxClient, orderId: string) {
  return tx.purchaseOrderLine.findMany({ where: { purchase_order_id: orderId } });
}

export function findOrderLine(tx: TxClient, id: string) {
  return tx.purchaseOrderLine.findUniqueOrThrow({ where: { id } });
}

/** Raises one line's received (and damaged) count unless it would pass `maxReceived` (null: no limit); the count raised. */
export function raiseLineReceived(tx: TxClient, id: string, quantity: number, damaged: number, maxReceived: number | null) {
  return tx.purchaseOrderLine.updateMany({
    where: { id, ...(maxReceived === null ? {} : { quantity_received: { lte: maxReceived } }) },
    data: { quantity_received: { increment: quantity }, quantity_damaged: { increment: damaged } },
  });
}

/** The warehouse's inventory levels of these products (ids), for the order levels are taken in. */
export function findLevelIds(tx: TxClient, warehouseId: string, productIds: string[]) {
  return tx.inventoryLevel.findMany({
    where: { warehouse_id: warehouseId, product_id: { in: productIds } },
    select: { id: true, product_id: true },
  });
}
