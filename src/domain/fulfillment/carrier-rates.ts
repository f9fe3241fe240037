import type { Db, Prisma } from '../../db/types.js';
import { notFound } from '../errors.js';
import type { RateOptions } from '../../contract/rate-strategy.js';
import { checkRateOptions } from '../orders/index.js';
import type { CarrierAdapter, Rate } from '../../connectors/carriers/types.js';
import { rank, type Quote } from './carriers/shop.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { deleteCarrierRateRow, findCarrierRates, insertCarrierRate } from './store/carriers.js';

// The operator's rate table for the built-in 'table' carrier adapter (carriers/table.ts).

export interface CarrierRateInput {
  carrier_id: string;
  carrier_name: string;
  service_id: string;
  service_name: string;
  amount: number;
  currency?: string;
  per_unit_weight?: number;
  max_weight?: number | null;
  weight_unit?: string;
  countries?: string[] | null;
  estimated_days?: number | null;
  delivery_date_guaranteed?: boolean;
}

type Row = Prisma.CarrierRateGetPayload<object>;

export const presentCarrierRate = (r: Row) => ({
  ...r,
  countries: Array.isArray(r.countries) ? (r.countries as string[]) : null,
});

export async function listCarrierRates(db: Db, teamId: string, page: PageRequest) {
  const orderBy = [{ carrier_name: 'asc' }, { service_name: 'asc' }, { id: 'asc' }];
  const rows = await findCarrierRates(db.prisma, pageArgs(page, { team_id: teamId }, orderBy));
  const p = toPage(rows, page, undefined, orderBy);
  return { data: p.data.map(presentCarrierRate), meta: p.meta };
}

export async function createCarrierRate(db: Db, teamId: string, input: CarrierRateInput) {
  const row = await insertCarrierRate(db.prisma, {
    team_id: teamId,
    carrier_id: input.carrier_id,
    carrier_name: input.carrier_name,
    service_id: input.service_id,
    service_name: input.service_name,
    amount: input.amount,
    currency: (input.currency ?? 'USD').toUpperCase(),
    per_unit_weight: input.per_unit_weight ?? 0,
    max_weight: input.max_weight ?? null,
    weight_unit: input.weight_unit ?? 'G',
    countries: input.countries ? input.countries.map((c) => c.toUpperCase()) : undefined,
    estimated_days: input.estimated_days ?? null,
    delivery_date_guaranteed: input.delivery_date_guaranteed ?? false,
  });
  return presentCarrierRate(row);
}

export async function deleteCarrierRate(db: Db, teamId: string, id: string) {
  if (!(await deleteCarrierRateRow(db.prisma, teamId, id))) throw notFound('Carrier rate', id);
}

// Rate strategies (docs/automation.md "Rate strategies"; shapes: src/contract/rate-strategy.ts).
// The carriers' quotes are ranked by carriers/shop.ts for CHEAPEST or FASTEST; the strategy's
// options then leave rates out: a carrier excluded (any strategy) and, for CHEAPEST_WITHIN_DAYS,
// a rate estimated slower than rate_within_days or without an estimate. When nothing is left the
// refusal (422) says which option left out what.

export interface RateChoice extends RateOptions {
  carrier_id?: string;
  service_id?: string;
}

/** A request's rate options over the stored ones (a strategy given brings its own options). */
export function rateChoiceOf(given: RateOptions, stored: RateOptions, path = 'body'): RateOptions {
  const own = given.rate_strategy ? given : stored;
  const out: RateOptions = {
    rate_strategy: own.rate_strategy ?? null,
    rate_within_days: given.rate_strategy ? (given.rate_within_days ?? null) : (given.rate_within_days ?? stored.rate_within_days ?? null),
    rate_exclude_carrier_ids: given.rate_exclude_carrier_ids ?? stored.rate_exclude_carrier_ids ?? null,
  };
  checkRateOptions(given, path);
  return out;
}

type Ranked = Array<{ rate: Rate; adapter: CarrierAdapter }>;

/** The rates that fit the choice, best first; `refusal` says why none is left when quotes matched. */
export function chooseRates(quotes: Quote[], choice: RateChoice) {
  const strategy = choice.rate_strategy === 'FASTEST' ? 'FASTEST' : 'CHEAPEST';
  const { all, eligible } = rank(quotes, { strategy, carrier_id: choice.carrier_id, service_id: choice.service_id });
  const excluded = new Set((choice.rate_exclude_carrier_ids ?? []).map((c) => c.toLowerCase()));
  const days = choice.rate_strategy === 'CHEAPEST_WITHIN_DAYS' ? choice.rate_within_days : null;
  if (choice.rate_strategy === 'CHEAPEST_WITHIN_DAYS' && days == null)
    return { all, eligible: [] as Ranked, refusal: 'rate_strategy CHEAPEST_WITHIN_DAYS has no rate_within_days.' };
  const byCarrier = eligible.filter(({ rate }) => !excluded.has(rate.carrier_id.toLowerCase()));
  const kept = days == null ? byCarrier : byCarrier.filter(({ rate }) => rate.estimated_days != null && rate.estimated_days <= days);
  let refusal: string | null = null;
  if (!kept.length && eligible.length) {
    const parts = [];
    const out = eligible.length - byCarrier.length;
    if (out) parts.push(`${out} left out by rate_exclude_carrier_ids (${[...excluded].join(', ')})`);
    const slow = byCarrier.length - kept.length;
    if (slow) parts.push(`${slow} slower than ${days} days or without an estimate (CHEAPEST_WITHIN_DAYS)`);
    refusal = `No rate is left by the rate strategy: of ${eligible.length} matching rates, ${parts.join('; ')}; see available_rates.`;
  }
  return { all, eligible: kept, refusal };
}

/** The package's rate strategy and options: the request's, else the order's selection's (a strategy brings its own days). */
export function inheritedRates(sel: Record<string, unknown>, input: RateOptions) {
  checkRateOptions(input);
  const own = input.rate_strategy != null;
  const strategy = input.rate_strategy ?? (typeof sel.rate_strategy === 'string' ? sel.rate_strategy : null);
  const days = own ? input.rate_within_days : (input.rate_within_days ?? sel.rate_within_days);
  const out = {
    rate_strategy: strategy,
    // Days belong to CHEAPEST_WITHIN_DAYS; beside another strategy (a person's over a rule's days) they are dropped.
    rate_within_days: strategy === 'CHEAPEST_WITHIN_DAYS' && typeof days === 'number' ? days : null,
    rate_exclude_carrier_ids:
      input.rate_exclude_carrier_ids ?? (Array.isArray(sel.rate_exclude_carrier_ids) ? sel.rate_exclude_carrier_ids : null),
  };
  checkRateOptions(out as RateOptions);
  return out;
}
