import { notFound } from '../errors.js';
import { isHeldLocation, LOCATION_TYPES } from '../../contract/inventory-enums.js';
import { today } from '../clock.js';
import { openPicks, pickedPerStock, stockKey, type Client, type OpenPick } from './open-picks.js';
import { binRows, type BinRow } from './store/sql.js';
import * as scans from './store/scans.js';
import { findTeamSession } from './store/sessions.js';

// GET /v1/ops/picking-sessions/{id}/pick-list (issue 28): the walk for a session. What its open
// fulfillment orders still need (minus the units already picked and not yet fulfilled) is drawn
// from bins by the same rule a fulfill uses (bins.ts: PICKABLE before OVERSTOCK, earliest unexpired
// lot first, then FIFO; never DAMAGED or QUARANTINE bins or expired lots), fulfillment orders oldest first. Bins
// give what they hold minus the open picks of any session, and never the bin and lot where this
// line was reported short. One row per bin, product and lot, in pick_sequence order, with what was
// picked there, what remains, and which totes get how many. Units no bin can give are `short`.
// A read: nothing is reserved; scans.ts calls it inside its transaction.

export interface ToteShare {
  fulfillment_order_id: string;
  order_number: string;
  tote_id: string | null;
  tote_name: string | null;
  quantity: number;
  picked: number;
  short: number;
  remaining: number;
}

export interface WalkRow {
  location_id: string;
  location_name: string;
  location_type: string;
  pick_sequence: number;
  product_id: string;
  sku: string | null;
  product_name: string;
  barcode: string | null;
  lot_code: string | null;
  expiration_date: string | null;
  quantity: number;
  picked: number;
  short: number;
  remaining: number;
  totes: ToteShare[];
}

const rank = (t: string) => (LOCATION_TYPES as readonly string[]).indexOf(t);

async function binsOf(client: Client, productIds: string[], warehouseIds: string[], locationIds: string[]) {
  if (!productIds.length) return [];
  const rows = await binRows(client, productIds, warehouseIds, locationIds);
  return rows
    .map((r) => ({ ...r, on_hand: Number(r.on_hand), pick_sequence: Number(r.pick_sequence) }))
    .sort(
      (a, b) =>
        rank(a.type) - rank(b.type) ||
        (a.expiration_date ?? '9999').localeCompare(b.expiration_date ?? '9999') ||
        a.pick_sequence - b.pick_sequence ||
        new Date(a.created_at).getTime() - new Date(b.created_at).getTime() ||
        (a.id < b.id ? -1 : 1),
    );
}

/** The session's open fulfillment orders (priority first, then oldest) with their lines that have a product. */
async function sessionFos(client: Client, teamId: string, sessionId: string) {
  const session = await findTeamSession(client, teamId, sessionId);
  if (!session) throw notFound('Picking session', sessionId);
  return scans.findSessionOpenOrders(client, teamId, sessionId);
}

export async function computeWalk(client: Client, teamId: string, sessionId: string) {
  const fos = await sessionFos(client, teamId, sessionId);
  const productIds = [...new Set(fos.flatMap((f) => f.line_items.map((l) => l.product_id!)))];
  const warehouseIds = [...new Set(fos.map((f) => f.warehouse_id))];
  const picks = await openPicks(client, productIds, warehouseIds);
  const foIds = new Set(fos.map((f) => f.id));
  const mine = picks.filter((p) => foIds.has(p.fulfillment_order_id));
  const bins = await binsOf(client, productIds, warehouseIds, [...new Set(mine.map((p) => p.location_id))]);
  const [products, totes] = await Promise.all([
    scans.findWalkProducts(client, productIds),
    scans.findToteNames(
      client,
      fos.flatMap((f) => (f.tote_id ? [f.tote_id] : [])),
    ),
  ]);
  const toteName = new Map(totes.map((t) => [t.id, t.name]));
  const binByKey = new Map(bins.map((b) => [stockKey(b.location_id, b.product_id, b.lot_code), b]));
  const rows = new Map<string, { bin: BinRow; totes: Map<string, ToteShare> }>();
  // A pick's stock row always exists (picks are checked against it); `blank` absorbs one that
  // vanished all the same, so the line's need stays right.
  const blank = {} as ToteShare;
  const share = (key: string, fo: (typeof fos)[number]) => {
    if (!binByKey.has(key)) return { ...blank };
    const row = rows.get(key) ?? { bin: binByKey.get(key)!, totes: new Map<string, ToteShare>() };
    rows.set(key, row);
    const t = row.totes.get(fo.id) ?? {
      fulfillment_order_id: fo.id,
      order_number: fo.order.order_number,
      tote_id: fo.tote_id,
      tote_name: fo.tote_id ? (toteName.get(fo.tote_id) ?? null) : null,
      quantity: 0,
      picked: 0,
      short: 0,
      remaining: 0,
    };
    row.totes.set(fo.id, t);
    return t;
  };
  // What each bin can still give: on_hand minus every open pick there (this session's included).
  const taken = pickedPerStock(picks);
  const avail = new Map(bins.map((b) => [b.id, b.on_hand - (taken.get(stockKey(b.location_id, b.product_id, b.lot_code)) ?? 0)]));
  const day = today();
  const short: { fulfillment_order_id: string; product_id: string; sku: string | null; quantity: number }[] = [];
  for (const fo of fos) {
    for (const line of fo.line_items) {
      const linePicks = mine.filter((p: OpenPick) => p.line_id === line.id);
      const shortAt = new Set(linePicks.filter((p) => p.short).map((p) => stockKey(p.location_id, p.product_id, p.lot_code)));
      let need = line.remaining_quantity;
      for (const p of linePicks) {
        const t = share(stockKey(p.location_id, p.product_id, p.lot_code), fo);
        if (p.short) t.short = (t.short ?? 0) + p.quantity;
        else {
          t.picked = (t.picked ?? 0) + p.quantity;
          need -= p.quantity;
        }
      }
      for (const bin of bins) {
        if (need <= 0) break;
        const key = stockKey(bin.location_id, bin.product_id, bin.lot_code);
        if (bin.product_id !== line.product_id || bin.warehouse_id !== fo.warehouse_id || shortAt.has(key)) continue;
        if (isHeldLocation(bin.type) || (bin.expiration_date !== null && bin.expiration_date < day)) continue;
        const n = Math.min(need, avail.get(bin.id)!);
        if (n <= 0) continue;
        avail.set(bin.id, avail.get(bin.id)! - n);
        need -= n;
        share(key, fo).remaining += n;
      }
      if (need > 0) short.push({ fulfillment_order_id: fo.id, product_id: line.product_id!, sku: line.sku, quantity: need });
    }
  }
  const product = new Map(products.map((p) => [p.id, p]));
  const walk: WalkRow[] = [...rows.values()]
    .sort(
      (a, b) => a.bin.pick_sequence - b.bin.pick_sequence || a.bin.name.localeCompare(b.bin.name) || rank(a.bin.type) - rank(b.bin.type),
    )
    .map((r) => {
      const p = product.get(r.bin.product_id);
      const shares = [...r.totes.values()].map((t) => ({ ...t, quantity: t.picked + t.short + t.remaining }));
      const sum = (f: 'picked' | 'short' | 'remaining') => shares.reduce((n, t) => n + t[f], 0);
      return {
        location_id: r.bin.location_id,
        location_name: r.bin.name,
        location_type: r.bin.type,
        pick_sequence: r.bin.pick_sequence,
        product_id: r.bin.product_id,
        sku: p?.sku ?? null,
        product_name: p?.name ?? '',
        barcode: p?.barcode ?? null,
        lot_code: r.bin.lot_code || null,
        expiration_date: r.bin.expiration_date,
        quantity: sum('picked') + sum('short') + sum('remaining'),
        picked: sum('picked'),
        short: sum('short'),
        remaining: sum('remaining'),
        totes: shares,
      };
    });
  return { fos, walk, short };
}

/** The pick list response: the walk, what no bin holds, and whether anything is left to pick. */
export async function pickList(client: Client, teamId: string, sessionId: string) {
  const { fos, walk, short } = await computeWalk(client, teamId, sessionId);
  return {
    picking_session_id: sessionId,
    fulfillment_order_count: fos.length,
    complete: walk.every((r) => r.remaining === 0),
    rows: walk,
    short,
  };
}
