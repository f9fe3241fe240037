import type { Db, TxClient } from '../../db/types.js';
import { transaction } from '../../db/tx.js';
import { conflict } from '../errors.js';
import { duplicateSkuRows } from './store/write.js';

// `fos admin products dedupe [--merge]`: the products that share a SKU with another product of
// their team, ignoring case (what migration 20261125044800 refuses to index), and their merge.
//
// The survivor of a group is its oldest product. A merge, one transaction per group, moves
// everything of the others onto it and deletes them: inventory levels (bucket by bucket added to
// the survivor's level of that warehouse, or handed over when it has none), their movements (so
// every level still equals the sum of its movements), bin stock and the movements naming it,
// order / fulfillment-order / package / draft / return lines, purchase-order and transfer lines,
// listing variants, vendor links and component lists. A purchase order, transfer or component list
// that has both products is left to a person (409 naming it): adding their lines is not obviously
// right. It runs before the migration (the server refuses to start until it is done), so every
// query names its columns: later migrations may not have run yet.

export interface DuplicateProduct {
  id: string;
  sku: string;
  name: string;
  created_at: Date;
}

export interface DuplicateGroup {
  team_id: string;
  sku_folded: string;
  survivor_id: string;
  products: DuplicateProduct[];
}

/** Every group of two or more products of one team whose SKUs are equal ignoring case. */
export async function duplicateSkuGroups(db: Db): Promise<DuplicateGroup[]> {
  const rows = await duplicateSkuRows(db);
  const groups = new Map<string, DuplicateGroup>();
  for (const r of rows) {
    const k = `${r.team_id}\u0000${r.key}`;
    const g = groups.get(k) ?? { team_id: r.team_id, sku_folded: r.key, survivor_id: r.id, products: [] };
    g.products.push({ id: r.id, sku: r.sku, name: r.name, created_at: new Date(r.created_at) });
    groups.set(k, g);
  }
  return [...groups.values()];
}

/** Merges every group into its survivor; returns the groups merged. */
export async function mergeDuplicateSkus(db: Db) {
  const merged = [];
  for (const g of await duplicateSkuGroups(db)) {
    const losers = g.products.filter((p) => p.id !== g.survivor_id).map((p) => p.id);
    await transaction(db, async (tx) => {
      for (const loser of losers) await mergeProduct(tx, loser, g.survivor_id);
    });
    merged.push({ ...g, merged_ids: losers });
  }
  return merged;
}

/** Moves everything of `from` onto `to`, then deletes `from`. */
async function mergeProduct(tx: TxClient, from: string, to: string) {
  await mergeLevels(tx, from, to);
  await mergeBins(tx, from, to);
  for (const model of ['orderLineItem', 'fulfillmentOrderLineItem', 'packageLineItem', 'draftOrderLineItem', 'returnLine'] as const) {
    await (tx[model] as unknown as Reassign).updateMany({ where: { product_id: from }, data: { product_id: to } });
  }
  await refuseShared(tx, 'purchaseOrderLine', 'purchase_order_id', 'purchase order', from, to);
  await refuseShared(tx, 'inventoryTransferLine', 'transfer_id', 'transfer', from, to);
  await tx.purchaseOrderLine.updateMany({ where: { product_id: from }, data: { product_id: to } });
  await tx.inventoryTransferLine.updateMany({ where: { product_id: from }, data: { product_id: to } });
  await tx.productListingVariant.updateMany({ where: { product_id: from }, data: { product_id: to } });
  const vendors = await tx.vendorProduct.findMany({ where: { product_id: to }, select: { vendor_id: true } });
  await tx.vendorProduct.deleteMany({ where: { product_id: from, vendor_id: { in: vendors.map((v) => v.vendor_id) } } });
  await tx.vendorProduct.updateMany({ where: { product_id: from }, data: { product_id: to } });
  await tx.channelStockPush.deleteMany({ where: { product_id: from } }); // a cache of pushes: recomputed from the levels
  const asPart = await tx.productComponent.findMany({
    where: { component_product_id: { in: [from, to] } },
    select: { parent_product_id: true, kind: true, component_product_id: true },
  });
  const clash = asPart.find(
    (c) =>
      c.component_product_id === from &&
      asPart.some((d) => d.component_product_id === to && d.parent_product_id === c.parent_product_id && d.kind === c.kind),
  );
  if (clash)
    throw conflict(
      `Products ${from} and ${to} are both components of product ${clash.parent_product_id}: merge its component list by hand first.`,
    );
  await tx.productComponent.updateMany({ where: { component_product_id: from }, data: { component_product_id: to } });
  if (await tx.productComponent.count({ where: { parent_product_id: to } }))
    await tx.productComponent.deleteMany({ where: { parent_product_id: from } }); // the survivor's own list stands
  else await tx.productComponent.updateMany({ where: { parent_product_id: from }, data: { parent_product_id: to } });
  await tx.product.deleteMany({ where: { id: from } });
}

type Reassign = { updateMany(args: { where: { product_id: string }; data: { product_id: string } }): Promise<unknown> };

async function refuseShared(
  tx: TxClient,
  model: 'purchaseOrderLine' | 'inventoryTransferLine',
  parent: string,
  what: string,
  from: string,
  to: string,
) {
  const delegate = tx[model] as unknown as { findMany(a: unknown): Promise<Record<string, string>[]> };
  const rows = await delegate.findMany({ where: { product_id: { in: [from, to] } }, select: { [parent]: true, product_id: true } });
  const shared = rows.find((r) => r.product_id === from && rows.some((s) => s.product_id === to && s[parent] === r[parent]));
  if (shared) throw conflict(`Products ${from} and ${to} are both on ${what} ${shared[parent]}: merge its lines by hand first.`);
}

const BUCKETS = ['on_hand', 'committed', 'unavailable', 'on_order'] as const;

/** Levels: added to the survivor's level of the warehouse, or handed over; movements follow. */
async function mergeLevels(tx: TxClient, from: string, to: string) {
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
async function mergeBins(tx: TxClient, from: string, to: string) {
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
