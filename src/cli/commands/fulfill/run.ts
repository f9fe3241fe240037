import { Command } from 'commander';
import type { Context } from '../../context.js';
import { CliError, UsageError } from '../../errors.js';
import { enumOption } from '../../shared/flags.js';
import { addRateFlags } from '../../shared/rate-options.js';
import { helpWidthOf, withExamples, wrapHelpText } from '../../shared/help.js';
import { FulfillApi, type FulfillmentOrder } from './api.js';
import { readIds, uniqueIds, type IdRef } from './input.js';
import {
  describeLabel,
  parseItem,
  parseNonNegative,
  parsePositiveInt,
  runOptions,
  type RawRunOptions,
  type RunOptions,
} from './options.js';
import { assignItems, hasWork, resolveId, skipReason, type Items, type ResolveHint, type Resolution } from './plan.js';
import { Reporter } from './report.js';
import { baseResult, exitCodeOf, failedResult, type FulfillResult } from './result.js';
import { fulfillOne } from './workflow.js';
import { declareOutput, own } from '../../output/shape.js';
import { planOf, shortfallError, shortLines } from './takeover.js';

/**
 * `fos fulfill run <id…> | --from <file|->`: the whole fulfillment workflow (spec 4.6) per
 * fulfillment order. Two phases: resolve every id (read-only), then work through the
 * fulfillment orders with bounded concurrency, writing each result as it finishes.
 * docs/fulfill-run.md has the details.
 */
interface Work {
  input: string;
  fo: FulfillmentOrder;
  items?: Items;
}

/** Runs `fn` over `items`, at most `limit` at a time; stops starting new ones after a throw. */
export async function pool<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        await fn(items[i], i);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.err;
}

/** Phase 1 for one id: the fulfillment orders to work on, and rows for what needs no work. */
async function resolveOne(
  api: FulfillApi,
  ref: IdRef,
  hint: ResolveHint,
  opts: RunOptions,
  log: (m: string) => void,
): Promise<{ work: Work[]; rows: FulfillResult[] }> {
  let r: Resolution;
  try {
    r = await resolveId(api, ref, hint);
  } catch (err) {
    log(`FAILED: ${(err as Error).message}`);
    return { work: [], rows: [failedResult(baseResult(ref.id), 'resolve', err, 'nothing changed')] };
  }
  if (r.kind === 'order' && r.fos.length === 0) {
    log(`order ${r.orderNumber ?? ref.id} has no fulfillment orders`);
    const row: FulfillResult = {
      ...baseResult(ref.id),
      order_id: r.orderId ?? ref.id,
      order_number: r.orderNumber ?? null,
      status: 'skipped',
      reason: 'the order has no fulfillment orders',
    };
    return { work: [], rows: [row] };
  }
  const open = r.fos.filter(hasWork);
  if (!open.length) {
    return { work: [], rows: r.fos.map((fo): FulfillResult => ({ ...baseResult(ref.id, fo), status: 'skipped', reason: skipReason(fo) })) };
  }
  if (r.kind === 'order') log(`order ${r.orderNumber}: ${open.length} of ${r.fos.length} fulfillment order(s) to fulfill`);
  if (!opts.items) return { work: open.map((fo) => ({ input: ref.id, fo })), rows: [] };
  try {
    const assigned = assignItems(open, opts.items);
    return { work: open.filter((fo) => assigned.has(fo.id)).map((fo) => ({ input: ref.id, fo, items: assigned.get(fo.id) })), rows: [] };
  } catch (err) {
    log(`FAILED: ${(err as Error).message}`);
    const base =
      open.length === 1
        ? baseResult(ref.id, open[0])
        : { ...baseResult(ref.id), order_id: r.orderId ?? null, order_number: r.orderNumber ?? null };
    return { work: [], rows: [failedResult(base, 'plan', err, 'nothing changed')] };
  }
}

/** --dry-run: the plan the real run makes (takeover.ts), from the same reads, without writing. */
async function planOne(api: FulfillApi, w: Work, opts: RunOptions, log: (m: string) => void): Promise<FulfillResult> {
  const base = baseResult(w.input, w.fo);
  try {
    if (shortLines(w.fo).length && !opts.partial) throw shortfallError(w.fo);
    const plan = planOf(w.fo, await api.openPackages(w.fo.id), w.items, opts, shortLines(w.fo).length > 0);
    log(`would ${plan.steps.join(', ')}`);
    return {
      ...base,
      status: 'planned',
      accept: w.fo.status === 'PENDING',
      items: plan.lines.map((l) => ({ sku: l.sku, name: l.name, quantity: l.quantity })),
      label: describeLabel(opts.label),
      steps: plan.steps,
    };
  } catch (err) {
    log(`FAILED: ${(err as Error).message}`);
    return failedResult(base, 'plan', err, 'nothing changed');
  }
}

export async function runFulfill(ctx: Context, ids: string[], raw: RawRunOptions): Promise<void> {
  // What to fulfill comes before how to label it (a bare `fos fulfill run` should say so).
  if (!ids.length && !raw.from) throw new UsageError('give an order or fulfillment order id, or --from <file|->');
  const profile = (await ctx.config.load()).selectedProfileName(ctx.options.profile);
  const opts = runOptions(raw, ctx.env, profile);
  const refs = uniqueIds([...ids.map((id): IdRef => ({ id, kind: 'any' })), ...(raw.from ? await readIds(ctx, raw.from) : [])]);
  if (!refs.length && raw.from && !ids.length) {
    // `fos orders list … --json id | fos fulfill run --from -` when nothing is open: not an error.
    ctx.io.info(`nothing to do: no ids in ${raw.from === '-' ? 'the input' : raw.from}`);
    return;
  }
  if (!refs.length) throw new UsageError('give an order or fulfillment order id, or --from <file|->');
  const batch = Boolean(raw.from) || refs.length > 1;
  const reporter = await Reporter.create(ctx, { bar: batch, dryRun: opts.dryRun });
  const api = new FulfillApi(ctx.client());

  // Phase 1: resolve (reads only). Results are kept in input order.
  reporter.startPhase('resolving', refs.length);
  const resolved: { work: Work[]; rows: FulfillResult[] }[] = [];
  const hint: ResolveHint = { fulfillmentOrders: false };
  await pool(refs, opts.concurrency, async (ref, i) => {
    resolved[i] = await resolveOne(api, ref, hint, opts, (m) => reporter.log(ref.id, m));
    reporter.advance();
  });
  const rows: FulfillResult[] = resolved.flatMap((r) => r.rows);
  const work: Work[] = [];
  const claimed = new Map<string, string>();
  for (const w of resolved.flatMap((r) => r.work)) {
    const first = claimed.get(w.fo.id);
    if (first === undefined) {
      claimed.set(w.fo.id, w.input);
      work.push(w);
    } else rows.push({ ...baseResult(w.input, w.fo), status: 'skipped', reason: `listed more than once (also as ${first})` });
  }
  if (opts.label.kind === 'upload' && work.length > 1) {
    throw new UsageError(
      `an uploaded label (--label-url, --tracking, …) is for one package, but ${work.length} fulfillment orders would be fulfilled (${work.map((w) => w.fo.id).join(', ')}); buy labels with --rate-strategy CHEAPEST, or run one fulfillment order at a time`,
    );
  }
  for (const r of rows) await reporter.emit(r);

  // Phase 2: the workflow (or the plan), each result written as it finishes.
  reporter.startPhase(opts.dryRun ? 'planning' : 'fulfilling', work.length);
  await pool(work, opts.concurrency, async (w) => {
    const log = (m: string) => reporter.log(`FO ${w.fo.id} (${w.fo.order_number}):`, m);
    const result = opts.dryRun
      ? await planOne(api, w, opts, log)
      : await fulfillOne(api, w.input, w.fo, w.items, opts, log, (m) => reporter.warn(m));
    await reporter.emit(result);
    reporter.advance();
  });
  await reporter.finish();

  const code = exitCodeOf(reporter.results);
  if (code === 0) return;
  const failed = reporter.results.filter((r) => r.status === 'failed');
  if (reporter.results.length === 1) {
    const f = failed[0];
    const what = f.fulfillment_order_id ? `fulfillment order ${f.fulfillment_order_id}` : f.input;
    // The step lines above gave the reason (a hold's whole text, say): said once, not again here (issue 35).
    throw new CliError(`${what} failed at the ${f.step} step (${f.error?.kind ?? 'error'}: the reason is above) — ${f.state}`, code);
  }
  throw new CliError(
    `${failed.length} of ${reporter.results.length} failed (the failed results say at which step and what was left behind)`,
    code,
  );
}

export default function fulfillRun(ctx: Context): Command {
  const cmd = new Command('run')
    .description('Fulfill orders end to end: accept if needed, lock, package, label, fulfill; the lock is released if a step fails')
    .argument('[ids...]', 'order ids (expanded to their fulfillment orders with something left to ship) or fulfillment order ids')
    .option('--from <file|->', 'read ids from a file or stdin: plain ids, NDJSON, or a JSON array (e.g. `--json id` output)')
    .option('--item <SKU=QTY>', 'pack only this SKU and quantity (repeatable); default: everything remaining', parseItem)
    .option('--label-url <url>', 'upload a label: its URL (with --tracking, --carrier, --service, --cost)')
    .option('--tracking <number>', 'uploaded label: tracking number')
    .option('--carrier <name>', 'uploaded label: carrier')
    .option('--service <name>', 'uploaded label: carrier service')
    .option('--cost <amount>', 'uploaded label: cost', parseNonNegative)
    .option('--cost-currency <code>', 'uploaded label: ISO 4217 currency of --cost (default USD)')
    .addOption(
      enumOption(
        '--rate-strategy <strategy>',
        'buy the label by rate shopping instead (with neither, only packages labelled already ship: a label batch, fos pack --print)',
        'rate_strategy',
      ),
    )
    .addOption(enumOption('--label-format <format>', 'bought labels: 4x6 PDF (default) or ZPL for thermal printers', 'label_format'))
    .option('--print-dir <dir>', 'save each label in this folder as it is bought (<order number>-label-<package id>.pdf|zpl)')
    .option('--weight <n>', "package weight (default for rate shopping: the sum of its items' weights)", parseNonNegative)
    .addOption(enumOption('--weight-unit <unit>', "unit of --weight (default: the team's)", 'weight_unit'))
    .option(
      '--lock-owner <name>',
      'lock owner (default: $FOS_LOCK_OWNER, else fos-cli:<hostname>:<profile>, so a re-run resumes its own locks)',
    )
    .option('--timeout-minutes <n>', 'lock expiry in minutes', parsePositiveInt(1440), 15)
    .option('--concurrency <n>', 'fulfillment orders worked on at once', parsePositiveInt(32), 4)
    .option('--dry-run', 'show the plan (the steps the run would take: packages taken over, lines packed, label source) without writing')
    .option(
      '--partial',
      'ship what was found of fulfillment orders with units recorded short (a short pick or pack): the short units are split off to a new fulfillment order (by default those orders are refused, exit 5)',
    )
    .addHelpText('after', ({ command }) =>
      wrapHelpText(
        `
Output: one JSON object per fulfillment order on stdout as each finishes (when piped), or a table
on a terminal: {input, fulfillment_order_id, order_id, order_number, status: fulfilled|skipped|failed,
package_id, tracking_code, label_file?, step?, reason?, state?, error?}. Steps are printed on stderr. Already
fulfilled ones are skipped, so a batch can be re-run. Exit code: 0, or that of the failures'
error class (see fos --help; 1 when they differ).`,
        helpWidthOf(command),
      ),
    )
    .action(async (ids: string[], raw: RawRunOptions) => runFulfill(ctx, ids, raw));
  addRateFlags(cmd);
  declareOutput(cmd, own('prints one result per order (docs/fulfill-run.md); checks --json against its members before sending'));
  return withExamples(cmd, [
    'fos fulfill run 0193… --label-url https://labels.example/1.pdf --tracking 1Z999 --carrier UPS --service Ground --cost 7.5',
    'fos fulfill run 0193… --item MUG-BLUE=2 --rate-strategy CHEAPEST',
    'fos orders list --status OPEN --json id | fos fulfill run --from - --rate-strategy CHEAPEST',
    'fos fulfill run --from ids.txt --rate-strategy CHEAPEST --dry-run',
    'fos fulfill run 0193… --rate-strategy cheapest_within_days --within-days 3 --exclude-carrier dhl',
    'fos orders list --status OPEN --json id | fos fulfill run --from - --rate-strategy CHEAPEST --label-format ZPL --print-dir labels/',
  ]);
}
