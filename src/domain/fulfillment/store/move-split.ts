import type { Prisma, TxClient } from '../../../db/types.js';

// The reads and writes of moves and splits (move-split.ts) and of the shortfall's split
// (shortfall.ts) besides their claim (packing-checks.ts): the lines, the carved-out fulfillment
// order, the target warehouse.

/** The fulfillment order's lines, in created order. */
export function fulfillmentOrderLines(tx: TxClient, foId: string) {
  return tx.fulfillmentOrderLineItem.findMany({
    where: { fulfillment_order_id: foId },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
}

/** A new fulfillment order with its lines (one INSERT each, as Prisma's nested create does); its id. */
export function insertFulfillmentOrderWithLines(
  tx: TxClient,
  data: Omit<Prisma.FulfillmentOrderUncheckedCreateInput, 'line_items'>,
  lines: Prisma.FulfillmentOrderLineItemUncheckedCreateWithoutFulfillment_orderInput[],
) {
  return tx.fulfillmentOrder.create({ data: { ...data, line_items: { create: lines } }, select: { id: true } });
}

export function deleteFulfillmentOrderLine(tx: TxClient, id: string) {
  return tx.fulfillmentOrderLineItem.delete({ where: { id } });
}

/** Takes `q` units off the line (its quantity and what remains of it). */
export function takeFromFulfillmentOrderLine(tx: TxClient, id: string, q: number) {
  return tx.fulfillmentOrderLineItem.update({
    where: { id },
    data: { quantity: { decrement: q }, remaining_quantity: { decrement: q } },
  });
}

/** The warehouse's id if it is the team's. */
export function findTeamWarehouseId(tx: TxClient, teamId: string, id: string) {
  return tx.warehouse.findFirst({ where: { id, team_id: teamId }, select: { id: true } });
}

/** Ships the fulfillment order from another warehouse; its id. */
export function setFulfillmentOrderWarehouse(tx: TxClient, id: string, warehouseId: string) {
  return tx.fulfillmentOrder.update({ where: { id }, data: { warehouse_id: warehouseId }, select: { id: true } });
}
