import { invalid } from '../errors.js';
import type { RateOptions } from '../../contract/rate-strategy.js';

// The rules of an order's rate options (spec 2.6 carrier selection: rate_strategy and its days),
// checked wherever they are set: the order's selection, a rule's action, a package's label.

/** Refuses options that cannot work together (400 with the path). */
export function checkRateOptions(o: RateOptions, path = 'body') {
  if (o.rate_strategy === 'CHEAPEST_WITHIN_DAYS' && o.rate_within_days == null)
    throw invalid(`${path}.rate_within_days`, 'is required with rate_strategy CHEAPEST_WITHIN_DAYS');
  if (o.rate_within_days != null && o.rate_strategy && o.rate_strategy !== 'CHEAPEST_WITHIN_DAYS')
    throw invalid(`${path}.rate_within_days`, `applies to rate_strategy CHEAPEST_WITHIN_DAYS only (not ${o.rate_strategy})`);
}

/** Another strategy chosen without days: the days of CHEAPEST_WITHIN_DAYS go with it (cleared). */
export function withoutStaleDays<T extends { rate_strategy?: unknown; rate_within_days?: unknown }>(edit: T): T {
  const other = typeof edit.rate_strategy === 'string' && edit.rate_strategy !== 'CHEAPEST_WITHIN_DAYS';
  return other && edit.rate_within_days === undefined ? { ...edit, rate_within_days: null } : edit;
}
