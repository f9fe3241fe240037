import { DomainError } from '../../errors.js';
import { allowedMs } from '../../../net/deadlines.js';
import type { Address } from '../lookups.js';
import type { CarrierAdapter, CustomsInfo, Rate, RateError, RatePackage } from '../../../connectors/carriers/types.js';

// Rate shopping: every adapter is asked at once; one that has not answered within the timeout
// (FOS_DEADLINE_RATES_MS, 10 s; the outbound layer's own deadline) or fails is reported in detailed_errors and the others are
// still used. The choice: CHEAPEST (then fastest), FASTEST (estimated days, then cheapest), or
// the named service_id / carrier_id.

export type RateStrategy = 'CHEAPEST' | 'FASTEST';

// FOS_CARRIER_RATE_TIMEOUT_MS is the older name of FOS_DEADLINE_RATES_MS (src/net/deadlines.ts).
export const rateTimeoutMs = () => Number(process.env.FOS_CARRIER_RATE_TIMEOUT_MS) || allowedMs('rates');

export interface Quote {
  adapter: CarrierAdapter;
  rates: Rate[];
  errors: RateError[];
}

const errorOf = (a: CarrierAdapter, message: string): RateError => ({
  carrier_type: a.type.toLowerCase(),
  message: `${a.name}: ${message}`,
});

/** One adapter's quote, or its failure / timeout as a rate error (never thrown). */
async function quoteOne(a: CarrierAdapter, pkg: RatePackage, to: Address, customs: CustomsInfo | null, timeoutMs: number): Promise<Quote> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Quote>((resolve) => {
    timer = setTimeout(
      () => resolve({ adapter: a, rates: [], errors: [errorOf(a, `no answer within ${timeoutMs} ms (timed out).`)] }),
      timeoutMs,
    );
  });
  const quote = a.rate(pkg, to, customs).then(
    (q) => ({ adapter: a, rates: q.rates, errors: q.errors }),
    (e: unknown) => {
      // Only an adapter's own refusals are shown; anything else (a driver or database error)
      // stays out of responses and stored rate_error_data.
      const message = e instanceof DomainError ? e.message : 'The carrier service could not be quoted.';
      return {
        adapter: a,
        rates: [] as Rate[],
        errors: [a.remote ? errorOf(a, message) : { carrier_type: a.type.toLowerCase(), message }],
      };
    },
  );
  try {
    return await Promise.race([quote, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function quoteAll(
  adapters: CarrierAdapter[],
  pkg: RatePackage,
  to: Address,
  customs: CustomsInfo | null,
  timeoutMs = rateTimeoutMs(),
) {
  return Promise.all(adapters.map((a) => quoteOne(a, pkg, to, customs, timeoutMs)));
}

export interface Choice {
  strategy?: RateStrategy | null;
  carrier_id?: string;
  service_id?: string;
}

/** The rates that fit the choice, best first. */
export function rank(quotes: Quote[], choice: Choice) {
  const all = quotes.flatMap((q) => q.rates.map((rate) => ({ rate, adapter: q.adapter })));
  const eligible = all.filter(
    ({ rate }) =>
      (!choice.service_id || rate.service_id === choice.service_id) && (!choice.carrier_id || rate.carrier_id === choice.carrier_id),
  );
  const days = (r: Rate) => r.estimated_days ?? 99;
  eligible.sort(
    (a, b) =>
      (choice.strategy === 'FASTEST'
        ? days(a.rate) - days(b.rate) || a.rate.amount - b.rate.amount
        : a.rate.amount - b.rate.amount || days(a.rate) - days(b.rate)) || a.rate.service_name.localeCompare(b.rate.service_name),
  );
  return { all, eligible };
}

/** rate_error_data exactly as spec 2.7 shapes it. */
export function rateErrorData(message: string, quotes: Quote[], all: Array<{ rate: Rate }>) {
  return {
    message,
    detailed_errors: quotes.flatMap((q) => q.errors).map((e) => ({ carrier_type: e.carrier_type, message: e.message })),
    available_rates: all.map(({ rate: r }) => ({
      currency: r.currency,
      amount: r.amount,
      service_name: r.service_name,
      carrier_name: r.carrier_name,
      service_id: r.service_id,
      carrier_id: r.carrier_id,
      carrier_integration_type: r.carrier_integration_type,
      carrier_integration_id: r.carrier_integration_id,
      estimated_days: r.estimated_days,
      delivery_date_guaranteed: r.delivery_date_guaranteed,
      delivery_date: r.delivery_date?.toISOString() ?? null,
      provider_rate_id: r.provider_rate_id,
    })),
  };
}
