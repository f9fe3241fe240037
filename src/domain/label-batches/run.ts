import type { Db } from '../../db/types.js';
import { transaction } from '../../db/tx.js';
import type { OutboundPolicy } from '../carrier-integrations/index.js';
import { DomainError } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { labelPackage, type LabelInput } from '../fulfillment/index.js';
import type { RateStrategy } from '../../contract/rate-strategy.js';
import * as store from './store.js';

// The runner of label batches. A batch is taken with a lease (a compare-and-set on lease_until),
// renewed while it works, so one process works a batch at a time and another resumes it after a
// crash. Each package goes through labelPackage, which never buys a package's label twice (its
// purchase claim): a package labelled meanwhile is SKIPPED, a purchase still in flight elsewhere
// is left PENDING for the next turn. Each item's outcome is a compare-and-set from PENDING, so
// two runners can never record two outcomes.

/** How long a runner holds a batch without renewing it (FOS_LABEL_BATCH_LEASE_MS, a test hook; 60 s). */
const leaseMs = () => Number(process.env.FOS_LABEL_BATCH_LEASE_MS) || 60_000;
/** Packages labelled at once per batch (carrier calls in flight); FOS_LABEL_BATCH_CONCURRENCY overrides. */
export const BATCH_CONCURRENCY = Math.max(1, Math.min(16, Number(process.env.FOS_LABEL_BATCH_CONCURRENCY) || 4));

type Batch = NonNullable<Awaited<ReturnType<typeof store.findBatch>>>;
type Bought = {
  tracking_number: string | null;
  carrier_id: string | null;
  service_id: string | null;
  price: number | null;
  currency: string | null;
};
type Outcome = { status: 'BOUGHT' | 'FAILED' | 'SKIPPED'; message: string | null; label?: Bought } | null;

export interface RunOptions {
  policy?: OutboundPolicy;
  /** Test hook: stop (as a crash would) after this many outcomes were recorded. */
  stopAfter?: number;
}

/** Takes the batch if nobody holds it (or its holder's lease ran out). */
async function take(db: Db, id: string): Promise<Batch | null> {
  const now = new Date();
  const { count } = await store.takeLease(db.prisma, id, now, new Date(now.getTime() + leaseMs()));
  return count ? store.findBatch(db.prisma, id) : null;
}

const renew = (db: Db, id: string) => store.setLease(db.prisma, id, new Date(Date.now() + leaseMs()));

/** The batch's strategy (with its options) over the package's; a package with none buys the CHEAPEST. */
function batchRates(b: Batch, own: string | null): Pick<LabelInput, 'rate_strategy' | 'rate_within_days' | 'rate_exclude_carrier_ids'> {
  const exclude = Array.isArray(b.rate_exclude_carrier_ids) ? (b.rate_exclude_carrier_ids as string[]) : [];
  return {
    ...(b.rate_strategy
      ? { rate_strategy: b.rate_strategy as RateStrategy, ...(b.rate_within_days ? { rate_within_days: b.rate_within_days } : {}) }
      : own
        ? {}
        : { rate_strategy: 'CHEAPEST' as const }),
    ...(exclude.length ? { rate_exclude_carrier_ids: exclude } : {}),
  };
}

async function labelOne(db: Db, b: Batch, packageId: string, policy: OutboundPolicy): Promise<Outcome> {
  const pkg = await store.findPackageState(db.prisma, b.team_id, packageId);
  if (!pkg) return { status: 'SKIPPED', message: 'the package no longer exists' };
  if (pkg.status !== 'PENDING') return { status: 'SKIPPED', message: `the package is ${pkg.status}` };
  if (pkg.shipment_status) return labelled(db, b, packageId);
  try {
    const view = await labelPackage(
      db,
      b.team_id,
      packageId,
      {
        ...batchRates(b, pkg.rate_strategy),
        ...(b.carrier_id ? { carrier_id: b.carrier_id } : {}),
        ...(b.service_id ? { service_id: b.service_id } : {}),
        label_format: b.label_format === 'ZPL' ? 'ZPL' : 'PDF',
      },
      b.origin,
      policy,
    );
    const l = view.shipping_label;
    const label = { tracking_number: view.tracking_number, carrier_id: view.carrier_id, service_id: view.service_id };
    return { status: 'BOUGHT', message: null, label: { ...label, price: l?.price ?? null, currency: l?.currency ?? null } };
  } catch (err) {
    // A purchase live elsewhere (503): its outcome is not known yet; the next turn settles it.
    if (err instanceof DomainError && err.kind === 'unavailable') return null;
    if (err instanceof DomainError && /already has a shipping label|cannot be labelled/.test(err.message))
      return { status: 'SKIPPED', message: err.message };
    return { status: 'FAILED', message: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * A package already labelled: labelled since the batch began (this batch's purchase, cut short by
 * a crash and settled by the purchase recovery, or another request) counts as BOUGHT, so its label
 * is in the batch's file; labelled before, SKIPPED (printed already).
 */
async function labelled(db: Db, b: Batch, packageId: string): Promise<Outcome> {
  const l = await store.findPackageLabel(db.prisma, packageId);
  if (!l || l.voided_at || l.created_at < b.created_at) return { status: 'SKIPPED', message: 'the package already has a label' };
  return {
    status: 'BOUGHT',
    message: null,
    label: { tracking_number: l.tracking_code, carrier_id: l.carrier_id, service_id: l.service_id, price: l.price, currency: l.currency },
  };
}

async function record(db: Db, batchId: string, packageId: string, o: NonNullable<Outcome>) {
  const v = o.label;
  await store.recordItem(db.prisma, batchId, packageId, {
    status: o.status,
    message: o.message?.slice(0, 1000) ?? null,
    tracking_number: v?.tracking_number ?? null,
    carrier_id: v?.carrier_id ?? null,
    service_id: v?.service_id ?? null,
    cost: v?.price ?? null,
    cost_currency: v?.currency ?? null,
  });
}

/** Marks the batch COMPLETED (once) with its webhook, when no item is left PENDING. */
async function finish(db: Db, b: Batch): Promise<boolean> {
  return transaction(db, async (tx) => {
    if (await store.countPendingItems(tx, b.id)) return false;
    const { count } = await store.completeBatch(tx, b.id, new Date());
    if (!count) return true;
    const by = await store.countItemsByStatus(tx, b.id);
    const n = (s: string) => by.find((r) => r.status === s)?._count._all ?? 0;
    await enqueueEvent(tx, b.team_id, 'label_batch.completed', {
      label_batch_id: b.id,
      package_count: b.package_count,
      bought: n('BOUGHT'),
      failed: n('FAILED'),
      skipped: n('SKIPPED'),
    });
    return true;
  });
}

/**
 * Works one batch until its items all have an outcome (true), or only purchases in flight
 * elsewhere are left (false: the next turn resumes it). Null when another runner holds it.
 */
export async function runLabelBatch(db: Db, id: string, opts: RunOptions = {}): Promise<boolean | null> {
  const b = await take(db, id);
  if (!b) return null;
  const tried = new Set<string>();
  let recorded = 0;
  for (;;) {
    const next = await store.findNextItems(db.prisma, id, [...tried], BATCH_CONCURRENCY);
    if (!next.length) break;
    await Promise.all(
      next.map(async ({ package_id }) => {
        tried.add(package_id);
        const o = await labelOne(db, b, package_id, opts.policy ?? {});
        if (o) await record(db, id, package_id, o);
        if (o) recorded++;
      }),
    );
    if (opts.stopAfter !== undefined && recorded >= opts.stopAfter) return false;
    await renew(db, id);
  }
  const done = await finish(db, b);
  // Let the next turn (another process, or this one) take it again at once.
  if (!done) await store.setLease(db.prisma, id, new Date());
  return done;
}

/** One turn of the worker: every running batch nobody holds, oldest first. */
export async function runDueBatches(db: Db, opts: RunOptions = {}): Promise<number> {
  const due = await store.findDueBatches(db.prisma, new Date());
  let done = 0;
  for (const { id } of due) if (await runLabelBatch(db, id, opts)) done++;
  return done;
}
