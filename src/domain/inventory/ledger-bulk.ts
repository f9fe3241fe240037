import { statementsOf, type Statements } from '../../db/statements.js';
import type { Provider, TxClient } from '../../db/types.js';
import { BUCKETS, movementRows, placementOf, stockFreed, type Deltas, type LevelRef, type MovementInfo } from './ledger.js';
import { conflict } from '../errors.js';
import { txNow } from '../clock.js';
import { ensureDefaultLocation } from '../warehouses/index.js';
import { inPickOrder, placeOnHand, type BinPart } from './bins.js';
import type { StockRow } from './store/bins.js';
import {
  insertLevels,
  levelIdsOf,
  lockLevels,
  productsWaiting,
  stockRowsOf,
  takeFromStocks,
  updateLevels,
  upsertStocks,
} from './store/bulk.js';
import type { LevelUpdateRow } from './store/bulk.js';
import { insertMovements } from './store/movements.js';
import { lotTrackedIds } from './store/products.js';

// applyToLevel for many levels at once (issue 29 item 3: receipts, purchase orders and adjustments
// of 1,000 lines): the same guards, ledger rows, bin rows and backorder filling, in a few
// statements instead of a few per line. Levels are locked in id order (PostgreSQL: one SELECT …
// FOR UPDATE; SQLite: the caller's first write holds the database's write lock), then ONE
// UPDATE … FROM (rows) moves every level by its own deltas where every guard holds, units in go
// to their bins with one upsert, units out leave theirs by the pick order with one read and one
// UPDATE, and the movements are written in bulk (store/movements.ts). The level and bin statements
// take their rows as one JSON parameter, prepared through the driver (store/bulk.ts).

export interface LevelChange {
  level: LevelRef & { sku: string | null };
  deltas: Deltas;
  info: MovementInfo;
  /** committed + unavailable <= on_hand after the change. */
  sellable?: boolean;
  /** Compare-and-set: only when on_hand is still this figure. */
  onHandIs?: number;
}

const full = (d: Deltas) => ({ on_hand: 0, committed: 0, unavailable: 0, on_order: 0, ...d });

/** The levels of these products at the warehouse, created empty when missing (one read; an insert and a read for the missing). */
export async function levelsFor(tx: TxClient, provider: Provider, warehouseId: string, productIds: string[]): Promise<Map<string, string>> {
  const st = statementsOf(tx, provider);
  const ids = [...new Set(productIds)].sort();
  const found = await levelIdsOf(st, warehouseId, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (!missing.length) return found;
  // Product order: two requests creating the same levels take their index entries in one order.
  await insertLevels(st, warehouseId, missing, new Date());
  for (const [productId, id] of await levelIdsOf(st, warehouseId, missing)) found.set(productId, id);
  return found;
}

/**
 * The levels of these products at these warehouses, created empty where missing, and (PostgreSQL)
 * locked in id order before the caller changes them one by one in whatever order its lines come:
 * the global order of levels, so two writers of the same levels never wait on each other in a
 * cycle (transfers, moves of fulfillment orders). Returns the level of (warehouse, product).
 */
export async function lockedLevelsFor(
  tx: TxClient,
  provider: Provider,
  wanted: Array<{ warehouseId: string; productIds: string[] }>,
): Promise<(warehouseId: string, productId: string) => LevelRef> {
  const found = new Map<string, Map<string, string>>();
  for (const w of [...wanted].sort((a, b) => (a.warehouseId < b.warehouseId ? -1 : 1))) {
    const ids = await levelsFor(tx, provider, w.warehouseId, w.productIds);
    found.set(w.warehouseId, new Map([...(found.get(w.warehouseId) ?? []), ...ids]));
  }
  await lockLevels(statementsOf(tx, provider), [...new Set([...found.values()].flatMap((m) => [...m.values()]))].sort());
  return (warehouseId, productId) => {
    const id = found.get(warehouseId)?.get(productId);
    if (!id) throw new Error(`lockedLevelsFor: no level of ${productId} at ${warehouseId} was asked for`);
    return { id, product_id: productId, warehouse_id: warehouseId };
  };
}

/** PostgreSQL: the levels' row locks, in id order (SQLite: the transaction's first write holds the database). */
export const lockLevelIds = (tx: TxClient, provider: Provider, ids: string[]) => lockLevels(statementsOf(tx, provider), ids);

/**
 * Applies every change (one per level) or none: returns the index of the first change, in level id
 * order, whose guards refused it (nothing is written then, and the caller's transaction must
 * fail), or -1 when all were applied with their movements, bins and backorder fills.
 */
export async function applyToLevels(tx: TxClient, provider: Provider, changes: LevelChange[]): Promise<number> {
  if (new Set(changes.map((c) => c.level.id)).size !== changes.length) throw new Error('applyToLevels: one change per level');
  const order = changes.map((_, i) => i).sort((a, b) => (changes[a].level.id < changes[b].level.id ? -1 : 1));
  const moving = order.filter((i) => BUCKETS.some((b) => full(changes[i].deltas)[b] !== 0) || changes[i].onHandIs !== undefined);
  if (!moving.length) return -1;
  const st = statementsOf(tx, provider);
  await lockLevels(
    st,
    moving.map((i) => changes[i].level.id),
  );
  const now = txNow(tx); // the movements' time, by the app's clock (ledger.ts applyToLevel)
  const values = moving.map((i): LevelUpdateRow => {
    const c = changes[i];
    const d = full(c.deltas);
    return [c.level.id, d.on_hand, d.committed, d.unavailable, d.on_order, !!c.sellable, c.onHandIs ?? null];
  });
  const moved = await updateLevels(st, values, now);
  const refused = moving.find((i) => !moved.has(changes[i].level.id));
  if (refused !== undefined) return refused;
  const bins = await placeAll(
    tx,
    st,
    moving.map((i) => changes[i]),
  );
  const rows = moving.flatMap((i) => {
    const c = changes[i];
    return movementRows(c.level, full(c.deltas), c.info, now, bins.get(c.level.id));
  });
  await insertMovements(tx, rows);
  await fillAll(
    tx,
    st,
    moving.map((i) => changes[i]),
  );
  return -1;
}

/** Where each change's on_hand went: units in, one upsert for all; units out, from bins in pick order per level. */
async function placeAll(tx: TxClient, st: Statements, changes: LevelChange[]): Promise<Map<string, BinPart[]>> {
  const out = await takeAll(
    tx,
    st,
    changes.filter((c) => (c.deltas.on_hand ?? 0) < 0),
  );
  const incoming = changes.filter((c) => (c.deltas.on_hand ?? 0) > 0);
  if (!incoming.length) return out;
  const withLot = incoming.filter((c) => placementOf(c.info).lot_code ?? c.info.lot_code);
  const lotProducts = withLot.map((c) => c.level.product_id);
  const tracked = lotProducts.length ? await lotTrackedIds(tx, lotProducts) : new Set<string>();
  const now = new Date();
  const rows = [];
  for (const c of incoming) {
    const p = placementOf(c.info);
    const given = p.lot_code ?? c.info.lot_code ?? null;
    const lotTracked = given !== null && tracked.has(c.level.product_id);
    rows.push({
      c,
      given,
      location_id: p.location_id ?? (await ensureDefaultLocation(tx, c.level.warehouse_id)),
      lot: lotTracked ? given! : '',
      exp: lotTracked ? (p.expiration_date ?? null) : null,
      fallbackExp: p.expiration_date ?? null,
    });
  }
  const stored = await upsertStocks(
    st,
    rows.map((r) => ({
      product_id: r.c.level.product_id,
      warehouse_id: r.c.level.warehouse_id,
      location_id: r.location_id,
      lot_code: r.lot,
      expiration_date: r.exp,
      quantity: r.c.deltas.on_hand!,
    })),
    now,
  );
  // One row per product here (one change per level, one bin per change), so the product names it.
  const byProduct = new Map(stored.map((s) => [s.product_id, s]));
  for (const r of rows) {
    const s = byProduct.get(r.c.level.product_id)!;
    out.set(r.c.level.id, [
      {
        location_id: r.location_id,
        location_stock_id: s.id,
        lot_code: r.given,
        expiration_date: s.expiration_date ?? r.fallbackExp,
        delta: r.c.deltas.on_hand!,
      },
    ]);
  }
  return out;
}

/** A change taking units out by the pick order alone: no bin, lot or picking rule named. */
const byPickOrder = (c: LevelChange) => {
  const p = placementOf(c.info);
  return !p.location_id && !p.lot_code && !p.lots?.length && !p.pick && !c.info.lot_code;
};

/**
 * Units out: for changes taking by the pick order alone, the bins of all their products read in
 * one statement and taken from in one compare-and-set UPDATE (the levels are locked, so the read
 * is what every earlier writer committed); any other change, and one its bins cannot cover
 * (unplaced units, or the 409 saying what is short), level by level through bins.ts.
 */
async function takeAll(tx: TxClient, st: Statements, changes: LevelChange[]): Promise<Map<string, BinPart[]>> {
  const out = new Map<string, BinPart[]>();
  const key = (warehouseId: string, productId: string) => `${warehouseId} ${productId}`;
  const rows = new Map<string, StockRow[]>();
  const bulk = changes.filter(byPickOrder);
  for (const warehouseId of new Set(bulk.map((c) => c.level.warehouse_id))) {
    const ids = bulk.filter((c) => c.level.warehouse_id === warehouseId).map((c) => c.level.product_id);
    for (const r of await stockRowsOf(st, warehouseId, ids)) {
      const k = key(warehouseId, r.product_id);
      rows.set(k, [...(rows.get(k) ?? []), r]);
    }
  }
  const takes: Array<[string, number]> = [];
  for (const c of changes) {
    let want = -c.deltas.on_hand!;
    const parts: BinPart[] = [];
    if (byPickOrder(c)) {
      for (const r of inPickOrder(rows.get(key(c.level.warehouse_id, c.level.product_id)) ?? [])) {
        if (!want) break;
        const n = Math.min(want, r.on_hand);
        parts.push({
          location_id: r.location_id,
          location_stock_id: r.id,
          lot_code: r.lot_code || null,
          expiration_date: r.expiration_date,
          delta: -n,
        });
        want -= n;
      }
    }
    if (want > 0) {
      out.set(c.level.id, await placeOnHand(tx, c.level, c.deltas.on_hand!, placementOf(c.info), c.info.lot_code ?? null));
      continue;
    }
    takes.push(...parts.map((x): [string, number] => [x.location_stock_id!, -x.delta]));
    out.set(c.level.id, parts);
  }
  if (takes.length && (await takeFromStocks(st, takes, new Date())) !== takes.length) {
    throw conflict('Bin stock changed while it was taken from; retry.');
  }
  return out;
}

/** Waiting orders take what became available: one query finds the products anyone waits for. */
async function fillAll(tx: TxClient, st: Statements, changes: LevelChange[]) {
  const freed = changes.filter((c) => {
    const d = full(c.deltas);
    return d.on_hand - d.committed - d.unavailable > 0;
  });
  if (!freed.length) return;
  const waiting = await productsWaiting(
    st,
    freed.map((c) => c.level.product_id),
  );
  for (const c of freed) if (waiting.has(c.level.product_id)) await stockFreed.emit(tx, c.level);
}
