import { randomUUID } from 'node:crypto';
import type { Db, Provider, TxClient } from '../../db/types.js';
import { adjustInBulk } from './adjust-bulk.js';
import { transaction } from '../../db/tx.js';
import { once, sweepOldAnswers, type Answer } from '../idempotency/index.js';
import { conflict, DomainError } from '../errors.js';
import { refusalNames } from '../names/index.js';
import { enqueueEvent } from '../events/index.js';
import type { Caller } from '../products/index.js';
import { reachableTeamIds } from '../products/index.js';
import { applyToLevel, levelFor, type Deltas, type LevelRef, type MovementInfo } from './ledger.js';
import { claimWarehouse } from '../warehouses/index.js';
import { resolveProducts, uniqueProducts, type ProductRef } from './products.js';
import { levelFigures, type LevelFigures } from './figures.js';
import type { AdjustmentReason } from '../../contract/inventory-enums.js';
import { resolveLocation } from '../locations/index.js';
import { landing, suggestPutaway, type Into } from '../locations/index.js';
import { lockLevel } from './moves.js';
import { binOnHand, clearCountRequest } from './store/bins.js';
import { findLevel, findLevelRefs, findLevels } from './store/levels.js';

// Inventory adjustments and cycle counts (issue 10 item 4): one request, one transaction, up to
// 1,000 lines, each through the ledger. What a line does depends on the reason:
//   CYCLE_COUNT, CORRECTION  delta: on_hand += delta;  counted: on_hand := counted
//   FOUND (delta > 0), LOST (delta < 0)                          on_hand += delta
//   DAMAGED, QUARANTINE  delta > 0: set units aside (unavailable += delta)
//                        delta < 0: write set-aside units off (on_hand and unavailable -= |delta|)
//   RELEASE_QUARANTINE   delta > 0: set-aside units back to sellable (unavailable -= delta)
// Sellable stock (on_hand - committed - unavailable) never goes below zero unless `force`, and no
// bucket ever goes below zero. A count is compare-and-set against the on_hand it was computed
// from, so a fulfill racing the count is applied first and the count still lands exactly.

const COUNT_REASONS: readonly AdjustmentReason[] = ['CYCLE_COUNT', 'CORRECTION'];

export interface AdjustmentLine extends ProductRef {
  delta?: number;
  counted?: number;
  /** At a location (issue 28): the lot counted or adjusted. */
  lot_code?: string;
  expiration_date?: string;
}

export interface AdjustmentInput {
  warehouse_id: string;
  reason: AdjustmentReason;
  note?: string;
  force?: boolean;
  /** Check and compute everything, then roll back: the result says what the request would do. */
  dry_run?: boolean;
  /** A bin (id, name or barcode) of the warehouse: counts and deltas apply there (default: the pick order out, the default location in). */
  location?: string;
  lines: AdjustmentLine[];
}

export interface AdjustmentResult {
  id: string;
  warehouse_id: string;
  warehouse_name: string;
  reason: AdjustmentReason;
  note: string | null;
  force: boolean;
  actor_key_id: string;
  created_at: Date;
  dry_run?: true;
  lines: (LevelFigures & { product_id: string; sku: string | null; delta: number; counted: number | null; before: LevelFigures } & Into)[];
}

/** Whether a line can add units to on_hand (a count may: its delta is known only when it is applied). */
const mayAdd = (reason: AdjustmentReason, l: AdjustmentLine, i: number) =>
  l.counted !== undefined || (deltasFor(reason, l.delta!, i).on_hand ?? 0) > 0;

/**
 * A level's figures before the line: after minus what the line moved. Exact: the level's row is
 * written (locked) by this transaction, so nothing else changed it in between.
 */
const beforeOf = (l: Parameters<typeof levelFigures>[0], moved: Deltas) =>
  levelFigures({
    on_hand: l.on_hand - (moved.on_hand ?? 0),
    committed: l.committed - (moved.committed ?? 0),
    unavailable: l.unavailable - (moved.unavailable ?? 0),
    on_order: l.on_order - (moved.on_order ?? 0),
  });

/** Carries a dry run's result out of its transaction, which it rolls back. */
class DryRun extends Error {
  constructor(readonly result: AdjustmentResult) {
    super('dry run');
  }
}

const lineError = (i: number, message: string) =>
  new DomainError('validation-failed', `lines[${i}]: ${message}`, { errors: [{ path: `lines[${i}]`, message }] });

/** The buckets a `delta` line moves for its reason (checked: sign rules per reason). */
export function deltasFor(reason: AdjustmentReason, delta: number, i: number): Deltas {
  if (!Number.isInteger(delta) || delta === 0) throw lineError(i, 'delta must be a non-zero whole number');
  switch (reason) {
    case 'FOUND':
      if (delta < 0) throw lineError(i, 'FOUND adds units: delta must be positive (use LOST to remove)');
      return { on_hand: delta };
    case 'LOST':
      if (delta > 0) throw lineError(i, 'LOST removes units: delta must be negative (use FOUND to add)');
      return { on_hand: delta };
    case 'DAMAGED':
    case 'QUARANTINE':
      return delta > 0 ? { unavailable: delta } : { on_hand: delta, unavailable: delta };
    case 'RELEASE_QUARANTINE':
      if (delta < 0) throw lineError(i, 'RELEASE_QUARANTINE returns set-aside units: delta must be positive');
      return { unavailable: -delta };
    default:
      return { on_hand: delta };
  }
}

/** Checks every line's shape before anything is written. */
function checkLines(input: AdjustmentInput) {
  input.lines.forEach((l, i) => {
    const has = [l.delta, l.counted].filter((v) => v !== undefined).length;
    if (has !== 1) throw lineError(i, 'give exactly one of delta and counted');
    if (l.counted !== undefined && !COUNT_REASONS.includes(input.reason)) {
      throw lineError(i, `counted is for ${COUNT_REASONS.join(' and ')}; with ${input.reason} give a delta`);
    }
    if (l.delta !== undefined) deltasFor(input.reason, l.delta, i);
  });
}

/**
 * With an idempotency key, the adjustment is applied once per key: a repeat (a retry, an import
 * re-run) answers what the first request answered, without touching a level.
 */
export async function adjustInventory(
  db: Db,
  caller: Caller & { keyId: string },
  input: AdjustmentInput,
  idempotencyKey?: string,
): Promise<Answer<AdjustmentResult>> {
  checkLines(input);
  // A dry run changes nothing, so it neither claims nor answers an idempotency key.
  const scope =
    idempotencyKey && !input.dry_run
      ? { teamId: caller.teamId, key: idempotencyKey, operation: 'createInventoryAdjustment', body: input }
      : undefined;
  if (scope) sweepOldAnswers(db);
  try {
    return await transaction(db, (tx) => once(tx, scope, 201, () => applyAdjustment(tx, db.provider, caller, input)));
  } catch (err) {
    if (err instanceof DryRun) return { status: 201, body: err.result, replayed: false };
    throw err;
  }
}

async function applyAdjustment(
  tx: TxClient,
  provider: Provider,
  caller: Caller & { keyId: string },
  input: AdjustmentInput,
): Promise<AdjustmentResult> {
  const warehouse = await claimWarehouse(tx, input.warehouse_id, caller.teamId);
  const products = await resolveProducts(tx, await reachableTeamIds(tx, caller), input.lines);
  uniqueProducts(products);
  const id = randomUUID();
  const info = {
    reason: input.reason,
    note: input.note ?? null,
    reference_type: 'adjustment',
    reference_id: id,
    actor_key_id: caller.keyId,
  };
  const bin = input.location ? await resolveLocation(tx, caller.teamId, input.location, warehouse.id, 'location') : null;
  const at = (line: AdjustmentLine) =>
    bin
      ? { ...info, placement: { location_id: bin.id, lot_code: line.lot_code ?? null, expiration_date: line.expiration_date ?? null } }
      : info;
  // Units added without a named bin go where putaway suggests (docs/floor.md): one call for all lines.
  const adding = bin ? [] : products.filter((_, i) => mayAdd(input.reason, input.lines[i], i)).map((p) => p.id);
  const putaway = await suggestPutaway(tx, warehouse.id, adding);
  const { levels, applied: moved } = bin
    ? await lineByLine(tx, warehouse.id, products, input, at).then(async (r) => {
        // A count of the bin is the count a short pick asked for (docs/floor.md): the mark goes.
        if (input.lines.some((l) => l.counted !== undefined)) await clearCountRequest(tx, bin.id);
        return r;
      })
    : await adjustInBulk(
        tx,
        {
          provider,
          warehouseId: warehouse.id,
          reason: input.reason,
          force: input.force ?? false,
          info,
          lines: input.lines,
          products,
          deltasFor,
          putaway,
        },
        (level, i) => refused(tx, level, i, input.force ?? false),
      );
  const applied = moved.map((m, i) => ({ ...m, ...landing(bin, m.delta > 0 ? putaway.get(products[i].id) : undefined) }));
  const levelIds = levels.map((l) => l.id);
  const after = new Map((await findLevels(tx, levelIds)).map((l) => [l.id, l]));
  const out: AdjustmentResult = {
    id,
    warehouse_id: warehouse.id,
    warehouse_name: warehouse.name,
    reason: input.reason,
    note: input.note ?? null,
    force: input.force ?? false,
    actor_key_id: caller.keyId,
    created_at: new Date(),
    lines: products.map((p, i) => ({
      product_id: p.id,
      sku: p.sku,
      ...applied[i],
      ...levelFigures(after.get(levels[i].id)!),
      before: beforeOf(
        after.get(levels[i].id)!,
        input.lines[i].counted !== undefined ? { on_hand: applied[i].delta } : deltasFor(input.reason, applied[i].delta, i),
      ),
    })),
  };
  // A dry run rolls the whole transaction back (DryRun is caught outside it) and answers what it would have done.
  if (input.dry_run) throw new DryRun({ ...out, dry_run: true });
  await enqueueEvent(tx, caller.teamId, 'inventory.adjusted', JSON.parse(JSON.stringify(out)));
  return out;
}

/** The lines one by one in level id order: counts of one bin (countBin) read the bin under the level's lock. */
async function lineByLine(
  tx: TxClient,
  warehouseId: string,
  products: { id: string; sku: string | null }[],
  input: AdjustmentInput,
  at: (line: AdjustmentLine) => Omit<MovementInfo, 'kind'>,
) {
  const bin = at(input.lines[0]).placement!.location_id!;
  const levels = await levelsOf(tx, warehouseId, products);
  const applied: { delta: number; counted: number | null }[] = [];
  // Levels are changed in id order, as everywhere, so two requests never wait on each other in a cycle.
  const order = levels.map((l, i) => i).sort((a, b) => (levels[a].id < levels[b].id ? -1 : 1));
  for (const i of order) {
    const line = input.lines[i];
    const level = levels[i];
    if (line.counted !== undefined) {
      const delta = await countBin(tx, level, bin, line, input.force ?? false, at(line), i);
      applied[i] = { delta, counted: line.counted };
      continue;
    }
    const deltas = deltasFor(input.reason, line.delta!, i);
    const shrinksSellable = (deltas.on_hand ?? 0) - (deltas.unavailable ?? 0) < 0;
    if (!(await applyToLevel(tx, level, deltas, { ...at(line), kind: 'ADJUSTED' }, { sellable: shrinksSellable && !input.force }))) {
      throw await refused(tx, level, i, input.force ?? false);
    }
    applied[i] = { delta: line.delta!, counted: null };
  }
  return { levels, applied };
}

/** The level of each line's product at the warehouse, created empty when missing. */
async function levelsOf(tx: TxClient, warehouseId: string, products: { id: string; sku: string | null }[]): Promise<LevelRef[]> {
  const productIds = products.map((p) => p.id);
  const existing = new Map((await findLevelRefs(tx, warehouseId, productIds)).map((l) => [l.product_id, l]));
  const out: LevelRef[] = [];
  for (const p of products) {
    const l = existing.get(p.id) ?? (await levelFor(tx, p.id, warehouseId));
    out.push({ id: l.id, product_id: p.id, warehouse_id: warehouseId, sku: p.sku });
  }
  return out;
}

/**
 * A count of one bin (and lot, when given): the level is locked first, so the bin read is what
 * every earlier writer committed and no bin change of the product can slip in before the write.
 */
async function countBin(
  tx: TxClient,
  level: LevelRef,
  locationId: string,
  line: AdjustmentLine,
  force: boolean,
  info: Omit<MovementInfo, 'kind'>,
  i: number,
): Promise<number> {
  await lockLevel(tx, level.id);
  const delta = line.counted! - (await binOnHand(tx, level.product_id, locationId, line.lot_code));
  if (delta === 0) return 0;
  if (!(await applyToLevel(tx, level, { on_hand: delta }, { ...info, kind: 'COUNTED' }, { sellable: delta < 0 && !force })))
    throw await refused(tx, level, i, force);
  return delta;
}

async function refused(tx: TxClient, level: LevelRef, i: number, force: boolean) {
  const l = await findLevel(tx, level.id);
  const n = await refusalNames(tx, { products: [level.product_id], warehouses: [l.warehouse_id] });
  const what = `${n.product(level.product_id)} at ${n.warehouse(l.warehouse_id)}`;
  const figures = { on_hand: l.on_hand, committed: l.committed, unavailable: l.unavailable, on_order: l.on_order };
  return force
    ? conflict(`lines[${i}]: ${what} cannot go below zero (on_hand ${l.on_hand}, unavailable ${l.unavailable}).`, {
        line: i,
        level: figures,
      })
    : conflict(
        `lines[${i}]: ${what} would have less on hand than is committed or set aside (on_hand ${l.on_hand}, committed ${l.committed}, unavailable ${l.unavailable}); pass force: true to record it anyway.`,
        { line: i, level: figures },
      );
}
