import type { TxClient } from '../../db/types.js';
import { hook } from '../hooks.js';
import { txNow } from '../clock.js';
import { DomainError } from '../errors.js';
import { BUCKETS, type Bucket, type MovementKind } from '../../contract/inventory-enums.js';
import { placeOnHand, takeOutOfLevels, type BinPart, type Placement } from './bins.js';
import { updateLevelGuarded, updateProductLevels, upsertLevel } from './store/levels.js';
import { insertMovements, type MovementRow } from './store/movements.js';
import { findProductSku } from './store/products.js';

/** More of a level became available, inside the change's transaction: backorders take it (orders). */
export const stockFreed = hook<[TxClient, LevelRef]>('inventory.stockFreed', { required: true });

export { BUCKETS, MOVEMENT_KINDS, type Bucket, type MovementKind } from '../../contract/inventory-enums.js';

// The one way an inventory level changes. applyToLevel() moves the level's buckets by the given
// deltas with a single conditional UPDATE (the guards are in its WHERE, so a concurrent change
// on another connection or replica can never drive a bucket negative or overcommit) and, only
// when that UPDATE matched, writes one immutable movement row per changed bucket in the same
// transaction. Hence, for every level and bucket, level = sum of its movements. A change of
// on_hand is also placed in bins (bins.ts: location_stock rows of product, bin and lot): its
// on_hand movement is split, one row per bin and lot it touched, each naming its stock row, so
// every bin equals the sum of its movements too and the level equals the sum of its bins.

export interface MovementInfo {
  kind: MovementKind;
  reason?: string | null;
  note?: string | null;
  reference_type?: string | null;
  reference_id?: string | null;
  actor_key_id?: string | null;
  lot_code?: string | null;
  expiration_date?: string | null;
  /** Which bin and lot on_hand changes in (issue 28); default: the default location in, pick order out. */
  placement?: Placement;
  /** The work order (kit build) these units were consumed or built by (issue 28). */
  work_order_id?: string | null;
}

export interface LevelRef {
  id: string;
  product_id: string;
  warehouse_id: string;
  sku?: string | null;
}

export type Deltas = Partial<Record<Bucket, number>>;

export interface Guards {
  /** committed + unavailable <= on_hand after the change (nothing promised that is not sellable). */
  sellable?: boolean;
  /** Compare-and-set: only when on_hand is still this figure (a count taken against a read). */
  onHandIs?: number;
}

/**
 * Applies `deltas` to the level if, after the change, every bucket stays >= 0 (and the
 * `sellable` guard holds when asked). Returns false, changing nothing, otherwise.
 */
export async function applyToLevel(
  tx: TxClient,
  level: LevelRef,
  deltas: Deltas,
  info: MovementInfo,
  guards: Guards = {},
): Promise<boolean> {
  const d = { on_hand: 0, committed: 0, unavailable: 0, on_order: 0, ...deltas };
  if (BUCKETS.every((b) => d[b] === 0) && guards.onHandIs === undefined) return true;
  // The app's clock (FOS_NOW): the daily storage snapshot reads stock at a day's end from these times.
  const now = txNow(tx);
  const count = await updateLevelGuarded(tx, level.id, d, { sellable: !!guards.sellable, onHandIs: guards.onHandIs }, now);
  if (count !== 1) return false;
  const sku = level.sku !== undefined ? level.sku : await findProductSku(tx, level.product_id);
  const bins = d.on_hand ? await placeOnHand(tx, { ...level, sku }, d.on_hand, placementOf(info), info.lot_code ?? null) : [];
  await insertMovements(tx, movementRows({ ...level, sku }, d, info, now, bins));
  // More of the level is available: waiting orders take it now, in this transaction (the orders
  // area answers: orders/backorders.ts).
  if (d.on_hand - d.committed - d.unavailable > 0) await stockFreed.emit(tx, level);
  return true;
}

/** Units out by the pick rule alone: no bin, lot nor lot lines named. */
const byPickRule = (p: Placement) => !p.location_id && !p.lot_code && !p.lots?.length;

/** Where on_hand changes: the info's placement; a receipt's lot expiry is the lot's. */
export const placementOf = (info: MovementInfo): Placement => ({
  ...(info.expiration_date ? { expiration_date: info.expiration_date } : {}),
  ...info.placement,
});

/** One immutable movement row per changed bucket of a level (on_hand: one per bin and lot it touched). */
export function movementRows(level: LevelRef, d: Required<Deltas>, info: MovementInfo, now: Date, bins: BinPart[] = []): MovementRow[] {
  const row = (bucket: Bucket, delta: number, bin?: BinPart): MovementRow => ({
    product_id: level.product_id,
    sku: level.sku ?? null,
    warehouse_id: level.warehouse_id,
    bucket,
    delta,
    kind: info.kind,
    reason: info.reason ?? null,
    note: info.note ?? null,
    reference_type: info.reference_type ?? null,
    reference_id: info.reference_id ?? null,
    actor_key_id: info.actor_key_id ?? null,
    lot_code: bin ? bin.lot_code : (info.lot_code ?? null),
    expiration_date: bin ? (bin.expiration_date ?? info.expiration_date ?? null) : (info.expiration_date ?? null),
    location_id: bin?.location_id ?? null,
    location_stock_id: bin?.location_stock_id ?? null,
    work_order_id: info.work_order_id ?? null,
    created_at: now,
  });
  return BUCKETS.filter((b) => d[b] !== 0).flatMap((bucket) =>
    bucket === 'on_hand' && bins.length ? bins.map((bin) => row(bucket, bin.delta, bin)) : [row(bucket, d[bucket])],
  );
}

/**
 * applyToLevel for several products of one warehouse at once (a fulfill ships several products):
 * ONE conditional UPDATE, keyed by product, moves each product's level by its own deltas (a CASE
 * per bucket) where every bucket stays >= 0, and returns the levels it moved (with the product's
 * SKU for the ledger); one INSERT writes all their movements. Returns the products it could not
 * move (no level in the warehouse, or a bucket would go negative); when any is refused nothing
 * is written, and the caller's transaction must fail.
 */
export async function applyToProductLevels(
  tx: TxClient,
  warehouseId: string,
  changes: Array<{ productId: string; deltas: Deltas }>,
  info: MovementInfo,
  placements?: Map<string, Placement>,
  opts: {
    /** The caller locked these levels already (PostgreSQL, in id order): no second lock statement. */
    levelsLocked?: boolean;
    /** PostgreSQL: the movements are written with the COMMIT (insertMovements), not while the level locks wait. */
    movementsAtCommit?: boolean;
    /** Units out by the pick rule alone: the bins of every level in one read (bins.ts takeOutOfLevels). */
    binsInOneRead?: boolean;
  } = {},
): Promise<string[]> {
  const all = changes.map((c) => ({ productId: c.productId, d: { on_hand: 0, committed: 0, unavailable: 0, on_order: 0, ...c.deltas } }));
  const moving = all.filter((c) => BUCKETS.some((b) => c.d[b] !== 0));
  if (!moving.length) return [];
  const now = txNow(tx); // as applyToLevel
  const products = moving.map((c) => c.productId);
  const moved: LevelRef[] = await updateProductLevels(tx, warehouseId, moving, now, opts.levelsLocked);
  if (moved.length !== moving.length) {
    const done = new Set(moved.map((r) => r.product_id));
    return products.filter((id) => !done.has(id));
  }
  const byProduct = new Map(moving.map((c) => [c.productId, c.d]));
  // Ledger rows in level-id order, as one INSERT.
  moved.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const placementFor = (productId: string) => placements?.get(productId) ?? placementOf(info);
  const bins = new Map<string, BinPart[]>();
  if (opts.binsInOneRead && moved.every((l) => byProduct.get(l.product_id)!.on_hand < 0 && byPickRule(placementFor(l.product_id)))) {
    const out = moved.map((level) => ({
      level,
      q: -byProduct.get(level.product_id)!.on_hand,
      p: placementFor(level.product_id),
      infoLot: info.lot_code ?? null,
    }));
    const taken = await takeOutOfLevels(tx, warehouseId, out);
    for (const level of moved) bins.set(level.id, taken.get(level.product_id)!);
  } else
    for (const level of moved) {
      const d = byProduct.get(level.product_id)!;
      if (d.on_hand) bins.set(level.id, await placeOnHand(tx, level, d.on_hand, placementFor(level.product_id), info.lot_code ?? null));
    }
  await insertMovements(
    tx,
    moved.flatMap((level) => movementRows(level, byProduct.get(level.product_id)!, info, now, bins.get(level.id))),
    { atCommit: opts.movementsAtCommit },
  );
  return [];
}

/** The level of a product at a warehouse, created empty when missing (race-safe upsert). */
export async function levelFor(tx: TxClient, productId: string, warehouseId: string): Promise<LevelRef> {
  const level = await upsertLevel(tx, productId, warehouseId);
  // Prisma reads the relation with a second statement; when the transaction expired in between
  // (a long wait on a hot row) it comes back empty instead of failing. Say so, retryably (503).
  if (!level?.product)
    throw new DomainError('unavailable', 'The transaction ran out of time waiting for a busy inventory level; retry in a moment.');
  return { id: level.id, product_id: level.product_id, warehouse_id: level.warehouse_id, sku: level.product.sku };
}
