import type { Db, Prisma, TxClient } from '../../db/types.js';

// The returns' data access (issues 24 and 38): the guarded reservation of an order line's returned
// quantity in SQL, the rest through Prisma. The rules (what may come back, and where) stay in
// returns.ts and restock.ts.

type Client = Db['prisma'] | TxClient;

/**
 * Reserves `quantity` more of an order line for a return, only while the line's returns stay
 * within what was fulfilled of it (the guard is in the WHERE, so racing returns cannot
 * over-return). Returns the rows changed: 1 when reserved, 0 when it would pass the fulfilled.
 */
export function reserveReturnedQuantity(tx: TxClient, lineId: string, quantity: number): Promise<number> {
  return tx.$executeRaw`UPDATE "order_line_items" SET "returned_quantity" = "returned_quantity" + ${quantity}
        WHERE "id" = ${lineId} AND "returned_quantity" + ${quantity} <= "total_quantity" - "removed_quantity" - "remaining_quantity"`;
}

/** The fulfiller's order with its CORE line items. */
export function findOrderWithCoreLines(tx: TxClient, fulfillerTeamId: string, id: string) {
  return tx.order.findFirst({
    where: { id, fulfiller_team_id: fulfillerTeamId },
    include: { line_items: { where: { kind: 'CORE' } } },
  });
}

export function findOrderLine(tx: TxClient, id: string) {
  return tx.orderLineItem.findUniqueOrThrow({ where: { id } });
}

/** Gives back `quantity` of an order line's returned quantity (a cancelled return). */
export function releaseReturnedQuantity(tx: TxClient, lineId: string, quantity: number) {
  return tx.orderLineItem.update({ where: { id: lineId }, data: { returned_quantity: { decrement: quantity } } });
}

/** The delegation between these teams (its id), active or not. */
export function findDelegationId(tx: TxClient, merchantTeamId: string, fulfillerTeamId: string) {
  return tx.fulfillmentDelegation.findFirst({
    where: { merchant_team_id: merchantTeamId, fulfiller_team_id: fulfillerTeamId },
    select: { id: true },
  });
}

/** The return with its lines, returned with them. */
export function insertReturn(
  tx: TxClient,
  data: Omit<Prisma.ReturnUncheckedCreateInput, 'lines'>,
  lines: Prisma.ReturnLineUncheckedCreateWithoutRetInput[],
) {
  return tx.return.create({ data: { ...data, lines: { create: lines } }, include: { lines: true } });
}

/** The warehouse of the order's latest FULFILLED fulfillment order. */
export function findLatestFulfilledWarehouse(tx: TxClient, orderId: string) {
  return tx.fulfillmentOrder.findFirst({
    where: { order_id: orderId, status: 'FULFILLED' },
    orderBy: { updated_at: 'desc' },
    select: { warehouse_id: true },
  });
}

/** Writes the team's return's updated_at while it is OPEN or PARTIALLY_RECEIVED (compare-and-set); the count. */
export function touchOpenReturn(tx: TxClient, teamId: string, id: string, now: Date) {
  return tx.return.updateMany({
    where: { id, team_id: teamId, status: { in: ['OPEN', 'PARTIALLY_RECEIVED'] } },
    data: { updated_at: now },
  });
}

export function findTeamReturn(client: Client, teamId: string, id: string) {
  return client.return.findFirst({ where: { id, team_id: teamId }, include: { lines: true } });
}

/** One page of returns (pageArgs' window) with their lines. */
export function findReturnPage(client: Client, window: { where: Prisma.ReturnWhereInput; orderBy: never; skip: number; take: number }) {
  return client.return.findMany({ ...window, include: { lines: true } });
}

/** Sets the return's status (and dates); the return with its lines. */
export function updateReturn(tx: TxClient, id: string, data: Prisma.ReturnUpdateInput) {
  return tx.return.update({ where: { id }, data, include: { lines: true } });
}

/**
 * Receives `quantity` of a return line (damaged, or restocked) unless that passes what the line
 * expects (the guard in the WHERE); the count changed.
 */
export function receiveReturnLine(tx: TxClient, line: { id: string; quantity: number }, quantity: number, damaged: boolean) {
  return tx.returnLine.updateMany({
    where: { id: line.id, quantity_received: { lte: line.quantity - quantity } },
    data: {
      quantity_received: { increment: quantity },
      ...(damaged ? { quantity_damaged: { increment: quantity } } : { quantity_restocked: { increment: quantity } }),
    },
  });
}

export function findReturnLine(tx: TxClient, id: string) {
  return tx.returnLine.findUniqueOrThrow({ where: { id } });
}

export function findReturnLines(tx: TxClient, returnId: string) {
  return tx.returnLine.findMany({ where: { return_id: returnId } });
}

// What a restock reads.

/** The ids of the order's packages. */
export function findOrderPackageIds(tx: TxClient, orderId: string) {
  return tx.package.findMany({ where: { fulfillment_order: { order_id: orderId } }, select: { id: true } });
}

/** Which of these products are lot-tracked (ids). */
export function findLotTracked(tx: TxClient, productIds: string[]) {
  return tx.product.findMany({ where: { id: { in: productIds }, lot_tracked: true }, select: { id: true } });
}

/** The newest FULFILLED movement of the product out of these packages with a lot (`lot`, or any). */
export function findShippedLot(tx: TxClient, packageIds: string[], productId: string, lot: string | undefined) {
  return tx.inventoryMovement.findFirst({
    where: {
      kind: 'FULFILLED',
      bucket: 'on_hand',
      product_id: productId,
      reference_type: 'package',
      reference_id: { in: packageIds },
      lot_code: lot ?? { not: null },
    },
    orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
    select: { lot_code: true, expiration_date: true },
  });
}

/** The warehouse's name, which a return's charge carries (spec 2.8 warehouse_name). */
export async function findWarehouseName(tx: TxClient, id: string): Promise<string | null> {
  return (await tx.warehouse.findUnique({ where: { id }, select: { name: true } }))?.name ?? null;
}
