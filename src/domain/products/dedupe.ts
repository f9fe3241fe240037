import type { Db, TxClient } from '../../db/types.js';
import { transaction } from '../../db/tx.js';
import { conflict } from '../errors.js';
import { duplicateSkuRows } from './store/write.js';
import * as merge from './store/merge.js';

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
  await merge.mergeLevels(tx, from, to);
  await merge.mergeBins(tx, from, to);
  await merge.reassignOrderLines(tx, from, to);
  await refuseShared(tx, 'purchaseOrderLine', 'purchase_order_id', 'purchase order', from, to);
  await refuseShared(tx, 'inventoryTransferLine', 'transfer_id', 'transfer', from, to);
  await merge.reassignReferences(tx, from, to);
  const asPart = await merge.findComponentUses(tx, from, to);
  const clash = asPart.find(
    (c) =>
      c.component_product_id === from &&
      asPart.some((d) => d.component_product_id === to && d.parent_product_id === c.parent_product_id && d.kind === c.kind),
  );
  if (clash)
    throw conflict(
      `Products ${from} and ${to} are both components of product ${clash.parent_product_id}: merge its component list by hand first.`,
    );
  await merge.moveComponentsAndDelete(tx, from, to);
}

async function refuseShared(
  tx: TxClient,
  model: 'purchaseOrderLine' | 'inventoryTransferLine',
  parent: string,
  what: string,
  from: string,
  to: string,
) {
  const rows = await merge.findLinesOfEither(tx, model, parent, from, to);
  const shared = rows.find((r) => r.product_id === from && rows.some((s) => s.product_id === to && s[parent] === r[parent]));
  if (shared) throw conflict(`Products ${from} and ${to} are both on ${what} ${shared[parent]}: merge its lines by hand first.`);
}
