import type { TxClient } from '../../db/types.js';
import type { LineAllocation } from './allocation.js';
import {
  addFulfillmentOrderLineUnits,
  findPendingFulfillmentOrders,
  insertFulfillmentOrder,
  insertFulfillmentOrderLine,
  touchPendingFulfillmentOrder,
} from './store/fulfillment-split.js';

// Turns allocations into fulfillment orders: one per warehouse (status PENDING, request_status
// UNSUBMITTED), each line item with quantity = remaining_quantity = the allocated units.
// Later allocations (allocatePending) add to the order's PENDING fulfillment order of that
// warehouse when there is one — it has not been accepted, so nobody works on it yet — and
// otherwise open a new one.

export interface CoreLine {
  id: string;
  product_id: string | null;
  sku: string | null;
  name: string;
  image_url: string | null;
}

export interface OrderRef {
  id: string;
  fulfiller_team_id: string;
  merchant_team_id: string;
}

/** Allocations keyed by order line item id. Returns the ids of the fulfillment orders written. */
export async function writeFulfillmentOrders(
  tx: TxClient,
  order: OrderRef,
  lines: Map<string, CoreLine>,
  allocations: LineAllocation[],
  opts: { appendToPending: boolean },
): Promise<string[]> {
  const byWarehouse = new Map<string, Map<string, number>>();
  for (const a of allocations) {
    if (a.quantity <= 0) continue;
    const m = byWarehouse.get(a.warehouse_id) ?? new Map<string, number>();
    m.set(a.key, (m.get(a.key) ?? 0) + a.quantity);
    byWarehouse.set(a.warehouse_id, m);
  }
  const ids: string[] = [];
  const existing =
    opts.appendToPending && byWarehouse.size ? await findPendingFulfillmentOrders(tx, order.id, [...byWarehouse.keys()]) : [];

  for (const [warehouseId, quantities] of byWarehouse) {
    let fo = existing.find((f) => f.warehouse_id === warehouseId);
    // Compare-and-set: the order read PENDING may have been accepted since (READ COMMITTED). The
    // update also holds the row, so an accept waits for this transaction and sees the new units.
    if (fo && (await touchPendingFulfillmentOrder(tx, fo.id, new Date())) !== 1) fo = undefined;
    if (!fo) {
      const created = await insertFulfillmentOrder(
        tx,
        {
          order_id: order.id,
          warehouse_id: warehouseId,
          fulfiller_team_id: order.fulfiller_team_id,
          merchant_team_id: order.merchant_team_id,
          status: 'PENDING',
          request_status: 'UNSUBMITTED',
        },
        [...quantities].map(([lineId, q]) => foLine(lines.get(lineId)!, q)),
      );
      ids.push(created.id);
      continue;
    }
    ids.push(fo.id);
    for (const [lineId, q] of quantities) {
      const item = fo.line_items.find((li) => li.order_line_item_id === lineId);
      if (item) await addFulfillmentOrderLineUnits(tx, item.id, q);
      else await insertFulfillmentOrderLine(tx, { fulfillment_order_id: fo.id, ...foLine(lines.get(lineId)!, q) });
    }
  }
  return ids;
}

const foLine = (line: CoreLine, quantity: number) => ({
  order_line_item_id: line.id,
  product_id: line.product_id,
  sku: line.sku,
  name: line.name,
  image_url: line.image_url,
  quantity,
  remaining_quantity: quantity,
});
