import type { Db, TxClient } from '../../db/types.js';
import { defaultLocationId, ensureDefaultLocation } from '../warehouses/index.js';
import { notFound } from '../errors.js';
import type { PutawayReason } from '../../contract/inventory-enums.js';
import { reachableTeamIds, type Caller } from '../products/index.js';
import { emptyPickableBins, findLocationName, findProductOfTeams, pickableBinsHolding, teamWarehouseExists } from './store.js';

// Putaway suggestions (issue 28; docs/floor.md): where units that arrive without a named bin go.
// For each product: the PICKABLE bin that already holds it (lowest pick_sequence), else an empty
// active PICKABLE bin (lowest pick_sequence; products of one receipt get different ones), else the
// warehouse's default location. The default location is never the "existing" or "empty" bin, so a
// team that never set up bins keeps receiving into it, and a team that did leaves it behind.
// suggestPutaway() takes the products of a whole receipt and answers with two queries, so a bulk
// receipt path can call it once for all its lines. A suggestion is not a reservation: two receipts
// at once may both choose the same empty bin, which only means the bin then holds two products.

export type { PutawayReason };

export interface PutawaySuggestion {
  product_id: string;
  location_id: string;
  location_name: string;
  reason: PutawayReason;
}

/** Where a request line's units went (a named bin, or the suggestion when it added units); null: they left by the pick order. */
export interface Into {
  location_id: string | null;
  location_name: string | null;
  putaway: PutawayReason | null;
}

/** Into for a line: its named bin, else the suggestion it was put away by, else none (its units left by the pick order). */
export function landing(bin: { id: string; name: string } | null, s: PutawaySuggestion | undefined): Into {
  if (bin) return { location_id: bin.id, location_name: bin.name, putaway: null };
  return s
    ? { location_id: s.location_id, location_name: s.location_name, putaway: s.reason }
    : { location_id: null, location_name: null, putaway: null };
}

/** The suggested bin of each product (ids may repeat) in the warehouse. */
export async function suggestPutaway(tx: TxClient, warehouseId: string, productIds: string[]): Promise<Map<string, PutawaySuggestion>> {
  const ids = [...new Set(productIds)];
  const out = new Map<string, PutawaySuggestion>();
  if (!ids.length) return out;
  const held = await pickableBinsHolding(tx, warehouseId, ids);
  for (const r of held)
    if (!out.has(r.product_id!))
      out.set(r.product_id!, { product_id: r.product_id!, location_id: r.id, location_name: r.name, reason: 'EXISTING_BIN' });
  const rest = ids.filter((id) => !out.has(id));
  if (!rest.length) return out;
  const empty = await emptyPickableBins(tx, warehouseId, rest.length);
  rest.forEach((id, i) => {
    if (empty[i]) out.set(id, { product_id: id, location_id: empty[i].id, location_name: empty[i].name, reason: 'EMPTY_BIN' });
  });
  const left = rest.filter((id) => !out.has(id));
  if (left.length) {
    const { id: location_id, name } = await defaultLocation(tx, warehouseId);
    for (const id of left) out.set(id, { product_id: id, location_id, location_name: name, reason: 'DEFAULT_LOCATION' });
  }
  return out;
}

/** The warehouse's default location (created when a warehouse made before bins still has none). */
async function defaultLocation(tx: TxClient, warehouseId: string) {
  const row = await findLocationName(tx, defaultLocationId(warehouseId));
  return row ?? { id: await ensureDefaultLocation(tx, warehouseId), name: 'DEFAULT' };
}

/** GET /v1/ops/locations/putaway: the suggestion for one product, before the units are scanned in. */
export async function putawayFor(db: Db, caller: Caller, q: { product_id: string; warehouse_id: string; quantity?: number }) {
  // A read: nothing is reserved (the receipt asks again when it happens).
  const tx = db.prisma as unknown as TxClient;
  const warehouse = await teamWarehouseExists(tx, caller.teamId, q.warehouse_id);
  if (!warehouse) throw notFound('Warehouse', q.warehouse_id);
  const teams = await reachableTeamIds(tx, caller);
  const product = await findProductOfTeams(tx, teams, q.product_id);
  if (!product) throw notFound('Product', q.product_id);
  const s = (await suggestPutaway(tx, warehouse.id, [product.id])).get(product.id)!;
  return { ...s, sku: product.sku, warehouse_id: warehouse.id, quantity: q.quantity ?? null };
}
