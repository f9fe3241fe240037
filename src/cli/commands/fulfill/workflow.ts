import { ApiError } from '../../../client/errors.js';
import { ENUMS } from '../../enums.js';
import {
  isAlreadyFulfilled,
  isAlreadyLabelled,
  isUnanswered,
  trackingOf,
  type FulfillApi,
  type FulfillmentOrder,
  type Package,
} from './api.js';
import { labelNeeded, type RunOptions } from './options.js';
import { describeLines, packageKey, planLines, type Items } from './plan.js';
import { leftAfter, planOf, shortfallError, shortLines } from './takeover.js';
import { baseResult, failedResult, type FulfillResult, type Step } from './result.js';
import { saveIn } from '../../shared/documents.js';
import { slowerThanAsked } from './speed.js';

/**
 * One fulfillment order through the workflow (spec 4.6): accept if PENDING -> lock -> package -> label -> fulfill (which releases the lock). A failure after locking
 * releases the lock and reports what was left behind. A 409 saying the work is already done
 * (accept/lock/package/fulfill) makes the result `skipped`, so re-runs are safe.
 */
export type Log = (message: string) => void;

const GRAMS: Record<string, number> = { G: 1, KG: 1000, LB: 453.59237, OZ: 28.349523125 };

/** The package's weight from its lines (product weights × quantities), for rate shopping. */
export function weightOf(pkg: Package): { weight: number; weight_unit: string } | null {
  const lines = pkg.package_line_items;
  if (!lines.length || lines.some((l) => l.weight === null || !l.weight_unit || !GRAMS[l.weight_unit.toUpperCase()])) return null;
  const units = new Set(lines.map((l) => l.weight_unit!.toUpperCase()));
  const unit = units.size === 1 && (ENUMS.weight_unit as readonly string[]).includes([...units][0]) ? [...units][0] : 'G';
  const total = lines.reduce((s, l) => s + (l.weight! * GRAMS[l.weight_unit!.toUpperCase()] * l.quantity) / GRAMS[unit], 0);
  return { weight: Math.round(total * 1000) / 1000, weight_unit: unit };
}

interface Progress {
  accepted: boolean;
  locked: boolean;
  pkg?: Package;
  labelled: boolean;
  labelFile?: string;
}

function leftBehind(p: Progress, lockNote: string): string {
  const parts: string[] = [];
  if (p.pkg) parts.push(`package ${p.pkg.id} created${p.labelled ? ' and labelled, not fulfilled' : ', not labelled or fulfilled'}`);
  else if (p.locked) parts.push('no package created');
  if (p.accepted) parts.push('fulfillment order accepted (was PENDING)');
  if (lockNote) parts.push(lockNote);
  return parts.length ? parts.join('; ') : 'nothing changed';
}

/** Labels the package if it has no label, saves the label (--print-dir), fulfills it (which releases the lock). */
async function labelAndFulfill(
  api: FulfillApi,
  p: Progress,
  fo: FulfillmentOrder,
  opts: RunOptions,
  owner: string,
  log: Log,
  warn: Log,
  at: (s: Step) => void,
): Promise<'fulfilled' | 'skipped'> {
  const made = p.pkg!;
  at('label');
  if (made.shipping_label || made.shipment_status) {
    p.labelled = true;
    log(`already labelled: tracking ${trackingOf(made) ?? '-'}`);
  } else {
    if (opts.label.kind === 'none') throw labelNeeded(`order ${fo.order_number}: package ${made.id} has no label`);
    if (opts.label.kind === 'buy' && made.weight === null) {
      const w = weightOf(made);
      if (w) {
        p.pkg = await api.updatePackage(made.id, w);
        log(`weight ${w.weight} ${w.weight_unit} (from its items)`);
      }
    }
    const { kind: _kind, ...labelBody } = opts.label;
    try {
      p.pkg = await api.label(made.id, labelBody);
    } catch (err) {
      if (!isAlreadyLabelled(err)) throw err;
      p.pkg = await api.getPackage(made.id); // an earlier attempt labelled it
    }
    p.labelled = true;
    const service = p.pkg.shipping_label?.formatted_service ?? p.pkg.formatted_service ?? '';
    log(
      `labelled (${opts.label.kind === 'upload' ? 'uploaded' : `bought, ${opts.label.rate_strategy}`}): ${service}${service ? ', ' : ''}tracking ${trackingOf(p.pkg) ?? '-'}`,
    );
    const slow = opts.label.kind === 'buy' ? slowerThanAsked(fo, p.pkg.shipping_label) : undefined;
    if (slow) warn(slow);
  }
  if (opts.printDir) {
    // A label that cannot be saved does not stop the shipment: it is on the server to reprint.
    const pkg = p.pkg!;
    try {
      p.labelFile = await saveIn(opts.printDir, await api.labelDocument(pkg), fo.order_number);
      log(`label saved: ${p.labelFile}`);
    } catch (err) {
      warn(
        `label of package ${pkg.id} not saved (${(err as Error).message}); reprint it with: fos packages get-label ${pkg.id} --output <file>`,
      );
    }
  }
  at('fulfill');
  const pkgId = p.pkg!.id;
  try {
    p.pkg = await api.fulfill(pkgId, owner);
  } catch (err) {
    if (!isAlreadyFulfilled(err)) throw err;
    p.pkg = await api.getPackage(pkgId);
    p.locked = false; // a fulfilled fulfillment order holds no lock
    return 'skipped';
  }
  p.locked = false; // fulfill releases the lock
  log(`fulfilled: package ${pkgId}, tracking ${trackingOf(p.pkg) ?? '-'}`);
  return 'fulfilled';
}

export async function fulfillOne(
  api: FulfillApi,
  input: string,
  initial: FulfillmentOrder,
  items: Items | undefined,
  opts: RunOptions,
  log: Log,
  warn: Log = log,
): Promise<FulfillResult> {
  const id = initial.id;
  const owner = opts.lockOwner;
  const base = baseResult(input, initial);
  const p: Progress = { accepted: false, locked: false, labelled: false };
  let step: Step = 'accept';

  /** Releases our lock (if we hold it) and describes the outcome for the state line. */
  const release = async (): Promise<string> => {
    if (!p.locked) return '';
    try {
      await api.release(id, owner);
      p.locked = false;
      return 'lock released';
    } catch (err) {
      p.locked = false;
      if (err instanceof ApiError && err.kind === 'lock-held') return `lock no longer ours (${err.detail})`;
      if (err instanceof ApiError && err.status === 409) return 'lock had already expired';
      return `lock NOT released (${(err as Error).message}); it expires ${opts.timeoutMinutes} min after it was taken`;
    }
  };
  const skipped = async (reason: string): Promise<FulfillResult> => {
    const note = await release();
    log(`skipped: ${reason}${note ? ` (${note})` : ''}`);
    return { ...base, status: 'skipped', reason, package_id: p.pkg?.id ?? null, tracking_code: trackingOf(p.pkg) };
  };

  let current = initial;
  try {
    step = 'plan';
    if (shortLines(initial).length && !opts.partial) throw shortfallError(initial);
    // No label option: every package it ships must be labelled already; known before anything is written.
    if (opts.label.kind === 'none') planOf(initial, await api.openPackages(id), items, opts, shortLines(initial).length > 0);
    if (initial.status === 'PENDING') {
      step = 'accept';
      log('accepting it first (it is PENDING)');
      current = await api.accept(id);
      p.accepted = true;
    }
    step = 'lock';
    const lock = await api.lock(id, owner, opts.timeoutMinutes);
    p.locked = true;
    log(`locked by ${owner}${lock.expires_at ? ` until ${lock.expires_at}` : ''}`);

    // The plan (takeover.ts): the packages a station made are shipped, not packed again; the same
    // plan is what --dry-run shows. Short units are split off first (--partial).
    step = 'plan';
    const short = shortLines(current).length > 0;
    const plan = planOf({ ...current, status: initial.status }, await api.openPackages(id), items, opts, short);
    const steps = plan.steps;
    if (short) {
      step = 'split';
      const r = await api.splitShortfall(id, owner);
      log(`short units split off to fulfillment order ${r.split.id} (they wait there; cancel it to give them up)`);
    }
    const queue = [...plan.takeOver];
    let lines = plan.lines;
    if (lines.length) {
      step = 'package';
      const bodyOf = (ls: typeof lines): Record<string, unknown> => ({
        fulfillment_order_id: id,
        package_line_items: ls.map((l) => ({ core_fulfillment_order_line_item_id: l.line_id, quantity: l.quantity })),
        ...(opts.weight ?? {}),
      });
      let fo = leftAfter(current, plan.takeOver);
      let made;
      try {
        made = await api.createPackage(bodyOf(lines), packageKey(fo, lines));
      } catch (err) {
        if (!(err instanceof ApiError) || ![409, 422].includes(err.status)) throw err;
        step = 'plan';
        fo = await api.getFulfillmentOrder(id); // it changed since it was read: plan from what is left
        lines = planLines(leftAfter(fo, plan.takeOver), items);
        if (!lines.length && !queue.length) return await skipped('already fulfilled');
        step = 'package';
        made = lines.length ? await api.createPackage(bodyOf(lines), packageKey(fo, lines)) : undefined;
      }
      if (made) {
        log(`package ${made.pkg.id} ${made.created ? 'created' : 'reused (made by an earlier attempt)'}: ${describeLines(lines)}`);
        queue.push(made.pkg);
      }
    }
    if (!queue.length) return await skipped('already fulfilled');
    for (const [i, pkg] of queue.entries()) {
      if (i > 0) {
        step = 'lock'; // the fulfill before released the lock: take it again for the next box
        await api.lock(id, owner, opts.timeoutMinutes);
        p.locked = true;
      }
      if (i < plan.takeOver.length) log(`package ${pkg.id} taken over (made at a station): ${pkg.package_line_items.length} line(s)`);
      p.pkg = pkg;
      p.labelled = false;
      if (pkg.status === 'FULFILLED') return await skipped(`already fulfilled (package ${pkg.id})`);
      const done = await labelAndFulfill(api, p, current, opts, owner, log, warn, (s) => (step = s));
      if (done === 'skipped') return await skipped(`already fulfilled (package ${pkg.id})`);
    }
    return {
      ...base,
      status: 'fulfilled',
      package_id: p.pkg!.id,
      ...(queue.length > 1 ? { package_ids: queue.map((q) => q.id) } : {}),
      tracking_code: trackingOf(p.pkg),
      steps,
      ...(p.labelFile ? { label_file: p.labelFile } : {}),
    };
  } catch (err) {
    if (isAlreadyFulfilled(err) && (step as Step) !== 'label') return skipped('already fulfilled');
    // The server never answered (down, restarting): what did it do? Re-read before reporting, so
    // a fulfill it committed before dying is reported as fulfilled, not failed.
    if (isUnanswered(err) && p.pkg && ((step as Step) === 'fulfill' || (step as Step) === 'label')) {
      const now = await api.getPackage(p.pkg.id).catch(() => undefined);
      if (now?.status === 'FULFILLED') {
        log(`fulfilled (its answer was lost; re-read: package ${now.id} is FULFILLED)`);
        return { ...base, status: 'fulfilled', package_id: now.id, tracking_code: trackingOf(now) };
      }
      if (!now) {
        log(`FAILED at the ${step} step: ${(err as Error).message}`);
        const state = `unknown: the server did not answer, so package ${p.pkg.id} may or may not be ${(step as Step) === 'fulfill' ? 'fulfilled' : 'labelled'}; re-run the same command once the server is back (it resumes its own lock and package)`;
        log(`left behind: ${state}`);
        return { ...failedResult(base, step, err, state), package_id: p.pkg.id, tracking_code: trackingOf(p.pkg) };
      }
      p.pkg = now;
    }
    const note = await release();
    const state = leftBehind(p, note);
    log(`FAILED at the ${step} step: ${(err as Error).message}`);
    log(`left behind: ${state}`);
    return {
      ...failedResult(base, step, err, state),
      package_id: p.pkg?.id ?? null,
      tracking_code: trackingOf(p.pkg),
    };
  }
}
