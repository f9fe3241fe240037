import type { TxClient } from '../../db/types.js';
import { conflict, DomainError } from '../errors.js';
import { today } from '../clock.js';
import { heldLotRows, productsByCodeRows } from './store/packing-checks.js';
import { findTotesByIdOrName } from './store/pack-scans.js';

// What a pack scan is checked against besides the order's needs: which product a barcode names,
// whether the warehouse holds the lot, whether the tote is the order's (pack-scans.ts).

export interface ScannedProduct {
  id: string;
  sku: string | null;
  name: string;
  lot_tracked: boolean | null;
}

/** The team's products whose barcode or SKU is `code`, case-insensitively. */
export async function findProducts(tx: TxClient, teamId: string, code: string): Promise<ScannedProduct[]> {
  const c = code.trim().toLowerCase();
  const rows = await productsByCodeRows(tx, teamId, c);
  return rows.map((r) => ({ ...r, lot_tracked: r.lot_tracked === null ? null : Boolean(r.lot_tracked) }));
}

/**
 * For a lot-tracked product, a scanned lot must be one the warehouse holds outside DAMAGED bins,
 * unexpired, with at least `units` on hand (this scan and the box's earlier ones of that lot).
 * Other products keep the lot code as information, as package lines do.
 */
export async function checkLot(
  tx: TxClient,
  warehouseId: string,
  product: ScannedProduct,
  lot: string | undefined,
  units: number,
): Promise<{ refusal?: string; expiration_date: string | null }> {
  if (!lot || !product.lot_tracked) return { expiration_date: null };
  const rows = await heldLotRows(tx, product.id, warehouseId);
  const what = product.sku ?? product.name;
  const held = rows.filter((r) => r.lot_code !== '');
  const hit = held.find((r) => r.lot_code === lot);
  const lots = held.map((r) => `${r.lot_code}${r.expiration_date ? ` (expires ${r.expiration_date})` : ''}`).join(', ') || 'none';
  if (!hit) return { refusal: `Lot ${lot} of ${what} is not held in this warehouse; lots held: ${lots}.`, expiration_date: null };
  if (hit.expiration_date && hit.expiration_date < today()) {
    return { refusal: `Lot ${lot} of ${what} expired on ${hit.expiration_date}; it cannot be shipped.`, expiration_date: null };
  }
  if (Number(hit.on_hand) < units) {
    return { refusal: `Lot ${lot} of ${what}: the warehouse holds ${Number(hit.on_hand)}, ${units} scanned.`, expiration_date: null };
  }
  return { expiration_date: hit.expiration_date };
}

/** The tote a scan names (id or name) must be the order's: its id, or a 404/409. */
export async function resolveTote(tx: TxClient, teamId: string, foToteId: string | null, tote: string): Promise<string> {
  const found = await findTotesByIdOrName(tx, teamId, tote);
  if (!found.length) throw new DomainError('unprocessable', `No tote is named or numbered "${tote}".`);
  const mine = found.find((t) => t.id === foToteId);
  if (!mine) throw conflict(`Tote ${tote} does not hold this fulfillment order${foToteId ? '' : ' (it has no tote)'}.`);
  return mine.id;
}
