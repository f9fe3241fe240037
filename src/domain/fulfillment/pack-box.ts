import type { PackScan, Provider, TxClient } from '../../db/types.js';
import { packingLines } from './packing.js';
import { findOrderNumber, findPackingStartedAt, findToteName, openScans } from './store/pack-scans.js';

// The open box of a fulfillment order as the packing stations show it: per line what the box can
// take (unfulfilled minus units in other open packages), what is scanned, what is left; the scans
// not yet packed, oldest first (docs/floor.md "Packing that checks").

export interface ScanView {
  id: string;
  product_id: string;
  sku: string | null;
  lot_code: string | null;
  expiration_date: string | null;
  quantity: number;
  tote_id: string | null;
  user_name: string | null;
  created_at: Date;
}

export interface BoxLine {
  line_id: string;
  sku: string | null;
  product_id: string | null;
  name: string;
  needed: number;
  scanned: number;
  remaining: number;
  /** Units recorded short (a short pick or pack): left out of `needed`. */
  short: number;
}

export interface BoxView {
  fulfillment_order_id: string;
  order_id: string;
  order_number: string;
  tote_name: string | null;
  packing_started_at: Date | null;
  scanned: Array<{ sku: string | null; product_id: string; lot_code: string | null; quantity: number }>;
  remaining: Array<{ sku: string | null; product_id: string | null; name: string; quantity: number }>;
  lines: BoxLine[];
  scans: ScanView[];
  complete: boolean;
}

export const scanView = (s: PackScan): ScanView => ({
  id: s.id,
  product_id: s.product_id,
  sku: s.sku,
  lot_code: s.lot_code,
  expiration_date: s.expiration_date,
  quantity: s.quantity,
  tote_id: s.tote_id,
  user_name: s.user_name,
  created_at: s.created_at,
});

export async function boxOf(
  client: TxClient,
  fo: { id: string; order_id: string; tote_id: string | null },
  provider?: Provider,
): Promise<BoxView> {
  const [foLines, scans, row] = [
    await packingLines(client, fo.id, undefined, provider),
    await openScans(client, fo.id),
    await findPackingStartedAt(client, fo.id),
  ];
  const order = await findOrderNumber(client, fo.order_id);
  const tote = fo.tote_id ? await findToteName(client, fo.tote_id) : null;
  const onLine = new Map<string, number>();
  for (const s of scans) onLine.set(s.fo_line_item_id, (onLine.get(s.fo_line_item_id) ?? 0) + s.quantity);
  const lines = foLines.map((l): BoxLine => {
    const needed = Math.max(0, l.remaining_quantity - l.in_other_packages - l.short_quantity);
    const scanned = onLine.get(l.id) ?? 0;
    const remaining = Math.max(0, needed - scanned);
    return { line_id: l.id, sku: l.sku, product_id: l.product_id, name: l.name, needed, scanned, remaining, short: l.short_quantity };
  });
  const byLot = new Map<string, BoxView['scanned'][number]>();
  for (const s of scans) {
    const k = `${s.product_id}\u0000${s.lot_code ?? ''}`;
    const hit = byLot.get(k);
    if (hit) hit.quantity += s.quantity;
    else byLot.set(k, { sku: s.sku, product_id: s.product_id, lot_code: s.lot_code, quantity: s.quantity });
  }
  const remaining = lines
    .filter((l) => l.remaining > 0)
    .map((l) => ({ sku: l.sku, product_id: l.product_id, name: l.name, quantity: l.remaining }));
  return {
    fulfillment_order_id: fo.id,
    order_id: fo.order_id,
    order_number: order.order_number,
    tote_name: tote?.name ?? null,
    packing_started_at: row.packing_started_at,
    scanned: [...byLot.values()],
    remaining,
    lines,
    scans: scans.map(scanView),
    complete: remaining.length === 0,
  };
}
