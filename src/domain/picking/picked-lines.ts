import type { TxClient } from '../../db/types.js';
import { findPackedFromBins, findPickedScans } from './store/scans.js';

// Package lines from pick scans (issue 28 item 3). When a package is made for a fulfillment order
// whose units were scan-picked, each line's units are matched to the picks of its fulfillment-
// order line not yet in a package (oldest first): the line is split per picked bin and lot, each
// part carrying the lot_code, expiration_date and location_id (the bin) it was picked from, so
// the fulfill takes exactly those units (bins.ts pickPlacements). A line that names a lot only
// matches picks of that lot. Units with no pick left stay a line without a bin (the fulfill
// chooses by the pick rule, as before). Orders in no picking session cost no query.

interface Group {
  line_id: string;
  location_id: string;
  lot_code: string;
  expiration_date: string | null;
  left: number;
}

/** Picks per (fulfillment-order line, bin, lot), minus the units of them already in packages. */
async function unpackedPicks(tx: TxClient, foId: string): Promise<Group[]> {
  const [scans, packed] = await Promise.all([findPickedScans(tx, foId), findPackedFromBins(tx, foId)]);
  const key = (line: string | null, loc: string | null, lot: string | null) => `${line}|${loc}|${lot ?? ''}`;
  const groups = new Map<string, Group>();
  for (const s of scans) {
    const k = key(s.fulfillment_order_line_item_id, s.location_id, s.lot_code);
    const g = groups.get(k) ?? {
      line_id: s.fulfillment_order_line_item_id,
      location_id: s.location_id,
      lot_code: s.lot_code,
      expiration_date: s.expiration_date,
      left: 0,
    };
    g.left += s.quantity;
    groups.set(k, g);
  }
  for (const p of packed) {
    const g = groups.get(key(p.core_fulfillment_order_line_item_id, p.location_id, p.lot_code));
    if (g) g.left -= p.quantity;
  }
  return [...groups.values()].filter((g) => g.left > 0);
}

/** What the split needs of a package line (fulfillment/package-lines.ts ResolvedLine, which calls it). */
interface PackageLine {
  input: { lot_code?: string | null };
  foLine: { id: string };
  data: { quantity: number; location_id?: string | null; lot_code: string | null; expiration_date: Date | null };
}

/** The resolved lines of a new package, split by the picks they take (see above). */
export async function withPickedLots<L extends PackageLine>(
  tx: TxClient,
  fo: { id: string; picking_session_id: string | null },
  lines: L[],
): Promise<L[]> {
  if (!fo.picking_session_id) return lines;
  const groups = await unpackedPicks(tx, fo.id);
  if (!groups.length) return lines;
  const out: L[] = [];
  for (const line of lines) {
    let q = line.data.quantity;
    const wanted = line.input.lot_code ?? null;
    for (const g of groups) {
      if (!q) break;
      if (g.line_id !== line.foLine.id || g.left <= 0 || (wanted !== null && g.lot_code !== wanted)) continue;
      const n = Math.min(q, g.left);
      g.left -= n;
      q -= n;
      out.push({
        ...line,
        data: {
          ...line.data,
          quantity: n,
          location_id: g.location_id,
          lot_code: g.lot_code || line.data.lot_code,
          expiration_date: g.expiration_date ? new Date(g.expiration_date) : line.data.expiration_date,
        },
      });
    }
    if (q) out.push({ ...line, data: { ...line.data, quantity: q } });
  }
  return out;
}
