import { billWorkOrder } from '../charges/index.js';
import { randomUUID } from 'node:crypto';
import type { Db, TxClient } from '../../db/types.js';
import { conflict, invalid, notFound } from '../errors.js';
import { transaction } from '../../db/tx.js';
import { txNow } from '../clock.js';
import { once, sweepOldAnswers, type Answer } from '../idempotency/index.js';
import { applyToLevel, levelFor, type LevelRef, type MovementInfo } from '../inventory/index.js';
import { claimWarehouse } from '../warehouses/index.js';
import { resolveLocation } from '../locations/index.js';
import { suggestPutaway } from '../locations/index.js';
import { reachableTeamIds, type Caller } from '../products/index.js';
import { workOrderView, type WorkOrderView } from './view.js';
import * as store from './store.js';

// POST /v1/ops/work-orders (issue 28; docs/floor.md): builds an ASSEMBLY product (a kit). In ONE
// transaction, through the ledger: each component's level falls by component_quantity x quantity
// (CONSUMED movements, units taken from bins by the pick rule: pickable first, FEFO, never an
// expired lot or a DAMAGED bin), and the assembly's level rises by quantity in one bin (ASSEMBLED
// movements; the bin named, else the putaway suggestion). Every movement carries work_order_id.
// Race-free as every ledger write: levels are changed in id order by guarded UPDATEs, so two work
// orders racing for the last components cannot both take them; the loser answers 409 naming
// what is short and writes nothing. Committed and set-aside units are never consumed.

export interface WorkOrderInput {
  product_id: string;
  quantity: number;
  warehouse_id: string;
  /** The bin the built units go to (id, name or barcode); default: the putaway suggestion. */
  location_id?: string;
  note?: string;
}

interface Need {
  product_id: string;
  sku: string | null;
  quantity: number;
  level: LevelRef;
}

export async function createWorkOrder(
  db: Db,
  caller: Caller & { keyId: string | null },
  input: WorkOrderInput,
  idempotencyKey?: string,
): Promise<Answer<WorkOrderView>> {
  const scope = idempotencyKey ? { teamId: caller.teamId, key: idempotencyKey, operation: 'createWorkOrder', body: input } : undefined;
  if (scope) sweepOldAnswers(db);
  return transaction(db, (tx) => once(tx, scope, 201, () => build(tx, caller, input)));
}

async function build(tx: TxClient, caller: Caller & { keyId: string | null }, input: WorkOrderInput): Promise<WorkOrderView> {
  const warehouse = await claimWarehouse(tx, input.warehouse_id, caller.teamId);
  const product = await store.findBuildProduct(tx, await reachableTeamIds(tx, caller), input.product_id);
  if (!product) throw notFound('Product (product_id)', input.product_id);
  const what = product.sku ?? product.id;
  if (product.type !== 'ASSEMBLY') throw invalid('product_id', `${what} is a ${product.type} product; work orders build ASSEMBLY products`);
  const needs = await componentNeeds(tx, product.id, what, input.quantity, warehouse.id);
  const bin = await intoBin(tx, caller.teamId, warehouse.id, product.id, input.location_id);
  await checkShort(tx, needs, input.quantity, what);
  const id = randomUUID();
  const info: Omit<MovementInfo, 'kind'> = {
    note: input.note ?? null,
    reference_type: 'work_order',
    reference_id: id,
    work_order_id: id,
    actor_key_id: caller.keyId,
  };
  const built: Need = {
    product_id: product.id,
    sku: product.sku,
    quantity: input.quantity,
    level: await levelFor(tx, product.id, warehouse.id),
  };
  // Levels in id order, as everywhere, so racing writers never wait on each other in a cycle.
  for (const n of [...needs, built].sort((a, b) => (a.level.id < b.level.id ? -1 : 1))) {
    if (n === built) {
      await applyToLevel(tx, n.level, { on_hand: n.quantity }, { ...info, kind: 'ASSEMBLED', placement: { location_id: bin.id } });
      continue;
    }
    const ok = await applyToLevel(
      tx,
      n.level,
      { on_hand: -n.quantity },
      { ...info, kind: 'CONSUMED', placement: { pick: true } },
      { sellable: true },
    );
    // Another writer took the units between the check and this guarded UPDATE: say what is short now.
    if (!ok) await checkShort(tx, [n], input.quantity, what);
    if (!ok) throw conflict(`Component ${n.sku ?? n.product_id} of ${what} is short; nothing was built.`);
  }
  const now = txNow(tx); // the app's clock: the work order's and its KITTING charge's date
  const row = await store.insertWorkOrder(tx, {
    id,
    team_id: caller.teamId,
    warehouse_id: warehouse.id,
    product_id: product.id,
    sku: product.sku,
    quantity: input.quantity,
    location_id: bin.id,
    note: input.note ?? null,
    components: await consumed(tx, id, needs),
    actor_key_id: caller.keyId,
    created_at: now,
    updated_at: now,
  });
  // Kitting is billed to the product's merchant by its versioned rate card (docs/billing.md).
  const name = `Kitting ${input.quantity} x ${what}`;
  const bill = {
    id,
    merchant_team_id: product.team_id,
    fulfiller_team_id: caller.teamId,
    warehouse_id: warehouse.id,
    warehouse_name: warehouse.name,
    name,
  };
  await billWorkOrder(tx, { ...bill, units: input.quantity, lines: needs.length }, now);
  return workOrderView(row, bin.name);
}

/** The assembly's components and the whole units each build needs; 422 without components or for fractional units. */
async function componentNeeds(tx: TxClient, productId: string, what: string, quantity: number, warehouseId: string): Promise<Need[]> {
  const components = await store.findAssemblyComponents(tx, productId);
  if (!components.length) throw invalid('product_id', `${what} has no assembly_components; set them on the product first`);
  const out: Need[] = [];
  for (const c of components) {
    const units = c.component_quantity * quantity;
    if (!Number.isInteger(units))
      throw invalid(
        'quantity',
        `${quantity} x ${c.component_quantity} of ${c.component.sku ?? c.component.id} is not a whole number of units`,
      );
    out.push({ product_id: c.component.id, sku: c.component.sku, quantity: units, level: await levelFor(tx, c.component.id, warehouseId) });
  }
  return out;
}

async function intoBin(tx: TxClient, teamId: string, warehouseId: string, productId: string, ref: string | undefined) {
  if (!ref) {
    const s = (await suggestPutaway(tx, warehouseId, [productId])).get(productId)!;
    return { id: s.location_id, name: s.location_name };
  }
  const bin = await resolveLocation(tx, teamId, ref, warehouseId, 'location_id');
  if (!bin.active) throw invalid('location_id', `location ${bin.name} is inactive`);
  return bin;
}

/** 409 naming every component with fewer sellable units (on_hand - committed - unavailable) than the build needs. */
async function checkShort(tx: TxClient, needs: Need[], quantity: number, what: string) {
  const levels = new Map(
    (
      await store.findLevelsIn(
        tx,
        needs.map((n) => n.level.id),
      )
    ).map((l) => [l.id, l]),
  );
  const short = needs.flatMap((n) => {
    const l = levels.get(n.level.id);
    const available = l ? l.on_hand - l.committed - l.unavailable : 0;
    return available < n.quantity ? [{ product_id: n.product_id, sku: n.sku, needed: n.quantity, available: Math.max(0, available) }] : [];
  });
  if (short.length)
    throw conflict(
      `Cannot build ${quantity} of ${what}: components short: ${short.map((s) => `${s.sku ?? s.product_id} (needs ${s.needed}, ${s.available} available)`).join(', ')}.`,
      { short },
    );
}

/** What each component gave, bin by bin and lot by lot: read back from the work order's movements. */
async function consumed(tx: TxClient, id: string, needs: Need[]) {
  const rows = await store.findConsumedMovements(tx, id);
  const names = new Map(
    (await store.findLocationNames(tx, [...new Set(rows.flatMap((r) => (r.location_id ? [r.location_id] : [])))])).map((l) => [
      l.id,
      l.name,
    ]),
  );
  return needs.map((n) => ({
    product_id: n.product_id,
    sku: n.sku,
    quantity: n.quantity,
    parts: rows
      .filter((r) => r.product_id === n.product_id)
      .map((r) => ({
        location_id: r.location_id,
        location_name: r.location_id ? (names.get(r.location_id) ?? null) : null,
        lot_code: r.lot_code,
        expiration_date: r.expiration_date,
        quantity: -r.delta,
      })),
  }));
}
