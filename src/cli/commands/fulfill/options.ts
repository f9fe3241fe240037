import { hostname } from 'node:os';
import { InvalidArgumentError } from 'commander';
import type { Env } from '../../config.js';
import { UsageError } from '../../errors.js';
import { rateBody, type RateFlags } from '../../shared/rate-options.js';

/** The flags of `fos fulfill run`, checked and put in the shape the workflow uses. */
export interface RawRunOptions extends RateFlags {
  from?: string;
  item?: Map<string, number>;
  labelUrl?: string;
  tracking?: string;
  carrier?: string;
  service?: string;
  cost?: number;
  costCurrency?: string;
  weight?: number;
  weightUnit?: string;
  lockOwner?: string;
  timeoutMinutes: number;
  concurrency: number;
  dryRun?: boolean;
  partial?: boolean;
  labelFormat?: string;
  printDir?: string;
}

export type LabelSource =
  | { kind: 'upload'; label_url: string; tracking_number: string; carrier: string; service: string; cost: number; cost_currency: string }
  | { kind: 'buy'; rate_strategy: string; rate_within_days?: number; rate_exclude_carrier_ids?: string[]; label_format?: string }
  /** No label option: enough when every package shipped is labelled already (a label batch, the station's --print). */
  | { kind: 'none' };

/** A package has to be labelled and no label option was given (exit 2, before anything is written). */
export const LABEL_NEEDED =
  'a label is needed: upload one with --label-url, --tracking, --carrier, --service, --cost [--cost-currency], or buy one with --rate-strategy CHEAPEST';
export const labelNeeded = (what: string) => new UsageError(`${what}: ${LABEL_NEEDED}`);

export interface RunOptions {
  /** SKU -> quantity from `--item`; undefined packs everything remaining. */
  items?: Map<string, number>;
  label: LabelSource;
  lockOwner: string;
  timeoutMinutes: number;
  weight?: { weight: number; weight_unit?: string };
  concurrency: number;
  dryRun: boolean;
  /** --partial: a fulfillment order with units recorded short ships what was found; the short units are split off. */
  partial: boolean;
  /** --print-dir: each label is saved here as it is bought. */
  printDir?: string;
}

/** `--item SKU=QTY` (repeatable; a SKU given twice adds up). */
export function parseItem(raw: string, previous?: Map<string, number>): Map<string, number> {
  const eq = raw.lastIndexOf('=');
  const sku = eq > 0 ? raw.slice(0, eq).trim() : '';
  const qty = Number(raw.slice(eq + 1));
  if (!sku || !Number.isInteger(qty) || qty < 1)
    throw new InvalidArgumentError('expected SKU=QTY with a whole quantity of at least 1, e.g. MUG-BLUE=2.');
  const items = new Map(previous ?? []);
  items.set(sku, (items.get(sku) ?? 0) + qty);
  return items;
}

export function parsePositiveInt(max: number) {
  return (raw: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`expected a whole number from 1 to ${max}.`);
    return n;
  };
}

export function parseNonNegative(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number of at least 0.');
  return n;
}

/**
 * `--lock-owner`, else $FOS_LOCK_OWNER, else `fos-cli:<hostname>:<profile>`. Stable for a machine
 * and profile (no process id), so a re-run after a crash takes its own locks back and resumes
 * instead of failing with lock-held until they expire.
 */
export function lockOwnerFor(env: Env, flag?: string, profile?: string): string {
  return flag || env.FOS_LOCK_OWNER || `fos-cli:${hostname()}:${profile || 'default'}`;
}

const UPLOAD_FLAGS = [
  ['labelUrl', '--label-url'],
  ['tracking', '--tracking'],
  ['carrier', '--carrier'],
  ['service', '--service'],
  ['cost', '--cost'],
] as const;

/** Exactly one label source: the uploaded-label flags together, or --rate-strategy. */
export function labelSource(o: RawRunOptions): LabelSource {
  const given = UPLOAD_FLAGS.filter(([k]) => o[k] !== undefined);
  if (o.rateStrategy) {
    if (given.length || o.costCurrency) {
      throw new UsageError(
        `--rate-strategy buys a label; it cannot be combined with ${[...given.map(([, f]) => f), ...(o.costCurrency ? ['--cost-currency'] : [])].join(', ')}`,
      );
    }
    return { kind: 'buy', rate_strategy: o.rateStrategy, ...rateBody(o), ...(o.labelFormat ? { label_format: o.labelFormat } : {}) };
  }
  if (o.withinDays !== undefined || o.excludeCarrier)
    throw new UsageError('--within-days and --exclude-carrier are for bought labels (--rate-strategy)');
  if (o.labelFormat) throw new UsageError('--label-format is for bought labels (--rate-strategy); an uploaded label keeps its own format');
  // Checked per order once its packages are read (takeover.ts): a labelled package needs none.
  if (!given.length) return { kind: 'none' };
  const missing = UPLOAD_FLAGS.filter(([k]) => o[k] === undefined).map(([, f]) => f);
  if (missing.length) throw new UsageError(`an uploaded label also needs ${missing.join(', ')}`);
  const currency = (o.costCurrency ?? 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new UsageError(`--cost-currency: expected a 3-letter ISO 4217 code, got "${o.costCurrency}"`);
  return {
    kind: 'upload',
    label_url: o.labelUrl!,
    tracking_number: o.tracking!,
    carrier: o.carrier!,
    service: o.service!,
    cost: o.cost!,
    cost_currency: currency,
  };
}

export function runOptions(o: RawRunOptions, env: Env, profile?: string): RunOptions {
  if (o.weightUnit && o.weight === undefined) throw new UsageError('--weight-unit needs --weight');
  return {
    items: o.item,
    label: labelSource(o),
    lockOwner: lockOwnerFor(env, o.lockOwner, profile),
    timeoutMinutes: o.timeoutMinutes,
    weight: o.weight === undefined ? undefined : { weight: o.weight, ...(o.weightUnit ? { weight_unit: o.weightUnit } : {}) },
    concurrency: o.concurrency,
    dryRun: Boolean(o.dryRun),
    partial: Boolean(o.partial),
    printDir: o.printDir,
  };
}

/** How the label is described in plans and step lines. */
export function describeLabel(label: LabelSource): string {
  if (label.kind === 'none') return 'none given';
  return label.kind === 'upload'
    ? `upload ${label.carrier} ${label.service}, tracking ${label.tracking_number}, ${label.cost} ${label.cost_currency}`
    : `buy (${[
        label.rate_strategy,
        label.rate_within_days ? `within ${label.rate_within_days} days` : '',
        label.rate_exclude_carrier_ids ? `not ${label.rate_exclude_carrier_ids.join(', ')}` : '',
        label.label_format ?? '',
      ]
        .filter(Boolean)
        .join(', ')})`;
}
