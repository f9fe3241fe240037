import type { TxClient } from '../../db/types.js';
import { DomainError } from '../errors.js';
import type { Placement } from '../inventory/index.js';
import { damagedBinFor } from '../locations/index.js';
import { resolveLocation } from '../locations/index.js';
import * as store from './store.js';

// Where returned units go back (issue 34; docs/inventory.md, "Returns"): the bin a line (or the
// receipt) names, else the warehouse's default location; DAMAGED units to a held bin (the one
// named, when it is DAMAGED or QUARANTINE, else the warehouse's DAMAGED location). The lot is the
// one named, else the lot the order's units of that product shipped from (the most recent
// shipment when several); a lot-tracked product never comes back without a lot.

export interface RestockLine {
  quantity: number;
  condition?: 'SELLABLE' | 'DAMAGED';
  location?: string;
  lot_code?: string;
}

export interface Restock {
  lot_code: string | null;
  expiration_date: string | null;
  placement: Placement;
}

/** The bins and lots of a return receipt's lines, in line order (bins resolved once per name). */
export async function restockOf(
  tx: TxClient,
  r: { team_id: string; warehouse_id: string; order_id: string },
  input: { location?: string; lines: RestockLine[] },
  products: { product_id: string; sku: string | null }[],
): Promise<Restock[]> {
  const bins = new Map<string, { id: string; name: string; type: string }>();
  const binOf = async (ref: string, path: string) => {
    if (!bins.has(ref)) bins.set(ref, await resolveLocation(tx, r.team_id, ref, r.warehouse_id, path));
    return bins.get(ref)!;
  };
  const tracked = await lotTracked(
    tx,
    products.map((p) => p.product_id),
  );
  const packages = (await store.findOrderPackageIds(tx, r.order_id)).map((p) => p.id);
  const out: Restock[] = [];
  for (const [i, line] of input.lines.entries()) {
    const ref = line.location ?? input.location;
    const named = ref ? await binOf(ref, line.location ? `lines[${i}].location` : 'location') : null;
    const bin = line.condition === 'DAMAGED' ? await damagedBinFor(tx, r.warehouse_id, named) : named;
    const { product_id, sku } = products[i];
    const shipped = tracked.has(product_id) ? await shippedLot(tx, packages, product_id, line.lot_code) : null;
    const lot = line.lot_code ?? shipped?.lot_code ?? null;
    if (tracked.has(product_id) && !lot) {
      const message = `${sku ?? product_id} is lot-tracked and no lot it shipped from is known; give lot_code (--lot)`;
      throw new DomainError('validation-failed', `lines[${i}]: ${message}`, { errors: [{ path: `lines[${i}].lot_code`, message }] });
    }
    const expiration_date = shipped?.expiration_date ?? null;
    out.push({
      lot_code: lot,
      expiration_date,
      placement: {
        ...(bin ? { location_id: bin.id } : {}),
        ...(lot ? { lot_code: lot } : {}),
        ...(expiration_date ? { expiration_date } : {}),
      },
    });
  }
  return out;
}

async function lotTracked(tx: TxClient, productIds: string[]) {
  const rows = await store.findLotTracked(tx, [...new Set(productIds)]);
  return new Set(rows.map((p) => p.id));
}

/**
 * The lot (and its expiry) the order's packages shipped of a product, newest shipment first: the
 * given lot when named (for its expiry), else the most recent lot that left.
 */
async function shippedLot(tx: TxClient, packageIds: string[], productId: string, lot: string | undefined) {
  if (!packageIds.length) return null;
  return store.findShippedLot(tx, packageIds, productId, lot);
}
