import type { TxClient } from '../../../db/types.js';

// The moves of `fos admin products dedupe` (dedupe.ts), through Prisma: everything of one product
// handed to another before it is deleted. The refusals (a purchase order, transfer or parent
// product naming both) stay in dedupe.ts, which calls these in its order.

const BUCKETS = ['on_hand', 'committed', 'unavailable', 'on_order'] as const;

type Reassign = { updateMany(args: { where: { product_id: string }; data: { product_id: string } }): Promise<unknown> };

/** Levels: added to the survivor's level of the warehouse, or handed over; movements follow. */
export async function mergeLevels(tx: TxClient, from: string, to: string) {
  const select = { id: true, warehouse_id: true, on_hand: true, committed: true, unavailable: true, on_order: true } as const;
  const theirs = await tx.inventoryLevel.findMany({ where: { product_id: from }, select, orderBy: { id: 'asc' } });
  const ours = await tx.inventoryLevel.findMany({ where: { product_id: to }, select });
  for (const level of theirs) {
    const target = ours.find((o) => o.warehouse_id === level.warehouse_id);
    if (target) {
      await tx.inventoryLevel.updateMany({
        where: { id: target.id },
        data: Object.fromEntries(BUCKETS.map((b) => [b, { increment: level[b] }])),
      });
      await tx.inventoryLevel.deleteMany({ where: { id: level.id } });
    } else {
      await tx.inventoryLevel.updateMany({ where: { id: level.id }, data: { product_id: to } });
    }
  }
  await tx.inventoryMovement.updateMany({ where: { product_id: from }, data: { product_id: to } });
}

/** Bin stock: added to the survivor's row of the same bin and lot, or handed over; movements follow. */
export async function mergeBins(tx: TxClient, from: string, to: string) {
  const select = { id: true, location_id: true, lot_code: true, on_hand: true } as const;
  const theirs = await tx.locationStock.findMany({ where: { product_id: from }, select, orderBy: { id: 'asc' } });
  if (!theirs.length) return;
  const ours = await tx.locationStock.findMany({ where: { product_id: to }, select });
  for (const row of theirs) {
    const target = ours.find((o) => o.location_id === row.location_id && o.lot_code === row.lot_code);
    if (!target) {
      await tx.locationStock.updateMany({ where: { id: row.id }, data: { product_id: to } });
      continue;
    }
    await tx.locationStock.updateMany({ where: { id: target.id }, data: { on_hand: { increment: row.on_hand } } });
    await tx.inventoryMovement.updateMany({ where: { location_stock_id: row.id }, data: { location_stock_id: target.id } });
    await tx.locationStock.deleteMany({ where: { id: row.id } });
  }
}

/** Order, fulfillment, package, draft and return lines of `from` name `to`. */
export async function reassignOrderLines(tx: TxClient, from: string, to: string) {
  for (const model of ['orderLineItem', 'fulfillmentOrderLineItem', 'packageLineItem', 'draftOrderLineItem', 'returnLine'] as const) {
    await (tx[model] as unknown as Reassign).updateMany({ where: { product_id: from }, data: { product_id: to } });
  }
}

/** The purchase order or transfer lines of either product: their parent's id (`parent`) and product. */
export function findLinesOfEither(
  tx: TxClient,
  model: 'purchaseOrderLine' | 'inventoryTransferLine',
  parent: string,
  from: string,
  to: string,
): Promise<Record<string, string>[]> {
  const delegate = tx[model] as unknown as { findMany(a: unknown): Promise<Record<string, string>[]> };
  return delegate.findMany({ where: { product_id: { in: [from, to] } }, select: { [parent]: true, product_id: true } });
}

/** Purchase order lines, transfer lines, listing variants and vendor links of `from` name `to`; its stock pushes go. */
export async function reassignReferences(tx: TxClient, from: string, to: string) {
  await tx.purchaseOrderLine.updateMany({ where: { product_id: from }, data: { product_id: to } });
  await tx.inventoryTransferLine.updateMany({ where: { product_id: from }, data: { product_id: to } });
  await tx.productListingVariant.updateMany({ where: { product_id: from }, data: { product_id: to } });
  const vendors = await tx.vendorProduct.findMany({ where: { product_id: to }, select: { vendor_id: true } });
  await tx.vendorProduct.deleteMany({ where: { product_id: from, vendor_id: { in: vendors.map((v) => v.vendor_id) } } });
  await tx.vendorProduct.updateMany({ where: { product_id: from }, data: { product_id: to } });
  await tx.channelStockPush.deleteMany({ where: { product_id: from } }); // a cache of pushes: recomputed from the levels
}

/** Where either product is a component: parent, kind and component. */
export function findComponentUses(tx: TxClient, from: string, to: string) {
  return tx.productComponent.findMany({
    where: { component_product_id: { in: [from, to] } },
    select: { parent_product_id: true, kind: true, component_product_id: true },
  });
}

/** `from` as a component becomes `to`; `from`'s own components go to `to` unless it has its own; then `from` is deleted. */
export async function moveComponentsAndDelete(tx: TxClient, from: string, to: string) {
  await tx.productComponent.updateMany({ where: { component_product_id: from }, data: { component_product_id: to } });
  if (await tx.productComponent.count({ where: { parent_product_id: to } }))
    await tx.productComponent.deleteMany({ where: { parent_product_id: from } }); // the survivor's own list stands
  else await tx.productComponent.updateMany({ where: { parent_product_id: from }, data: { parent_product_id: to } });
  await tx.product.deleteMany({ where: { id: from } });
}
