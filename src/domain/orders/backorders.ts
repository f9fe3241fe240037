import type { Db, Prisma, TxClient } from '../../db/types.js';
import { enqueueEvent } from '../events/index.js';
import { pageWindow, toPage, type PageRequest } from '../pagination.js';
import { commitUpTo } from './allocation.js';
import { ALLOCATABLE_STATUSES, PRIORITIES } from '../../contract/orders-enums.js';
import { writeFulfillmentOrders } from './fulfillment-split.js';
import { findLevel, lowerOrderWaiting, raiseLineWaiting } from './store/allocation.js';
import { findAnyWaitingLine, findBackorderPage, findWaitingLines, findWarehouseTeam, takeLineWaiting } from './store/backorders.js';

// Backorders: units of open orders waiting for stock (order line unallocated_quantity > 0).
//
// They fill themselves. The inventory ledger announces (its stockFreed hook, which the orders
// area's door subscribes fillBackorders to) whenever a change makes more
// of a level available (on_hand up, committed or unavailable down: receipts, adjustments,
// counts, transfers in, return restocks, cancel releases, moves), in the SAME transaction as the
// change. The level's free units go to the waiting lines of that product whose order belongs to
// the warehouse's team: CRITICAL, HIGH, NORMAL, LOW, then the oldest order first. Each step is a
// compare-and-set (the line's waiting units, then the level's committed through commitUpTo,
// never past on_hand - unavailable), so two receipts racing on two replicas never allocate a
// unit twice; a partial fill adds a fulfillment order line as conversion does (appended to the
// order's PENDING fulfillment order of that warehouse, else a new one).

export interface LevelRef {
  id: string;
  product_id: string;
  warehouse_id: string;
}

const BATCH = 50;

export async function fillBackorders(tx: TxClient, level: LevelRef): Promise<number> {
  // The hot path (a receipt of many products nobody waits for): one index seek per level, on
  // order_line_items (product_id, unallocated_quantity), and nothing more.
  if (!(await findAnyWaitingLine(tx, level.product_id))) return 0;
  const warehouse = await findWarehouseTeam(tx, level.warehouse_id);
  if (!warehouse) return 0;
  let filled = 0;
  for (let pass = 0; pass < 20; pass++) {
    const now = await findLevel(tx, level.id);
    let available = now ? now.on_hand - now.committed - now.unavailable : 0;
    if (available <= 0) return filled;
    const lines = await findWaitingLines(
      tx,
      // An order an automation rule routed to another warehouse only (routed_warehouse_only) waits for that one.
      {
        AND: [
          waitingWhere(warehouse.team_id, { product_id: level.product_id }),
          { order: { OR: [{ routed_warehouse_only: false }, { routed_warehouse_id: level.warehouse_id }] } },
        ],
      },
      BATCH,
    );
    for (const line of lines) {
      if (available <= 0) return filled;
      const n = Math.min(available, line.unallocated_quantity);
      // Compare-and-set on the waiting units first: another allocator may have taken them.
      if ((await takeLineWaiting(tx, line.id, n)) !== 1) continue;
      const k = await commitUpTo(
        tx,
        { levelId: level.id, product_id: level.product_id, warehouse_id: level.warehouse_id, quantity: n },
        n,
        line.order_id,
      );
      if (k < n) await raiseLineWaiting(tx, line.id, n - k);
      if (k === 0) return filled;
      await lowerOrderWaiting(tx, line.order_id, k);
      const [foId] = await writeFulfillmentOrders(
        tx,
        line.order,
        new Map([[line.id, line]]),
        [{ key: line.id, warehouse_id: level.warehouse_id, quantity: k }],
        { appendToPending: true },
      );
      await enqueueEvent(tx, warehouse.team_id, 'order.backorder_allocated', {
        order_id: line.order_id,
        order_number: line.order.order_number,
        priority: line.order.priority,
        order_line_item_id: line.id,
        product_id: level.product_id,
        sku: line.sku,
        warehouse_id: level.warehouse_id,
        quantity: k,
        still_waiting: line.unallocated_quantity - k,
        fulfillment_order_id: foId,
      });
      available -= k;
      filled += k;
    }
    if (lines.length < BATCH) return filled;
  }
  return filled;
}

const waitingWhere = (teamId: string, extra: Prisma.OrderLineItemWhereInput = {}): Prisma.OrderLineItemWhereInput => ({
  kind: 'CORE',
  unallocated_quantity: { gt: 0 },
  order: { fulfiller_team_id: teamId, status: { in: ALLOCATABLE_STATUSES as never } },
  ...extra,
});

export interface BackorderQuery {
  page: number;
  limit: number;
  sku?: string;
  product_id?: string;
  priority?: string[];
}

/** GET /v1/ops/backorders: what waits, in the order it will be served (priority, then oldest). */
export async function listBackorders(db: Db, teamId: string, q: BackorderQuery) {
  const where = waitingWhere(teamId, {
    ...(q.product_id ? { product_id: q.product_id } : {}),
    ...(q.sku ? { sku: q.sku } : {}),
  });
  if (q.priority?.length) where.order = { ...(where.order as object), priority: { in: q.priority as (typeof PRIORITIES)[number][] } };
  // OFFSET paging: the order is by the order's fields, which a keyset cursor over lines cannot name.
  const rows = await findBackorderPage(db.prisma, where, pageWindow(q));
  const page = toPage(rows, q as PageRequest);
  return {
    data: page.data.map((l) => ({
      order_id: l.order_id,
      order_number: l.order.order_number,
      order_line_item_id: l.id,
      product_id: l.product_id,
      sku: l.sku,
      name: l.name,
      quantity: l.unallocated_quantity,
      priority: l.order.priority,
      since: l.order.created_at,
    })),
    meta: page.meta,
  };
}
