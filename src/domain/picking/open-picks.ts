import { openScanRows, type Client } from './store/sql.js';

// Pick scans that still matter (issue 28). A scan records units taken from a bin into a tote, or
// (short) units a bin did not hold; nothing moves in the ledger until the fulfill. A fulfillment
// order line's picked units are "open" until fulfilled: the units fulfilled on the line consume its
// picks oldest first, and what is left of them is still in the bin's on_hand (so the walk must not
// plan those units again) and in the tote (so the line needs that many fewer).

export type { Client };

export const stockKey = (locationId: string, productId: string, lot: string) => `${locationId}|${productId}|${lot}`;

export interface OpenPick {
  fulfillment_order_id: string;
  line_id: string;
  product_id: string;
  location_id: string;
  lot_code: string;
  expiration_date: string | null;
  /** Units still open (not yet fulfilled): picked, or reported short when `short`. */
  quantity: number;
  short: boolean;
}

/**
 * The open picks of open fulfillment orders, for these products in these warehouses (any
 * session: another session's picked units are not in the bin for this one either).
 */
export async function openPicks(client: Client, productIds: string[], warehouseIds: string[]): Promise<OpenPick[]> {
  if (!productIds.length || !warehouseIds.length) return [];
  const rows = await openScanRows(client, productIds, warehouseIds);
  const fulfilledLeft = new Map<string, number>();
  const out: OpenPick[] = [];
  for (const r of rows) {
    const lineId = r.fulfillment_order_line_item_id;
    const short = r.short === true || Number(r.short) === 1;
    let q = Number(r.quantity);
    if (!short) {
      // Fulfilled units of the line consume its picks, oldest first.
      const left = fulfilledLeft.get(lineId) ?? Number(r.line_quantity) - Number(r.line_remaining);
      const used = Math.min(left, q);
      fulfilledLeft.set(lineId, left - used);
      q -= used;
    }
    if (q > 0)
      out.push({
        fulfillment_order_id: r.fulfillment_order_id,
        line_id: lineId,
        product_id: r.product_id,
        location_id: r.location_id,
        lot_code: r.lot_code,
        expiration_date: r.expiration_date,
        quantity: q,
        short,
      });
  }
  return out;
}

/** Open picked (not short) units per stock key: what the walk must not plan again. */
export function pickedPerStock(picks: OpenPick[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of picks) {
    if (p.short) continue;
    const k = stockKey(p.location_id, p.product_id, p.lot_code);
    m.set(k, (m.get(k) ?? 0) + p.quantity);
  }
  return m;
}
