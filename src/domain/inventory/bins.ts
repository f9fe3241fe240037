import { today } from '../clock.js';
import { ensureDefaultLocation } from '../warehouses/index.js';
import type { TxClient } from '../../db/types.js';
import { refusalNames } from '../names/index.js';
import { conflict } from '../errors.js';
import { isHeldLocation, LOCATION_TYPES } from '../../contract/inventory-enums.js';
import { levelAndBinsOnHand, stockOfProducts, stockRows, takeFromStock, upsertStock, type StockRow } from './store/bins.js';
import { isLotTracked, lotTrackedIds } from './store/products.js';

// Stock by bin and lot (issue 28; docs/floor.md). A level's on_hand is held in location_stock rows
// (product, location, lot_code; "" = no lot). The ledger calls placeOnHand() right after it moved a
// level's on_hand, inside the same transaction: that UPDATE holds the level's row lock (PostgreSQL)
// or the write lock (SQLite), so every bin change of a product in a warehouse is serialised behind
// it and what is read here is what the previous writer committed. The bin UPDATEs are still
// compare-and-set (never below zero). Units a legacy path wrote to a level without a bin are
// "unplaced" (level on_hand - sum of its bins); taking from them writes movements with no bin.

export interface Placement {
  /** The bin the units enter or leave; default: the warehouse's default location (in), the pick order (out). */
  location_id?: string;
  /** The lot they enter or leave (in: only kept for lot-tracked products; default info.lot_code). */
  lot_code?: string | null;
  expiration_date?: string | null;
  /** out: picking — never held bins (DAMAGED, QUARANTINE) nor expired lots (unless allow_expired). */
  pick?: boolean;
  allow_expired?: boolean;
  /**
   * out: units that must come from these lots (a package's lines naming their lot); the rest by the
   * pick order. With location_id (units a picker scanned there: lot_code "" when not lot-tracked),
   * from that bin, whatever its type or expiry: the scan was checked, the units are in the tote.
   */
  lots?: { lot_code: string; quantity: number; location_id?: string }[];
}

export interface BinPart {
  location_id: string | null;
  location_stock_id: string | null;
  lot_code: string | null;
  expiration_date: string | null;
  delta: number;
}

const expired = (r: { expiration_date: string | null }, day: string) => r.expiration_date !== null && r.expiration_date < day;

/**
 * Records where a change of a level's on_hand by `delta` happened, after the level moved: units
 * in go to one bin (upserted), units out come from bins in pick order. Throws a 409 when the bins
 * named cannot give them (the caller's transaction then undoes the level change too).
 */
export async function placeOnHand(
  tx: TxClient,
  level: { product_id: string; warehouse_id: string; sku?: string | null },
  delta: number,
  p: Placement,
  infoLot: string | null,
): Promise<BinPart[]> {
  if (delta > 0) return [await putIn(tx, level, delta, p, infoLot)];
  return takeOut(tx, level, -delta, p, infoLot);
}

async function putIn(
  tx: TxClient,
  level: { product_id: string; warehouse_id: string },
  q: number,
  p: Placement,
  infoLot: string | null,
): Promise<BinPart> {
  const location_id = p.location_id ?? (await ensureDefaultLocation(tx, level.warehouse_id));
  const given = p.lot_code ?? infoLot ?? null;
  const lotTracked = given ? await isLotTracked(tx, level.product_id) : false;
  const lot = lotTracked ? given! : '';
  const exp = lotTracked ? (p.expiration_date ?? null) : null;
  // One statement (insert or add), so a receipt costs one round trip more than before bins.
  const now = new Date();
  const row = await upsertStock(
    tx,
    { product_id: level.product_id, warehouse_id: level.warehouse_id, location_id, lot_code: lot, expiration_date: exp, quantity: q },
    now,
  );
  return {
    location_id,
    location_stock_id: row.id,
    lot_code: given,
    expiration_date: row.expiration_date ?? p.expiration_date ?? null,
    delta: q,
  };
}

const typeRank = (t: string) => {
  const i = (LOCATION_TYPES as readonly string[]).indexOf(t);
  return i < 0 ? LOCATION_TYPES.length : i;
};

/** The bins of a product in a warehouse holding stock, in pick order: bin type, then FEFO (earliest expiry), then FIFO. */
export async function stockInPickOrder(
  tx: TxClient,
  productId: string,
  warehouseId: string,
  filter: { location_id?: string; lot_code?: string | null } = {},
) {
  return inPickOrder(await stockRows(tx, productId, warehouseId, filter));
}

/** Bin rows (read by pick_sequence, then age) in pick order: bin type, then FEFO (earliest expiry), then as read. */
export function inPickOrder(rows: StockRow[]): StockRow[] {
  const day = today();
  return rows
    .map((r) => ({ ...r, on_hand: Number(r.on_hand) }))
    .sort(
      (a, b) =>
        typeRank(a.type) - typeRank(b.type) ||
        Number(expired(a, day)) - Number(expired(b, day)) ||
        (a.expiration_date ?? '9999').localeCompare(b.expiration_date ?? '9999'),
    );
}

/** What takeOutOfLevels read for a level beforehand: its bin rows in pick order, and its and its bins' on_hand. */
interface ReadBefore {
  rows: StockRow[];
  onHand: { level: number; bins: number };
  /** The bin rows to take from, collected for one compare-and-set over every level. */
  takes: BinPart[];
}

async function takeOut(
  tx: TxClient,
  level: { product_id: string; warehouse_id: string; sku?: string | null },
  q: number,
  p: Placement,
  infoLot: string | null,
  read?: ReadBefore,
): Promise<BinPart[]> {
  const lot = p.lot_code ?? null;
  const all =
    read?.rows ?? (await stockInPickOrder(tx, level.product_id, level.warehouse_id, { location_id: p.location_id, lot_code: lot }));
  const day = today();
  const usable = p.pick ? all.filter((r) => !isHeldLocation(r.type) && (p.allow_expired || !expired(r, day))) : all;
  const parts: BinPart[] = [];
  const taken = new Map<string, number>();
  const take = (rows: StockRow[], want: number) => {
    for (const r of rows) {
      if (!want) break;
      const n = Math.min(want, r.on_hand - (taken.get(r.id) ?? 0));
      if (n <= 0) continue;
      taken.set(r.id, (taken.get(r.id) ?? 0) + n);
      parts.push({
        location_id: r.location_id,
        location_stock_id: r.id,
        lot_code: r.lot_code || infoLot,
        expiration_date: r.expiration_date,
        delta: -n,
      });
      want -= n;
    }
    return want;
  };
  let left = q;
  for (const lot of p.lots ?? []) {
    const want = Math.min(lot.quantity, left);
    const missing = take(
      lot.location_id
        ? all.filter((r) => r.location_id === lot.location_id && r.lot_code === lot.lot_code)
        : usable.filter((r) => r.lot_code === lot.lot_code),
      want,
    );
    const n = missing ? await refusalNames(tx, { products: [level.product_id], locations: [lot.location_id] }) : undefined;
    if (n && lot.location_id)
      throw conflict(
        `Picked units of ${n.product(level.product_id)}${lot.lot_code ? ` lot ${lot.lot_code}` : ''}: only ${want - missing} of ${want} are still in location ${n.location(lot.location_id)}.`,
        { product_id: level.product_id, location_id: lot.location_id, lot_code: lot.lot_code || null },
      );
    if (n)
      throw conflict(
        `Lot ${lot.lot_code} of ${n.product(level.product_id)}: only ${want - missing} of ${want} units can be picked (expired lots and DAMAGED or QUARANTINE bins are skipped).`,
        { product_id: level.product_id, lot_code: lot.lot_code },
      );
    left -= want;
  }
  left = take(usable, left);
  if (left > 0 && !p.location_id && !lot) {
    // Units a legacy path put on the level without a bin: the rest may come from them.
    const unplaced = read ? read.onHand.level + q - read.onHand.bins : await unplacedUnits(tx, level, q);
    if (unplaced >= left) {
      parts.push({ location_id: null, location_stock_id: null, lot_code: infoLot, expiration_date: null, delta: -left });
      left = 0;
    }
  }
  if (left > 0) throw await shortInBins(tx, level, q, q - left, all, usable, p);
  const fromRows = merge(parts.filter((x) => x.location_stock_id));
  if (read) read.takes.push(...fromRows);
  else if (fromRows.length) await takeFromRows(tx, fromRows);
  return [...fromRows, ...parts.filter((x) => !x.location_stock_id)];
}

/**
 * placeOnHand for units out of several levels of one warehouse by the pick rule alone (`p` names
 * no bin nor lot: a fulfill's lines that name none): ONE read of their bins and on_hand, and ONE
 * compare-and-set over the bin rows taken from, where placeOnHand runs two statements a level
 * (PostgreSQL: while the caller holds the levels' locks, every round trip counts). By product.
 */
export async function takeOutOfLevels(
  tx: TxClient,
  warehouseId: string,
  outs: Array<{ level: { product_id: string; warehouse_id: string }; q: number; p: Placement; infoLot: string | null }>,
): Promise<Map<string, BinPart[]>> {
  const stock = await stockOfProducts(
    tx,
    warehouseId,
    outs.map((o) => o.level.product_id),
  );
  const takes: BinPart[] = [];
  const out = new Map<string, BinPart[]>();
  for (const o of outs) {
    const read = stock.get(o.level.product_id) ?? { rows: [], onHand: { level: 0, bins: 0 } };
    const parts = await takeOut(tx, o.level, o.q, o.p, o.infoLot, { rows: inPickOrder(read.rows), onHand: read.onHand, takes });
    out.set(o.level.product_id, parts);
  }
  if (takes.length) await takeFromRows(tx, takes);
  return out;
}

/** One part per stock row (a row named by a lot line and by the pick order is taken from once). */
function merge(parts: BinPart[]): BinPart[] {
  const by = new Map<string, BinPart>();
  for (const x of parts) {
    const had = by.get(x.location_stock_id!);
    by.set(x.location_stock_id!, had ? { ...had, delta: had.delta + x.delta } : x);
  }
  return [...by.values()];
}

/** One compare-and-set UPDATE for every bin row taken from; a row that cannot give (never, under the level lock) is a 409. */
async function takeFromRows(tx: TxClient, parts: BinPart[]) {
  const n = await takeFromStock(
    tx,
    parts.map((x) => [x.location_stock_id!, -x.delta] as const),
  );
  if (n !== parts.length) throw conflict('Bin stock changed while it was taken from; retry.');
}

/** level on_hand (already moved by -q) + q - the sum of its bins: units without a bin. */
async function unplacedUnits(tx: TxClient, level: { product_id: string; warehouse_id: string }, q: number) {
  const on = await levelAndBinsOnHand(tx, level.product_id, level.warehouse_id);
  return on.level + q - on.bins;
}

async function shortInBins(
  tx: TxClient,
  level: { product_id: string; warehouse_id: string },
  q: number,
  got: number,
  all: StockRow[],
  usable: StockRow[],
  p: Placement,
) {
  const n = await refusalNames(tx, { products: [level.product_id], warehouses: [level.warehouse_id], locations: [p.location_id] });
  const what = n.product(level.product_id);
  const where = p.location_id ? ` from location ${n.location(p.location_id)}` : '';
  const lot = p.lot_code ? ` of lot ${p.lot_code}` : '';
  const held = all.reduce((n, r) => n + r.on_hand, 0) - usable.reduce((n, r) => n + r.on_hand, 0);
  const why = held ? ` (${held} more are in DAMAGED or QUARANTINE bins or expired lots; picking skips them)` : '';
  return conflict(`${n.warehouse(level.warehouse_id)} has only ${got} of ${q} units of ${what}${lot} to take${where}${why}.`, {
    product_id: level.product_id,
    requested: q,
    available_in_bins: got,
  });
}

/**
 * A fulfill's placements: the pick rule, and for lot-tracked products the lots the package's lines
 * name (units of those lines come from those lots). Lot codes on lines of products that are not
 * lot-tracked stay informational, as before. No query unless a line names a lot.
 */
export async function pickPlacements(
  tx: TxClient,
  lines: { product_id: string | null; lot_code: string | null; quantity: number; location_id?: string | null }[],
): Promise<Map<string, Placement>> {
  const withLot = lines.filter((l) => l.product_id && (l.lot_code || l.location_id));
  if (!withLot.length) return new Map();
  const tracked = await lotTrackedIds(tx, [...new Set(withLot.map((l) => l.product_id!))]);
  const out = new Map<string, Placement>();
  for (const l of withLot) {
    if (!tracked.has(l.product_id!) && !l.location_id) continue;
    const p = out.get(l.product_id!) ?? { pick: true, lots: [] };
    const lot = tracked.has(l.product_id!) ? (l.lot_code ?? '') : '';
    p.lots!.push({ lot_code: lot, quantity: l.quantity, ...(l.location_id ? { location_id: l.location_id } : {}) });
    out.set(l.product_id!, p);
  }
  return out;
}
