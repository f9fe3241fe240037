import type { Db, TxClient } from '../../db/types.js';
import { ALLOCATABLE_STATUSES } from '../../contract/orders-enums.js';
import { allocateLines, loadStock, routeOf } from './allocation.js';
import { writeFulfillmentOrders, type CoreLine } from './fulfillment-split.js';
import {
  findOrderWithWaitingLines,
  findWaitingLinesOf,
  findWaitingProducts,
  takeLineWaitingUnits,
  takeOrderWaitingUnits,
} from './store/pending.js';
import { transaction } from '../../db/tx.js';

// Priority allocation of waiting (unallocated) quantities. Scarce stock goes to CRITICAL, then
// HIGH, NORMAL, LOW orders, and within a priority to the oldest. Each order is allocated in
// its own short transaction; a line another allocator changed meanwhile rolls that order back
// (it is simply taken again on the next run). Called after every conversion and priority
// change; inventory changes (receiving, adjustments) should call it too.

export interface AllocationSummary {
  orders: number;
  units: number;
}

class LineChanged extends Error {}

export async function allocatePending(db: Db, fulfillerTeamId: string): Promise<AllocationSummary> {
  const summary: AllocationSummary = { orders: 0, units: 0 };
  // Only products with free stock can be allocated; everything else is skipped without a write.
  const waitingProducts = await findWaitingProducts(db.prisma, fulfillerTeamId);
  const productIds = waitingProducts.map((p) => p.product_id).filter((id): id is string => !!id);
  const free = new Map<string, number>();
  for (const s of await loadStock(db.prisma, fulfillerTeamId, productIds)) {
    if (s.available > 0) free.set(s.product_id, (free.get(s.product_id) ?? 0) + s.available);
  }
  if (!free.size) return summary;

  const lines = await findWaitingLinesOf(db.prisma, fulfillerTeamId, [...free.keys()]);
  const queue = [...new Map(lines.map((l) => [l.order_id, l.order])).entries()].sort(
    ([ida, a], [idb, b]) => b.priority_rank - a.priority_rank || a.created_at.getTime() - b.created_at.getTime() || (ida < idb ? -1 : 1),
  );

  for (const [orderId] of queue) {
    if (![...free.values()].some((n) => n > 0)) break;
    try {
      const taken = await transaction(db, (tx) => allocateOrder(tx, orderId));
      for (const [productId, n] of taken) free.set(productId, (free.get(productId) ?? 0) - n);
      const units = [...taken.values()].reduce((a, b) => a + b, 0);
      if (units > 0) {
        summary.orders++;
        summary.units += units;
      }
    } catch (err) {
      if (!(err instanceof LineChanged)) throw err;
    }
  }
  return summary;
}

/** Allocates one order's waiting lines; returns units taken per product. */
async function allocateOrder(tx: TxClient, orderId: string): Promise<Map<string, number>> {
  const order = await findOrderWithWaitingLines(tx, orderId);
  const taken = new Map<string, number>();
  if (!order || !ALLOCATABLE_STATUSES.includes(order.status)) return taken;
  const waiting = order.line_items.filter((l) => l.product_id);
  const allocations = await allocateLines(
    tx,
    order.fulfiller_team_id,
    waiting.map((l) => ({ key: l.id, product_id: l.product_id!, quantity: l.unallocated_quantity })),
    new Map(),
    order.id,
    routeOf(order),
  );
  if (!allocations.length) return taken;

  const perLine = new Map<string, number>();
  for (const a of allocations) perLine.set(a.key, (perLine.get(a.key) ?? 0) + a.quantity);
  let total = 0;
  for (const [lineId, n] of perLine) {
    // Compare-and-set: the units must still be waiting (another allocator may have taken them).
    const res = await takeLineWaitingUnits(tx, lineId, n);
    if (res.count !== 1) throw new LineChanged();
    total += n;
    const productId = waiting.find((l) => l.id === lineId)!.product_id!;
    taken.set(productId, (taken.get(productId) ?? 0) + n);
  }
  const res = await takeOrderWaitingUnits(tx, order.id, total);
  if (res.count !== 1) throw new LineChanged();

  const coreLines = new Map<string, CoreLine>(waiting.map((l) => [l.id, l]));
  await writeFulfillmentOrders(tx, order, coreLines, allocations, { appendToPending: true });
  return taken;
}
