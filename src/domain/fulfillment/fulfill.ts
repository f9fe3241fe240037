import { statementsOf } from '../../db/statements.js';
import type { Db, Package, PackageLineItem, ShippingLabel, TxClient } from '../../db/types.js';
import { billShipping } from '../charges/index.js';
import { conflict } from '../errors.js';
import { enqueueEvents } from '../events/index.js';
import { testLabelFlag } from '../carrier-integrations/index.js';
import { pickPlacements } from '../inventory/index.js';
import { applyToProductLevels } from '../inventory/index.js';
import { explainFulfillRefusal, explainShortFoLine, explainShortStock, noLabel, notOfFo } from './fulfill-refusals.js';
import { loadNames, namesOfRow } from './lookups.js';
import { refusalNames } from '../names/index.js';
import { presentPackage, type PackageView } from './package-view.js';
import {
  claimForFulfill,
  claimPackageForFulfill,
  labelOfPackage,
  lockLevelsOf,
  packageLines,
  decrementFulfillmentOrderLines,
  decrementOrderLines,
  insertFulfillment,
  recordFulfillment,
  settleFulfillmentOrder,
  type FoLineAfter,
  type FulfillClaim,
  type OrderLineAfter,
  type OrderProgress,
  type PackedBy,
} from './store/fulfill.js';
import { transaction } from '../../db/tx.js';
import { findPackageFulfillmentOrderId, lockIfFree } from './store/fulfillment-orders.js';
import { findPackageStatusOrThrow } from './store/refusals.js';

// Fulfilling a package: ONE transaction (spec 3.2 "fulfill package", design §3), in named steps:
//  1. claim the fulfillment order: locked by locked_by, lock not expired, ACCEPTED/IN_PROGRESS,
//     no active hold on its order (the first statement, a write: SQLite takes the write lock;
//     PostgreSQL locks the FO row, so every fulfill of one fulfillment order runs one after the other);
//  2. claim the package: PENDING and labelled -> FULFILLED (a second fulfill finds no row);
//     PostgreSQL: then the warehouse's levels, in id order, before any line (docs/fulfillment.md lock order);
//  3. decrement the lines (never below zero), one statement per table: FO line items, CORE order
//     line items; any line that cannot give its quantity throws and rolls everything back;
//  4. the ledger: the warehouse's on_hand and committed, with their movement rows;
//  5. settle the fulfillment order (lock released), the order's statuses and counters, the
//     fulfillment row (package_id is unique), the SHIPPING charge;
//  6. the tracking push and package.fulfilled events in the outbox.
// The SQL is in store/fulfill.ts. Everything the response shows comes from these statements'
// results (no read after commit).

export type { PackedBy } from './store/fulfill.js';

export interface FulfillResult extends PackageView {
  fulfillment_order: {
    id: string;
    status: string;
    line_items: Array<Pick<FoLineAfter, 'id' | 'product_id' | 'sku' | 'name' | 'quantity' | 'remaining_quantity'>>;
  };
}

const sum = <K>(entries: Array<[K, number]>) => {
  const m = new Map<K, number>();
  for (const [k, q] of entries) m.set(k, (m.get(k) ?? 0) + q);
  return [...m.entries()].sort(([a], [b]) => String(a).localeCompare(String(b)));
};

export async function fulfillPackage(
  db: Db,
  teamId: string,
  packageId: string,
  lockedBy: string | undefined,
  by?: PackedBy,
): Promise<FulfillResult> {
  return transaction(db, async (tx) => {
    const st = statementsOf(tx);
    const now = new Date();
    // A local, not the parameter: a retried attempt (a deadlock rolled the first back) takes the lock again.
    const owner = lockedBy ?? (await lockForCaller(tx, teamId, packageId, now));
    const fo =
      (await claimForFulfill(st, { teamId, packageId, lockedBy: owner, now, by })) ??
      (await explainFulfillRefusal(tx, teamId, packageId, owner, now));
    const { pkg, items, perFoLine } = await claimPackage(tx, fo.id, packageId, now);
    // Read before the level locks: from here to COMMIT every round trip holds them (a hot SKU's
    // fulfills queue on them), so the writes nobody reads back leave with the COMMIT (settle,
    // fulfillment row, movements, events: statements.ts runAtCommit).
    const shippingLabel = await labelOfPackage(st, packageId);
    // PostgreSQL: the levels before the lines (a receipt's backorder fill takes levels, then order lines).
    const levelProducts = [...new Set(items.flatMap((i) => (i.product_id ? [i.product_id] : [])))];
    await lockLevelsOf(st, fo.warehouse_id, levelProducts);
    const lines = await decrementLines(tx, fo, items, perFoLine, now);
    await shipStock(tx, fo, packageId, items, lines.byId, perFoLine, new Set(levelProducts));
    const linesLeft = lines.after.some((l) => l.remaining_quantity > 0);
    // A priced fulfillment's charges read the rows this transaction wrote: no write waits for the COMMIT then.
    const atCommit = !fo.priced;
    const foDone = await settleFulfillmentOrder(st, fo, { packageId, linesLeft, now, by, atCommit });
    const shipped = await recordShipment(tx, fo, pkg, shippingLabel, now, by);
    await enqueueEvents(tx, shipmentEvents(fo, foDone, packageId, shipped, perFoLine, lines), { atCommit: true });
    // The names came with the fulfillment order's row; a package made there has its warehouse and teams.
    const names =
      pkg.warehouse_id === fo.warehouse_id && pkg.merchant_team_id === fo.merchant_team_id && pkg.fulfiller_team_id === fo.fulfiller_team_id
        ? namesOfRow(fo)
        : await loadNames(tx, { warehouses: [pkg.warehouse_id], teams: [pkg.merchant_team_id, pkg.fulfiller_team_id] });
    const { shop, label, fulfillment, order } = shipped;
    const view = presentPackage(
      {
        ...pkg,
        line_items: items,
        shipping_label: label,
        fulfillment,
        fulfillment_order: { order_id: fo.order_id, order: { shop_id: order.shop_id } },
      },
      { ...names, shop: (id) => (shop && id === shop.id ? { name: shop.name, shop_type: shop.shop_type } : undefined) },
    );
    const lineView = ({ id, product_id, sku, name, quantity, remaining_quantity }: FoLineAfter) => ({
      id,
      product_id,
      sku,
      name,
      quantity,
      remaining_quantity,
    });
    return { ...view, fulfillment_order: { id: foDone.id, status: foDone.status, line_items: lines.after.map(lineView) } };
  });
}

/**
 * No locked_by (issue 34 item 1): the caller holds no lock, so this fulfill takes one for itself
 * when nobody holds it (the first statement, a compare-and-set; the fulfill's settle releases it,
 * and a refusal rolls it back). Held by someone else: the claim fails and the refusal names them.
 */
async function lockForCaller(tx: TxClient, teamId: string, packageId: string, now: Date): Promise<string> {
  const owner = `fulfill:${packageId}`;
  const pkg = await findPackageFulfillmentOrderId(tx, teamId, packageId);
  if (!pkg?.fulfillment_order_id) return owner; // the claim's refusal explains (404, no fulfillment order)
  await lockIfFree(tx, teamId, pkg.fulfillment_order_id, owner, now, new Date(now.getTime() + 60_000));
  return owner;
}

/** Step 2: the package, PENDING and labelled -> FULFILLED, returned (the response is presented from it), and its lines. */
async function claimPackage(tx: TxClient, foId: string, packageId: string, now: Date) {
  const st = statementsOf(tx);
  const pkg = await claimPackageForFulfill(st, packageId, now);
  if (!pkg) {
    const p = await findPackageStatusOrThrow(tx, packageId);
    if (p.status === 'FULFILLED') throw conflict(`Package ${packageId} is already fulfilled.`);
    throw noLabel(packageId);
  }
  const items = await packageLines(st, packageId);
  if (!items.length) throw conflict(`Package ${packageId} has no line items.`);
  const unlinked = items.find((i) => !i.core_fulfillment_order_line_item_id);
  if (unlinked) throw notOfFo(unlinked, (await refusalNames(tx, { fulfillmentOrders: [foId] })).fulfillmentOrder(foId));
  const perFoLine = sum(items.map((i) => [i.core_fulfillment_order_line_item_id!, i.quantity]));
  return { pkg, items, perFoLine };
}

interface Decremented {
  /** Every line of the fulfillment order after the decrement, in created order. */
  after: FoLineAfter[];
  byId: Map<string, FoLineAfter>;
  orderLines: Map<string, OrderLineAfter>;
}

/** Step 3: the fulfillment order's lines, then the order's CORE lines (each refused line explained, on the way to a 409). */
async function decrementLines(
  tx: TxClient,
  fo: FulfillClaim,
  items: PackageLineItem[],
  perFoLine: Array<[string, number]>,
  now: Date,
): Promise<Decremented> {
  const st = statementsOf(tx);
  const after = await decrementFulfillmentOrderLines(st, fo.id, perFoLine, now);
  const byId = new Map(after.map((l) => [l.id, l]));
  const shortFo = perFoLine.find(([l]) => !byId.has(l));
  if (shortFo)
    return explainShortFoLine(
      tx,
      fo.id,
      shortFo[0],
      shortFo[1],
      items.find((i) => i.core_fulfillment_order_line_item_id === shortFo[0])!,
    );
  const perOrderLine = sum(perFoLine.map(([l, q]) => [byId.get(l)!.order_line_item_id, q]));
  const orderLines = await decrementOrderLines(st, fo.order_id, perOrderLine, now);
  const shortOrder = perOrderLine.find(([l]) => !orderLines.has(l));
  if (shortOrder)
    throw conflict(`Order line item ${shortOrder[0]}: fewer than ${shortOrder[1]} units remain to fulfill (fulfilled concurrently?).`);
  return { after, byId, orderLines };
}

/** Step 4: through the ledger, per level two FULFILLED movements (on_hand -q, committed -q), taken from the bins in pick order. */
async function shipStock(
  tx: TxClient,
  fo: FulfillClaim,
  packageId: string,
  items: PackageLineItem[],
  foLines: Map<string, FoLineAfter>,
  perFoLine: Array<[string, number]>,
  locked: Set<string>,
) {
  const productOf = (foLineId: string) => foLines.get(foLineId)!.product_id;
  const perProduct = sum(perFoLine.filter(([l]) => productOf(l)).map(([l, q]) => [productOf(l)!, q]));
  const placements = await pickPlacements(
    tx,
    items.map((i) => ({
      product_id: productOf(i.core_fulfillment_order_line_item_id!),
      lot_code: i.lot_code,
      location_id: i.location_id, // the bin a picker scanned the units from (picking/picked-lines.ts)
      quantity: i.quantity,
    })),
  );
  const short = await applyToProductLevels(
    tx,
    fo.warehouse_id,
    perProduct.map(([productId, q]) => ({ productId, deltas: { on_hand: -q, committed: -q } })),
    { kind: 'FULFILLED', reference_type: 'package', reference_id: packageId, placement: { pick: true } },
    placements,
    {
      levelsLocked: perProduct.every(([productId]) => locked.has(productId)),
      movementsAtCommit: true,
      binsInOneRead: !statementsOf(tx).dialect.singleWriter,
    },
  );
  if (short.length) await explainShortStock(tx, fo.warehouse_id, short, new Map(perProduct));
}

/** Step 5: the order's progress, the fulfillment row, the SHIPPING charge when a rate card could price it. */
async function recordShipment(tx: TxClient, fo: FulfillClaim, pkg: Package, label: ShippingLabel | null, now: Date, by?: PackedBy) {
  const st = statementsOf(tx);
  const packageId = pkg.id;
  const order: OrderProgress = await recordFulfillment(st, fo.order_id, Boolean(label?.tracking_code), now);
  const name = `${order.order_number.startsWith('#') ? '' : '#'}${order.order_number}-F${order.fulfillment_count}`;
  const fulfillment = await insertFulfillment(
    st,
    {
      package_id: packageId,
      fulfillment_order_id: fo.id,
      order_id: fo.order_id,
      fulfiller_team_id: fo.fulfiller_team_id,
      merchant_team_id: fo.merchant_team_id,
      name,
    },
    now,
    { by, atCommit: !fo.priced },
  );
  if (fo.priced)
    await billShipping(tx, {
      fulfillmentId: fulfillment.id,
      fulfillmentOrderId: fo.id,
      orderId: fo.order_id,
      packageId,
      merchantTeamId: fo.merchant_team_id,
      fulfillerTeamId: fo.fulfiller_team_id,
      package: pkg,
      label,
    });
  return { label, order, fulfillment, shop: order.shop };
}

/** Step 6: the tracking push (for the sales channel) and package.fulfilled. */
function shipmentEvents(
  fo: FulfillClaim,
  foDone: { status: string },
  packageId: string,
  shipped: Awaited<ReturnType<typeof recordShipment>>,
  perFoLine: Array<[string, number]>,
  lines: Decremented,
) {
  const { label, order, fulfillment, shop } = shipped;
  const line = (l: string, q: number) => {
    const foLine = lines.byId.get(l)!;
    const remote = lines.orderLines.get(foLine.order_line_item_id)?.remote_id ?? null;
    return { order_line_item_id: foLine.order_line_item_id, remote_id: remote, sku: foLine.sku, quantity: q };
  };
  const tracking = {
    tracking_code: label?.tracking_code ?? null,
    tracking_url: label?.tracking_url ?? null,
    carrier: label?.carrier_name ?? null,
    carrier_id: label?.carrier_id ?? null,
    service_id: label?.service_id ?? null,
    formatted_service: label?.formatted_service ?? null,
  };
  return [
    {
      teamId: fo.fulfiller_team_id,
      kind: 'tracking.push' as const,
      payload: {
        tracking,
        test_label: testLabelFlag(label),
        shop: shop ? { id: shop.id, name: shop.name, slug: shop.slug, shop_type: shop.shop_type } : null,
        order: { id: order.id, order_number: order.order_number, remote_id: order.remote_id, merchant_team_id: order.merchant_team_id },
        fulfillment: {
          id: fulfillment.id,
          name: fulfillment.name,
          package_id: packageId,
          fulfillment_order_id: fo.id,
          line_items: perFoLine.map(([l, q]) => line(l, q)),
        },
      },
    },
    {
      teamId: fo.fulfiller_team_id,
      kind: 'package.fulfilled' as const,
      payload: {
        package_id: packageId,
        fulfillment_id: fulfillment.id,
        fulfillment_order_id: fo.id,
        order_id: fo.order_id,
        fulfillment_order_status: foDone.status,
        order_fulfillment_status: order.fulfillment_status,
      },
    },
  ];
}
