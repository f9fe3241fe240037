import { empty, join, sqltag as sql } from '@prisma/client/runtime/client';
import { applyToProductLevels } from '../inventory/ledger.js';
import { pickPlacements } from '../inventory/bins.js';
import type { Db, TxClient } from '../../db/types.js';
import { billShipping } from '../charges/shipping.js';
import { conflict, notFound } from '../errors.js';
import { enqueueEvents } from '../events/outbox.js';
import { decrementFulfillmentOrderLines, decrementRemaining } from './decrements.js';
import { recordFulfilment } from './order-progress.js';
import { assertNoActiveHold, NO_ACTIVE_HOLD } from '../orders/holds.js';
import { activeLock, LOCKABLE } from './fulfillment-orders.js';
import { lockHeld } from './locks.js';
import { loadNames, nameColumns, namesOfRow, type NameColumns } from './lookups.js';
import { packageInclude, presentPackage, type PackageView } from './package-view.js';
import { writeTx } from './tx.js';

// Fulfilling a package: ONE transaction (spec 3.2 "fulfill package", design §3).
//  1. CAS on the package's fulfillment order: locked by locked_by, lock not expired,
//     ACCEPTED/IN_PROGRESS, and no active hold on its order. (First statement, a write: SQLite
//     takes the write lock; PostgreSQL locks the FO row, so every fulfil of one fulfillment
//     order runs one after the other.)
//  2. CAS on the package: PENDING and labelled -> FULFILLED. A second fulfil finds no row.
//  3. Conditional decrements (never below zero), one statement per table: FO line items, CORE
//     order line items, the warehouse's inventory on_hand and committed (with its ledger rows).
//     Any line that cannot give its quantity throws and rolls everything back.
//  4. Fulfillment row (package_id is unique), FO status + lock release, order statuses and
//     counters, SHIPPING charge, tracking push and package.fulfilled events in the outbox.
// Everything the response shows comes from these statements' results (no read after commit).

export interface FulfilResult extends PackageView {
  fulfillment_order: {
    id: string;
    status: string;
    line_items: Array<{
      id: string;
      product_id: string | null;
      sku: string | null;
      name: string;
      quantity: number;
      remaining_quantity: number;
    }>;
  };
}

const sum = <K>(entries: Array<[K, number]>) => {
  const m = new Map<K, number>();
  for (const [k, q] of entries) m.set(k, (m.get(k) ?? 0) + q);
  return [...m.entries()].sort(([a], [b]) => String(a).localeCompare(String(b)));
};

/** Why the fulfil's compare-and-set on the fulfillment order matched nothing (the package's own state first). */
async function explainRefusal(tx: TxClient, teamId: string, packageId: string, lockedBy: string, now: Date): Promise<never> {
  // Sequential: a transaction is one connection (pg deprecates overlapping queries on a client).
  const pkg = await tx.package.findFirst({
    where: { id: packageId, fulfiller_team_id: teamId },
    select: { status: true, shipment_status: true, fulfillment_order_id: true },
  });
  if (!pkg) throw notFound('Package', packageId);
  const foId = pkg.fulfillment_order_id;
  if (!foId) throw conflict(`Package ${packageId} does not belong to a fulfillment order.`);
  if (pkg.status === 'FULFILLED') throw conflict(`Package ${packageId} is already fulfilled.`);
  const fo = await tx.fulfillmentOrder.findFirst({
    where: { id: foId, fulfiller_team_id: teamId },
    select: { status: true, lock_owner: true, lock_expires_at: true, order_id: true },
  });
  if (!fo) throw notFound('Fulfillment order', foId);
  if (!LOCKABLE.includes(fo.status)) {
    throw conflict(`Fulfillment order ${foId} is ${fo.status}; only ACCEPTED or IN_PROGRESS fulfillment orders are fulfilled.`, {
      fulfillment_order_status: fo.status,
    });
  }
  const lock = activeLock(fo, now);
  if (lock && lock.lock_owner !== lockedBy) throw lockHeld(foId, lock);
  if (lock) {
    // The lock is the caller's, so what stopped it is the package's label or a hold on the order.
    if (pkg.status === 'PENDING' && !pkg.shipment_status) throw noLabel(packageId);
    await assertNoActiveHold(tx, fo.order_id);
    throw conflict(`Fulfillment order ${foId} changed while package ${packageId} was being fulfilled; try again.`);
  }
  const why = fo.lock_owner === lockedBy ? `the lock of "${lockedBy}" expired` : 'it is not locked';
  throw conflict(
    `Fulfillment order ${foId} must be locked by "${lockedBy}" to fulfil package ${packageId}, but ${why}; lock it first (POST /v1/ops/fulfillment-orders/${foId}/lock).`,
  );
}

const noLabel = (packageId: string) =>
  conflict(`Package ${packageId} has no shipping label; label it first (POST /v1/ops/packages/${packageId}/label).`);

/** The person a fulfil is recorded against (an agent connection's person); API keys are no person. */
export interface PackedBy {
  userId: string;
  userName: string;
}

export async function fulfillPackage(db: Db, teamId: string, packageId: string, lockedBy: string, by?: PackedBy): Promise<FulfilResult> {
  return writeTx(db, async (tx) => {
    const now = new Date();
    // 1. The compare-and-set on the package's fulfillment order (its first statement, a write),
    // which also refuses while the order has an active hold; it returns what the rest needs.
    // It also returns the names the response shows, and whether the merchant's delegation has a
    // rate card that could price the shipping (most have none: then no charge is looked for).
    // On SQLite it also settles the fulfillment order (step 4) at once: one writer holds the whole
    // database, so what its lines will have left is what they have now less what the package
    // ships (each line must give its part, or the transaction fails). PostgreSQL settles it after
    // the decrements, from what they returned (a subquery here could read a snapshot from before
    // a concurrent fulfil it waited for).
    const settleNow = db.provider === 'sqlite';
    const left = sql`(SELECT COALESCE(SUM(l."remaining_quantity"), 0) FROM "fulfillment_order_line_items" l WHERE l."fulfillment_order_id" = "fulfillment_orders"."id")
      > (SELECT COALESCE(SUM(pl."quantity"), 0) FROM "package_line_items" pl WHERE pl."package_id" = ${packageId})`;
    const settle = sql`, "lock_owner" = NULL, "lock_expires_at" = NULL,
      "status" = CASE WHEN ${left} THEN 'IN_PROGRESS' ELSE 'FULFILLED' END,
      "packing_completed_at" = CASE WHEN ${left} THEN "packing_completed_at" ELSE ${now} END
      ${by ? sql`, "packed_by_user_id" = ${by.userId}, "packed_by_user_name" = ${by.userName}` : empty}`;
    const [fo] = await tx.$queryRaw<Array<NameColumns & { id: string; order_id: string; status: string; priced: unknown }>>`
      UPDATE "fulfillment_orders" SET "updated_at" = ${now}${settleNow ? settle : empty}
      WHERE "id" = (SELECT "fulfillment_order_id" FROM "packages" WHERE "id" = ${packageId} AND "fulfiller_team_id" = ${teamId})
        AND "fulfiller_team_id" = ${teamId} AND "lock_owner" = ${lockedBy} AND "lock_expires_at" > ${now}
        AND "status" IN (${join(LOCKABLE)})
        AND ${NO_ACTIVE_HOLD}
      RETURNING "id", "order_id", "status", "warehouse_id", "merchant_team_id", "fulfiller_team_id", ${nameColumns('fulfillment_orders')},
        EXISTS (SELECT 1 FROM "fulfillment_delegations" d WHERE d."merchant_team_id" = "fulfillment_orders"."merchant_team_id"
          AND d."fulfiller_team_id" = "fulfillment_orders"."fulfiller_team_id" AND d."active" AND d."rate_card" IS NOT NULL) AS "priced"`;
    if (!fo) return explainRefusal(tx, teamId, packageId, lockedBy, now);
    const foId = fo.id;

    // 2. The package: PENDING and labelled -> FULFILLED. The claim returns the row, so the
    // response is presented from this transaction's writes rather than read again after it.
    const [pkg] = await tx.package.updateManyAndReturn({
      where: { id: packageId, status: 'PENDING', shipment_status: { not: null } },
      data: { status: 'FULFILLED', shipped_at: now },
    });
    if (!pkg) {
      const p = await tx.package.findUniqueOrThrow({ where: { id: packageId }, select: { status: true } });
      if (p.status === 'FULFILLED') throw conflict(`Package ${packageId} is already fulfilled.`);
      throw noLabel(packageId);
    }

    const items = await tx.packageLineItem.findMany({ where: { package_id: packageId }, orderBy: packageInclude.line_items.orderBy });
    if (!items.length) throw conflict(`Package ${packageId} has no line items.`);
    const notOfFo = (i: (typeof items)[number]) =>
      conflict(`Package line ${i.id} (${i.sku ?? i.name}) is not a line item of fulfillment order ${foId}.`);
    const unlinked = items.find((i) => !i.core_fulfillment_order_line_item_id);
    if (unlinked) throw notOfFo(unlinked);
    const perFoLine = sum(items.map((i) => [i.core_fulfillment_order_line_item_id!, i.quantity]));

    // 3. Conditional decrements, one statement per table (never below zero: a line that cannot
    // give its quantity is missing from what the UPDATE returns, and the transaction fails). The
    // first returns all the fulfillment order's lines after it: what is left, and the response.
    const linesAfter = await decrementFulfillmentOrderLines(tx, foId, perFoLine, now);
    const foLines = new Map(linesAfter.map((l) => [l.id, l]));
    const shortFo = perFoLine.find(([l]) => !foLines.has(l));
    if (shortFo) {
      // Why (on the way to a 409): no line of this fulfillment order, or too little left on it.
      const [lineId, q] = shortFo;
      const line = await tx.fulfillmentOrderLineItem.findFirst({ where: { id: lineId, fulfillment_order_id: foId } });
      if (!line) throw notOfFo(items.find((i) => i.core_fulfillment_order_line_item_id === lineId)!);
      throw conflict(
        `${line.sku ?? line.name}: package holds ${q} but only ${line.remaining_quantity} remain to fulfil on fulfillment order ${foId}.`,
      );
    }
    const perOrderLine = sum(perFoLine.map(([l, q]) => [foLines.get(l)!.order_line_item_id, q]));
    const orderLinesAfter = await decrementRemaining(
      tx,
      'order_line_items',
      perOrderLine,
      sql`"order_id" = ${fo.order_id} AND "kind" = 'CORE'`,
      now,
    );
    const shortOrder = perOrderLine.find(([l]) => !orderLinesAfter.has(l));
    if (shortOrder)
      throw conflict(`Order line item ${shortOrder[0]}: fewer than ${shortOrder[1]} units remain to fulfil (fulfilled concurrently?).`);
    const perProduct = sum(perFoLine.filter(([l]) => foLines.get(l)!.product_id).map(([l, q]) => [foLines.get(l)!.product_id!, q]));
    // Through the ledger: per level, two FULFILLED movements (on_hand -q, committed -q).
    const short = await applyToProductLevels(
      tx,
      fo.warehouse_id,
      perProduct.map(([productId, q]) => ({ productId, deltas: { on_hand: -q, committed: -q } })),
      { kind: 'FULFILLED', reference_type: 'package', reference_id: packageId, placement: { pick: true } },
      await pickPlacements(
        tx,
        items.map((i) => ({
          product_id: foLines.get(i.core_fulfillment_order_line_item_id!)!.product_id,
          lot_code: i.lot_code,
          location_id: i.location_id, // the bin a picker scanned the units from (picking/picked-lines.ts)
          quantity: i.quantity,
        })),
      ),
    );
    if (short.length) {
      // Why (only now, on the way to a 409): a product without a level here, else the first short one.
      const need = new Map(perProduct);
      const found = await tx.inventoryLevel.findMany({
        where: { warehouse_id: fo.warehouse_id, product_id: { in: short } },
        orderBy: { id: 'asc' },
      });
      const missing = short.find((p) => !found.some((l) => l.product_id === p));
      if (missing) throw conflict(`Product ${missing} has no inventory in warehouse ${fo.warehouse_id}.`);
      const level = found[0];
      throw conflict(
        `Inventory of product ${level.product_id} in warehouse ${fo.warehouse_id} is short: ${need.get(level.product_id)} to ship, on_hand ${level.on_hand}, committed ${level.committed}.`,
      );
    }

    const foLeft = linesAfter.some((l) => l.remaining_quantity > 0);
    if (settleNow && (fo.status === 'FULFILLED') === foLeft) {
      throw new Error(`fulfil of package ${packageId}: fulfillment order ${foId} settled as ${fo.status}, but its lines say otherwise`);
    }
    const foDone = settleNow
      ? { id: foId, status: fo.status }
      : await tx.fulfillmentOrder.update({
          where: { id: foId },
          data: {
            status: foLeft ? 'IN_PROGRESS' : 'FULFILLED',
            lock_owner: null,
            lock_expires_at: null,
            ...(foLeft ? {} : { packing_completed_at: now }),
            ...(by ? { packed_by_user_id: by.userId, packed_by_user_name: by.userName } : {}),
          },
          select: { id: true, status: true },
        });

    const shippingLabel = await tx.shippingLabel.findUnique({ where: { package_id: packageId } });
    const order = await recordFulfilment(tx, db.provider, fo.order_id, Boolean(shippingLabel?.tracking_code), now);
    const fulfillment = await tx.fulfillment.create({
      data: {
        package_id: packageId,
        fulfillment_order_id: foId,
        order_id: fo.order_id,
        fulfiller_team_id: fo.fulfiller_team_id,
        merchant_team_id: fo.merchant_team_id,
        name: `${order.order_number.startsWith('#') ? '' : '#'}${order.order_number}-F${order.fulfillment_count}`,
        ...(by ? { packed_by_user_id: by.userId, packed_by_user_name: by.userName } : {}),
      },
    });

    if (fo.priced)
      await billShipping(tx, {
        fulfillmentId: fulfillment.id,
        fulfillmentOrderId: foId,
        orderId: fo.order_id,
        packageId,
        merchantTeamId: fo.merchant_team_id,
        fulfillerTeamId: fo.fulfiller_team_id,
      });
    const shop = order.shop_id ? await tx.shop.findUnique({ where: { id: order.shop_id } }) : null;
    const remoteOf = (orderLineId: string) => orderLinesAfter.get(orderLineId)?.remote_id ?? null;
    await enqueueEvents(tx, [
      {
        teamId: fo.fulfiller_team_id,
        kind: 'tracking.push',
        payload: {
          tracking: {
            tracking_code: shippingLabel?.tracking_code ?? null,
            tracking_url: shippingLabel?.tracking_url ?? null,
            carrier: shippingLabel?.carrier_name ?? null,
            carrier_id: shippingLabel?.carrier_id ?? null,
            service_id: shippingLabel?.service_id ?? null,
            formatted_service: shippingLabel?.formatted_service ?? null,
          },
          shop: shop ? { id: shop.id, name: shop.name, slug: shop.slug, shop_type: shop.shop_type } : null,
          order: { id: order.id, order_number: order.order_number, remote_id: order.remote_id, merchant_team_id: order.merchant_team_id },
          fulfillment: {
            id: fulfillment.id,
            name: fulfillment.name,
            package_id: packageId,
            fulfillment_order_id: foId,
            line_items: perFoLine.map(([l, q]) => {
              const line = foLines.get(l)!;
              return {
                order_line_item_id: line.order_line_item_id,
                remote_id: remoteOf(line.order_line_item_id),
                sku: line.sku,
                quantity: q,
              };
            }),
          },
        },
      },
      {
        teamId: fo.fulfiller_team_id,
        kind: 'package.fulfilled',
        payload: {
          package_id: packageId,
          fulfillment_id: fulfillment.id,
          fulfillment_order_id: foId,
          order_id: fo.order_id,
          fulfillment_order_status: foDone.status,
          order_fulfillment_status: order.fulfillment_status,
        },
      },
    ]);

    // The names came with the fulfillment order's row; a package made there has its warehouse and teams.
    const names =
      pkg.warehouse_id === fo.warehouse_id && pkg.merchant_team_id === fo.merchant_team_id && pkg.fulfiller_team_id === fo.fulfiller_team_id
        ? namesOfRow(fo)
        : await loadNames(tx, { warehouses: [pkg.warehouse_id], teams: [pkg.merchant_team_id, pkg.fulfiller_team_id] });
    const view = presentPackage(
      {
        ...pkg,
        line_items: items,
        shipping_label: shippingLabel,
        fulfillment,
        fulfillment_order: { order_id: fo.order_id, order: { shop_id: order.shop_id } },
      },
      { ...names, shop: (id) => (shop && id === shop.id ? { name: shop.name, shop_type: shop.shop_type } : undefined) },
    );
    return {
      ...view,
      fulfillment_order: {
        id: foDone.id,
        status: foDone.status,
        line_items: linesAfter.map((l) => ({
          id: l.id,
          product_id: l.product_id,
          sku: l.sku,
          name: l.name,
          quantity: l.quantity,
          remaining_quantity: l.remaining_quantity,
        })),
      },
    };
  });
}
