import { statementsOf } from '../../db/statements.js';
import { transaction } from '../../db/tx.js';
import type { Db, StorageRun } from '../../db/types.js';
import { startOfLocalDay, localDay } from '../../shared/time-zones.js';
import { conflict, invalid, notFound } from '../errors.js';
import { addDays, isDay } from '../charges/index.js';
import { billSnapshots } from './storage-charges.js';
import { billedAmount, findChargeContext, findRun, findWarehouses, lastRunDays } from './store/records.js';
import { claimRun, insertSnapshots, recordCounts, type RunInput } from './store/storage.js';

// Daily storage (docs/billing.md "Storage"): a warehouse's day is taken once its local midnight
// has passed, by the schedule (src/server/workers/storage.ts) or an operator. Exactly once across
// replicas and restarts: the run row's unique (warehouse, date) is claimed first in the same
// transaction as the snapshots and their charges, so a racer claims nothing and a crash leaves
// nothing behind for the next run.

/** Test seam: runs inside the day's transaction after its charges (a crash there must leave nothing). */
export const storageHooks: { afterCharges?: (runId: string) => void | Promise<void> } = {};

/** The schedule back-fills at most this many missed days per warehouse (older ones: an operator's run). */
export const MAX_BACKFILL_DAYS = 31;

interface WarehouseRow {
  id: string;
  team_id: string;
  name: string;
  time_zone: string;
  created_at: Date;
}

export interface DayResult {
  warehouse_id: string;
  warehouse_name: string;
  date: string;
  time_zone: string;
  created: boolean;
  run: StorageRun;
  /** Sum of the run's STORAGE charges (all currencies added; a card has one). */
  amount: number;
}

/** When `date` ends in the warehouse's zone: its next day's local midnight. */
export const dayEndsAt = (date: string, zone: string) => startOfLocalDay(addDays(date, 1), zone);

/**
 * The day's last instant in the warehouse's zone: the rate-card version in force then prices its
 * storage. Not dayEndsAt itself: a version effective from the next midnight (a new price from the
 * 1st) is in force at that instant, and would price the day before it.
 */
export const storagePricedAt = (date: string, zone: string) => new Date(dayEndsAt(date, zone).getTime() - 1);

/** Takes the warehouse's day (snapshots + charges) unless it was taken; either way returns its run. */
export async function takeStorageDay(db: Db, w: WarehouseRow, date: string, source: RunInput['source'], now: Date): Promise<DayResult> {
  const input: RunInput = {
    team_id: w.team_id,
    warehouse_id: w.id,
    date,
    time_zone: w.time_zone,
    cutoff_at: dayEndsAt(date, w.time_zone),
    source,
  };
  const created = await transaction(db, async (tx) => {
    const st = statementsOf(tx);
    const runId = await claimRun(st, input, now);
    if (!runId) return false;
    const snaps = await insertSnapshots(st, runId, input, now);
    const merchants = [...new Set(snaps.map((s) => s.merchant_team_id))];
    const types = [...new Set(snaps.map((s) => s.location_type_id).filter(Boolean))];
    const [delegations, typeRows] = await findChargeContext(tx, w.team_id, merchants, types);
    const ctx = {
      warehouse: w,
      date,
      cutoff: input.cutoff_at,
      pricedAt: storagePricedAt(date, w.time_zone),
      delegations: new Map(delegations.map((d) => [d.merchant_team_id, d])),
      typeNames: new Map(typeRows.map((t) => [t.id, t.name])),
    };
    const charges = await billSnapshots(tx, st, ctx, snaps, now);
    await storageHooks.afterCharges?.(runId);
    await recordCounts(st, runId, snaps.length, charges.length);
    return true;
  });
  const run = await findRun(db, w.id, date);
  const amount = await billedAmount(db, run.id);
  return {
    warehouse_id: w.id,
    warehouse_name: w.name,
    date,
    time_zone: run.time_zone,
    created,
    run,
    amount: Math.round(amount * 100) / 100,
  };
}

/**
 * POST /v1/ops/billing/storage-runs: an operator takes a day for the team's warehouses (or one).
 * The day must have ended in each warehouse's zone; a day taken before answers what exists.
 */
export async function runStorageForDate(db: Db, teamId: string, input: { date: string; warehouse_id?: string }, now: Date) {
  if (!isDay(input.date)) throw invalid('body.date', 'must be a date YYYY-MM-DD');
  const where = { team_id: teamId, ...(input.warehouse_id ? { id: input.warehouse_id } : {}) };
  const warehouses = await findWarehouses(db, where);
  if (input.warehouse_id && !warehouses.length) throw notFound('Warehouse', input.warehouse_id);
  const open = warehouses.filter((w) => dayEndsAt(input.date, w.time_zone) > now);
  if (open.length) {
    const names = open.map((w) => `${w.name} (${w.time_zone})`).join(', ');
    throw conflict(`${input.date} has not ended yet in ${names}; storage is taken at the end of a warehouse's day.`);
  }
  const runs: DayResult[] = [];
  for (const w of warehouses) runs.push(await takeStorageDay(db, w, input.date, 'API', now));
  return { date: input.date, runs };
}

/**
 * The schedule: for every warehouse, each local day that has ended since its last run (the day
 * before `now` on first sight, never before the warehouse existed), at most MAX_BACKFILL_DAYS back.
 * A warehouse made after `now` (a clock set back) counts as first seen now.
 * A warehouse whose day fails is left for the next run and the others go on: each failure goes to
 * `onFailure` (the worker logs it), or without one the first is thrown at the end.
 */
export async function runDueStorage(db: Db, now: Date, onFailure?: (warehouseId: string, err: unknown) => void): Promise<DayResult[]> {
  const taken: DayResult[] = [];
  const failures: unknown[] = [];
  const warehouses = await findWarehouses(db);
  const last = await lastRunDays(db);
  for (const w of warehouses) {
    const yesterday = addDays(localDay(now, w.time_zone), -1);
    const floor = addDays(yesterday, -(MAX_BACKFILL_DAYS - 1));
    const previous = last.get(w.id);
    let from = previous ? addDays(previous, 1) : yesterday;
    if (from < floor) from = floor;
    // Made after `now` (FOS_NOW set back, or `fos admin` made it by the real clock): its creation
    // says nothing of the simulated calendar, and as a floor it would stop every simulated day.
    const born = w.created_at <= now ? localDay(w.created_at, w.time_zone) : null;
    if (born && from < born) from = born;
    try {
      for (let d = from; d <= yesterday; d = addDays(d, 1)) {
        const r = await takeStorageDay(db, w, d, 'SCHEDULE', now);
        if (r.created) taken.push(r);
      }
    } catch (err) {
      if (onFailure) onFailure(w.id, err);
      else failures.push(err);
    }
  }
  if (failures.length) throw failures[0];
  return taken;
}
