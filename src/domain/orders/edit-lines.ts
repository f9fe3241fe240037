import { newId } from '../../db/ids.js';
import type { Db, OrderLineItem, TxClient } from '../../db/types.js';
import { conflict, invalid } from '../errors.js';
import { notCommitted } from '../inventory/index.js';
import { applyToLevel } from '../inventory/index.js';
import { allocateLines, queueReservations, routeOf } from './allocation.js';
import { writeFulfillmentOrders } from './fulfillment-split.js';
import { resolveProducts } from './reach.js';
import { refreshOrder, settleFulfillmentOrders } from './edit-settle.js';
import { lowerOrderWaiting, raiseLineWaiting, raiseOrderWaiting } from './store/allocation.js';
import { findProductsWithBundles } from './store/bundles.js';
import {
  findCoreLines,
  findLevelRef,
  findOpenFulfillmentLines,
  findOriginalLinesOf,
  growLineUnits,
  insertOrderLine,
  removeFulfillmentOrderLineUnits,
  removeLineUnits,
  sumOrderWaitingOf,
  sumPendingPackedUnits,
  updateOrderLine,
} from './store/edits.js';

// Line items of PATCH /v1/ops/orders/{id} (docs/orders.md "Edit"): add lines, set the quantity of
// a CORE line, remove one. Runs inside editOrder's transaction, after its first statement has
// claimed every open fulfillment order of the order (the row a lock, a pack and a fulfill take
// first too), so no package can be made and no unit shipped while this edits: what it reads as
// packed or shipped stays so until it commits. Every stock change goes through the ledger:
//  - fewer units: waiting units go first (no stock involved), then unpacked units of the open
//    fulfillment orders (PENDING ones first), whose committed stock is RELEASED (reason
//    ORDER_EDITED); packed or shipped units are never taken (409);
//  - more units: committed where stock is (COMMITTED movements, the order's priority respected
//    as at conversion), added to the PENDING fulfillment order of that warehouse or a new one;
//    the rest waits as a backorder;
//  - a fulfillment order left with nothing is CANCELLED (or FULFILLED if part of it shipped).

export interface AddLine {
  product_id?: string;
  sku?: string;
  quantity: number;
  price?: number;
  /** A sales channel's line id (a shop edit adding a line), so the next delivery finds it. */
  remote_id?: string | null;
}

export interface LineChanges {
  add_line_items?: AddLine[];
  update_line_items?: { order_line_item_id: string; quantity: number }[];
  remove_line_items?: string[];
}

export interface EditedOrder {
  id: string;
  order_number: string;
  fulfiller_team_id: string;
  merchant_team_id: string;
  shop_id: string | null;
  priority_rank: number;
  payment_status: string;
  total_tax: number;
  total_shipping: number;
  /** an automation rule's warehouse routing (allocation.ts Route) */
  routed_warehouse_id: string | null;
  routed_warehouse_only: boolean;
}

const OPEN_FO = ['PENDING', 'ACCEPTED', 'IN_PROGRESS'];
type Products = Awaited<ReturnType<typeof loadAdded>>;

export const hasLineChanges = (c: LineChanges) =>
  !!(c.add_line_items?.length || c.update_line_items?.length || c.remove_line_items?.length);

/** Before the transaction: the products of added lines (the merchant's), with bundle components. */
export async function loadAdded(db: Db, merchantTeamId: string, add: AddLine[] | undefined) {
  if (!add?.length) return [];
  const found = await resolveProducts(db, merchantTeamId, add, 'body.add_line_items');
  const full = await findProductsWithBundles(
    db.prisma,
    found.map((p) => p.id),
  );
  return found.map((p) => full.find((f) => f.id === p.id)!);
}

/** Applies the line changes; returns the number of units added and removed. */
export async function applyLineChanges(tx: TxClient, order: EditedOrder, changes: LineChanges, added: Products) {
  const cores = await findCoreLines(tx, order.id);
  const targets = new Map<string, number>();
  const setTarget = (id: string, q: number, path: string) => {
    if (!cores.some((c) => c.id === id)) throw invalid(path, `is not a core line item of order ${order.order_number}`);
    if (targets.has(id)) throw invalid(path, 'names a line already changed by this edit');
    targets.set(id, q);
  };
  changes.update_line_items?.forEach((u, i) =>
    setTarget(u.order_line_item_id, u.quantity, `body.update_line_items.${i}.order_line_item_id`),
  );
  changes.remove_line_items?.forEach((id, i) => setTarget(id, 0, `body.remove_line_items.${i}`));
  let removed = 0;
  let grown = 0;
  for (const line of cores) {
    if (!targets.has(line.id)) continue;
    const current = line.total_quantity - line.removed_quantity;
    const want = targets.get(line.id)!;
    if (want < current) removed += await shrinkLine(tx, order, line, current - want, current);
    else if (want > current) grown += await growLine(tx, order, line, want - current);
  }
  for (const [i, a] of (changes.add_line_items ?? []).entries()) grown += await addLine(tx, order, a, added[i]);
  await settleFulfillmentOrders(tx, order.id);
  const complete = await refreshOrder(tx, order);
  return { added: grown, removed, complete };
}

type Core = OrderLineItem;

/** Takes `d` units off a CORE line: waiting ones first, then unpacked units of open fulfillment orders. */
async function shrinkLine(tx: TxClient, order: EditedOrder, line: Core, d: number, current: number): Promise<number> {
  const foLines = await findOpenFulfillmentLines(tx, line.id, OPEN_FO);
  const packedRows = foLines.length
    ? await sumPendingPackedUnits(
        tx,
        foLines.map((l) => l.id),
      )
    : [];
  const packed = new Map(packedRows.map((r) => [r.core_fulfillment_order_line_item_id!, r._sum.quantity ?? 0]));
  const free = (l: (typeof foLines)[number]) => Math.max(0, l.remaining_quantity - (packed.get(l.id) ?? 0));
  const removable = line.unallocated_quantity + foLines.reduce((s, l) => s + free(l), 0);
  if (d > removable) {
    const floor = current - removable;
    throw conflict(
      `Line ${line.id} (${line.sku ?? line.name}): ${floor} of its ${current} units are packed or shipped; its quantity cannot go below ${floor}.`,
      { order_line_item_id: line.id, minimum_quantity: floor },
    );
  }
  const fromWaiting = Math.min(d, line.unallocated_quantity);
  let rest = d - fromWaiting;
  // The line first: a release below fills backorders, which must not see these units as waiting.
  if ((await removeLineUnits(tx, line.id, d, fromWaiting)) !== 1)
    throw conflict(`Order line ${line.id} changed while the order was being edited; try again.`);
  // PENDING fulfillment orders first: nobody has started on them.
  const rank = (s: string) => OPEN_FO.indexOf(s);
  for (const l of [...foLines].sort((a, b) => rank(a.fulfillment_order.status) - rank(b.fulfillment_order.status))) {
    const n = Math.min(rest, free(l));
    if (n <= 0) continue;
    await removeFulfillmentOrderLineUnits(tx, l.id, n);
    await release(tx, line.product_id, l.fulfillment_order.warehouse_id, l.fulfillment_order.id, n);
    rest -= n;
  }
  if (fromWaiting) await lowerOrderWaiting(tx, order.id, fromWaiting);
  await followOriginal(tx, line, -d);
  return d;
}

async function release(tx: TxClient, productId: string | null, warehouseId: string, foId: string, n: number) {
  if (!productId) return;
  const level = await findLevelRef(tx, productId, warehouseId);
  const ok =
    level &&
    (await applyToLevel(
      tx,
      level,
      { committed: -n },
      { kind: 'RELEASED', reason: 'ORDER_EDITED', reference_type: 'fulfillment_order', reference_id: foId },
    ));
  if (!ok) throw await notCommitted(tx, productId, warehouseId, n, 'released');
}

/** Adds `d` units to a CORE line: committed where stock is, the rest waits. */
async function growLine(tx: TxClient, order: EditedOrder, line: Core, d: number): Promise<number> {
  await growLineUnits(tx, line.id, d);
  await allocate(tx, order, { ...line, total_quantity: line.total_quantity + d }, d);
  await followOriginal(tx, line, d);
  return d;
}

/** Commits up to `d` units of the line (after what orders at or above this one's priority wait for). */
async function allocate(tx: TxClient, order: EditedOrder, line: Core, d: number) {
  if (!line.product_id) return;
  const reserved = await queueReservations(tx, order.fulfiller_team_id, [line.product_id], order.priority_rank);
  // This order's own waiting units are not ahead of it.
  const own = await sumOrderWaitingOf(tx, order.id, line.product_id);
  reserved.set(line.product_id, Math.max(0, (reserved.get(line.product_id) ?? 0) - (own._sum.unallocated_quantity ?? 0)));
  const allocations = await allocateLines(
    tx,
    order.fulfiller_team_id,
    [{ key: line.id, product_id: line.product_id, quantity: d }],
    reserved,
    order.id,
    routeOf(order),
  );
  await writeFulfillmentOrders(tx, order, new Map([[line.id, line]]), allocations, { appendToPending: true });
  const waiting = d - allocations.reduce((s, a) => s + a.quantity, 0);
  if (waiting > 0) {
    await raiseLineWaiting(tx, line.id, waiting);
    await raiseOrderWaiting(tx, order.id, waiting);
  }
}

/** A new sold line: its ORIGINAL line and CORE line(s) (a virtual bundle ships as its components). */
async function addLine(tx: TxClient, order: EditedOrder, a: AddLine, product: Products[number]): Promise<number> {
  await insertOrderLine(tx, {
    order_id: order.id,
    kind: 'ORIGINAL',
    product_id: product.id,
    shop_id: order.shop_id,
    sku: product.sku,
    name: product.name,
    image_url: product.image_url,
    price: a.price ?? 0,
    total_quantity: a.quantity,
    remaining_quantity: a.quantity,
    remote_id: a.remote_id ?? null,
  });
  const parts =
    product.type === 'VIRTUAL_BUNDLE' && product.components.length
      ? product.components.map((c) => ({ item: c.component, quantity: a.quantity * Math.max(1, Math.round(c.component_quantity)) }))
      : [{ item: product, quantity: a.quantity }];
  for (const part of parts) {
    const core = await insertOrderLine(tx, {
      id: newId(),
      order_id: order.id,
      kind: 'CORE',
      product_id: part.item.id,
      sku: part.item.sku,
      name: part.item.name,
      image_url: part.item.image_url,
      price: parts.length === 1 ? (a.price ?? 0) : 0,
      remote_id: a.remote_id ?? null,
      total_quantity: part.quantity,
      remaining_quantity: part.quantity,
    });
    await allocate(tx, order, core, part.quantity);
  }
  return a.quantity;
}

/** The ORIGINAL line sold as this CORE line (same product, not a bundle) follows its quantity. */
async function followOriginal(tx: TxClient, core: Core, delta: number) {
  const originals = await findOriginalLinesOf(tx, core.order_id, core.product_id);
  if (originals.length !== 1 || !core.product_id) return;
  const n = delta < 0 ? Math.min(-delta, originals[0].remaining_quantity) : 0;
  await updateOrderLine(
    tx,
    originals[0].id,
    delta > 0
      ? { total_quantity: { increment: delta }, remaining_quantity: { increment: delta } }
      : { remaining_quantity: { decrement: n }, removed_quantity: { increment: n } },
  );
}
