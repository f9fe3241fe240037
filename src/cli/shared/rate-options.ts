import { InvalidArgumentError, type Command } from 'commander';
import { RATE_STRATEGIES, RATE_WITHIN_DAYS_MAX } from '../../contract/enums.js';
import { UsageError } from '../errors.js';
import type { FieldSpec } from './flags.js';

// The rate strategy's two options (src/contract/rate-strategy.ts) as flags: body fields for the
// writeCommand-based commands (packages create/update/label), options for fulfill run and labels batch.

export const RATE_OPTION_FIELDS: FieldSpec[] = [
  {
    key: 'rate_within_days',
    flag: '--within-days',
    arg: 'n',
    type: 'int',
    min: 1,
    max: RATE_WITHIN_DAYS_MAX,
    description: 'with rate strategy CHEAPEST_WITHIN_DAYS: the most estimated transit days',
  },
  {
    key: 'rate_exclude_carrier_ids',
    flag: '--exclude-carrier',
    arg: 'ids',
    type: 'list',
    description: 'never buy from these carriers (carrier ids, comma-separated)',
  },
];

export interface RateFlags {
  rateStrategy?: string;
  withinDays?: number;
  excludeCarrier?: string[];
}

function days(v: string) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > RATE_WITHIN_DAYS_MAX)
    throw new InvalidArgumentError(`a whole number of days from 1 to ${RATE_WITHIN_DAYS_MAX}`);
  return n;
}
const carriers = (v: string, prev: string[] = []) => [
  ...prev,
  ...v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];

/** Adds --within-days and --exclude-carrier to a commander command. */
export function addRateFlags(cmd: Command): Command {
  return cmd
    .option('--within-days <n>', 'with --rate-strategy cheapest_within_days: the most estimated transit days', days)
    .option('--exclude-carrier <ids>', 'never buy from these carriers (carrier ids, comma-separated or repeated)', carriers);
}

/** The body members the flags give; refuses --within-days without CHEAPEST_WITHIN_DAYS and the reverse. */
export function rateBody(o: RateFlags) {
  const strategy = o.rateStrategy?.toUpperCase();
  if (strategy === 'CHEAPEST_WITHIN_DAYS' && o.withinDays === undefined)
    throw new UsageError('--rate-strategy cheapest_within_days needs --within-days <n>');
  if (o.withinDays !== undefined && strategy !== 'CHEAPEST_WITHIN_DAYS')
    throw new UsageError('--within-days goes with --rate-strategy cheapest_within_days');
  return {
    ...(strategy ? { rate_strategy: strategy } : {}),
    ...(o.withinDays !== undefined ? { rate_within_days: o.withinDays } : {}),
    ...(o.excludeCarrier?.length ? { rate_exclude_carrier_ids: o.excludeCarrier } : {}),
  };
}

/** The carrier selection a person sets on an order (orders edit) or a draft (draft-orders create); see docs/automation.md. */
export const CARRIER_SELECTION_FIELDS: FieldSpec[] = [
  { key: 'carrier_integration_id', flag: '--carrier-integration', arg: 'id', description: 'carrier integration to buy labels through' },
  { key: 'carrier_id', arg: 'id', description: 'carrier, e.g. usps' },
  { key: 'service_id', arg: 'id', description: 'service, e.g. usps_ground_advantage' },
  { key: 'rate_strategy', type: 'enum', values: RATE_STRATEGIES, description: 'how labels are bought by rate shopping' },
  ...RATE_OPTION_FIELDS,
  { key: 'package_preset_id', arg: 'id', description: 'package preset' },
  { key: 'carton_id', arg: 'id', description: 'carton' },
];
