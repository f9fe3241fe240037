import type { Db, Provider, TxClient } from '../../db/types.js';
import { transaction } from '../../db/tx.js';
import { conflict, notFound } from '../errors.js';
import { enqueueForParties } from '../events/index.js';
import { applyToLevels, levelsFor } from '../inventory/index.js';
import { claimWarehouse } from '../warehouses/index.js';
import { resolveProducts, uniqueProducts, type ProductRef } from '../inventory/index.js';
import { reachableTeamIds, type Caller } from '../products/index.js';
import { purchaseOrderView, type PurchaseOrderView } from './view.js';
import * as store from './store.js';

// Creating a purchase order (inbound receipt) raises on_order at the receiving warehouse, one
// ORDERED movement per line, in the transaction that writes the order. A fulfiller creates one
// for its own warehouse (optionally for a delegated merchant, whose rate card then bills the
// receiving); a merchant creates one for a warehouse of a fulfiller it delegates to (a ShipBob
// WRO) on /v1/merchant/purchase-orders, naming only its own products.

export interface PurchaseOrderInput {
  warehouse_id: string;
  merchant_team_id?: string;
  vendor_id?: string;
  reference?: string;
  expected_at?: string;
  lines: (ProductRef & { quantity: number })[];
}

/** The caller; keyId null for the server's own work (the demo seed). */
type Actor = Caller & { keyId: string | null };

export async function createPurchaseOrder(db: Db, caller: Actor, input: PurchaseOrderInput): Promise<PurchaseOrderView> {
  return transaction(db, async (tx) => {
    const warehouse = await claimWarehouse(tx, input.warehouse_id, caller.teamId);
    let delegationId: string | null = null;
    let productTeams = await reachableTeamIds(tx, caller);
    if (input.merchant_team_id) {
      const d = await store.findActiveDelegation(tx, caller.teamId, input.merchant_team_id);
      if (!d) throw notFound('Merchant team delegated to this team', input.merchant_team_id);
      delegationId = d.id;
      productTeams = [input.merchant_team_id];
    }
    return write(tx, caller, input, {
      provider: db.provider,
      fulfillerTeamId: caller.teamId,
      warehouse,
      productTeams,
      delegationId,
      merchantTeamId: input.merchant_team_id ?? null,
    });
  });
}

/** A merchant's inbound receipt for a warehouse of a fulfiller it delegates to. */
export async function createMerchantPurchaseOrder(
  db: Db,
  caller: Actor,
  input: Omit<PurchaseOrderInput, 'merchant_team_id'>,
): Promise<PurchaseOrderView> {
  return transaction(db, async (tx) => {
    const warehouse = await claimWarehouse(tx, input.warehouse_id).catch(() => null);
    const d = warehouse && (await store.findActiveDelegation(tx, warehouse.team_id, caller.teamId));
    if (!warehouse || !d) throw notFound('Warehouse of a fulfiller this team delegates to', input.warehouse_id);
    return write(tx, caller, input, {
      provider: db.provider,
      fulfillerTeamId: warehouse.team_id,
      warehouse,
      productTeams: [caller.teamId],
      delegationId: d.id,
      merchantTeamId: caller.teamId,
    });
  });
}

interface Target {
  provider: Provider;
  fulfillerTeamId: string;
  warehouse: { id: string; name: string };
  productTeams: string[];
  delegationId: string | null;
  merchantTeamId: string | null;
}

async function write(tx: TxClient, caller: Actor, input: Omit<PurchaseOrderInput, 'merchant_team_id'>, t: Target) {
  const products = await resolveProducts(tx, t.productTeams, input.lines);
  uniqueProducts(products);
  if (input.vendor_id) {
    const vendor = await store.vendorOfTeams(tx, [...t.productTeams, caller.teamId], input.vendor_id);
    if (!vendor) throw notFound('Vendor', input.vendor_id);
  }
  const po = await store.insertPurchaseOrder(
    tx,
    {
      team_id: t.fulfillerTeamId,
      warehouse_id: t.warehouse.id,
      merchant_team_id: t.merchantTeamId,
      fulfillment_delegation_id: t.delegationId,
      vendor_id: input.vendor_id ?? null,
      reference: input.reference ?? null,
      expected_at: input.expected_at ? new Date(input.expected_at) : null,
      created_by_key_id: caller.keyId,
      created_by_team_id: caller.teamId,
    },
    products.map((p, i) => ({ product_id: p.id, sku: p.sku, quantity: input.lines[i].quantity })),
  );
  // Every line's on_order at once (ledger-bulk.ts): a 1,000-line order is a handful of statements.
  const levels = await levelsFor(
    tx,
    t.provider,
    t.warehouse.id,
    products.map((p) => p.id),
  );
  const refused = await applyToLevels(
    tx,
    t.provider,
    products.map((p, i) => ({
      level: { id: levels.get(p.id)!, product_id: p.id, warehouse_id: t.warehouse.id, sku: p.sku },
      deltas: { on_order: input.lines[i].quantity },
      info: { kind: 'ORDERED', reference_type: 'purchase_order', reference_id: po.id, actor_key_id: caller.keyId },
    })),
  );
  if (refused >= 0) throw conflict(`lines[${refused}]: on order of ${products[refused].sku ?? products[refused].id} could not be raised.`);
  const view = purchaseOrderView(po, t.warehouse.name);
  await enqueueForParties(tx, po, 'purchase_order.created', view);
  return view;
}
