import type { FieldError } from '../errors.js';

// The rate card stored as JSON on FulfillmentDelegation.rate_card (format: docs/charges.md).
// Pricing is a pure function of the card and the charge's inputs; it returns the amount and a
// trace of the steps it evaluated, which the charge keeps as pricing_trace.

import { RATE_PERIODS, type CHARGE_CATEGORIES, type RatePeriod } from '../../contract/enums.js';
export { RATE_PERIODS, type RatePeriod };
export type ChargeCategory = (typeof CHARGE_CATEGORIES)[number];

type PeriodRates = Partial<Record<RatePeriod, number>>;
interface ShippingRule {
  fee_per_package?: number;
  markup_percent?: number;
}

export interface RateCard {
  id: string;
  name: string;
  version_id: string;
  semantic_version: string;
  currency: string;
  storage?: { rate_per_unit?: PeriodRates; by_location_type?: Record<string, PeriodRates> };
  receiving?: { rate_per_unit?: number };
  shipping?: ShippingRule & { by_service?: Record<string, ShippingRule> };
}

export interface TraceEvent {
  event_type: 'trigger';
  step_id: string;
  category: ChargeCategory;
  matched: boolean;
}

export interface Pricing {
  matched: boolean;
  calculated_amount: number;
  original_amount: number;
  trigger_step_id: string;
  pricing_step_id: string | null;
  calculation_note: string;
  events: TraceEvent[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRate = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Money is kept to cents (half away from zero). */
export const roundMoney = (n: number) => (Math.sign(n) * Math.round((Math.abs(n) + Number.EPSILON) * 100)) / 100;

/** Problems with a rate card document; empty when it is usable. For `fos admin` and tests. */
export function validateRateCard(json: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const err = (path: string, message: string) => errors.push({ path, message });
  if (!isObj(json)) return [{ path: 'rate_card', message: 'must be an object' }];
  for (const k of ['id', 'name', 'version_id', 'semantic_version'] as const) {
    if (typeof json[k] !== 'string' || !json[k]) err(`rate_card.${k}`, 'must be a non-empty string');
  }
  if (json.currency !== undefined && (typeof json.currency !== 'string' || !/^[A-Z]{3}$/.test(json.currency))) {
    err('rate_card.currency', 'must be an ISO 4217 code');
  }
  const periods = (path: string, v: unknown) => {
    if (!isObj(v)) return err(path, 'must be an object of rate period -> rate');
    for (const [p, r] of Object.entries(v)) {
      if (!(RATE_PERIODS as readonly string[]).includes(p)) err(`${path}.${p}`, `must be one of ${RATE_PERIODS.join(', ')}`);
      else if (!isRate(r)) err(`${path}.${p}`, 'must be a number >= 0');
    }
  };
  const rule = (path: string, v: unknown) => {
    if (!isObj(v)) return err(path, 'must be an object');
    if (v.fee_per_package !== undefined && !isRate(v.fee_per_package)) err(`${path}.fee_per_package`, 'must be a number >= 0');
    if (v.markup_percent !== undefined && (typeof v.markup_percent !== 'number' || v.markup_percent < -100)) {
      err(`${path}.markup_percent`, 'must be a number >= -100');
    }
  };
  if (json.storage !== undefined) {
    if (!isObj(json.storage)) err('rate_card.storage', 'must be an object');
    else {
      if (json.storage.rate_per_unit !== undefined) periods('rate_card.storage.rate_per_unit', json.storage.rate_per_unit);
      if (json.storage.by_location_type !== undefined) {
        if (!isObj(json.storage.by_location_type)) err('rate_card.storage.by_location_type', 'must be an object');
        else for (const [id, v] of Object.entries(json.storage.by_location_type)) periods(`rate_card.storage.by_location_type.${id}`, v);
      }
    }
  }
  if (json.receiving !== undefined) {
    if (!isObj(json.receiving)) err('rate_card.receiving', 'must be an object');
    else if (json.receiving.rate_per_unit !== undefined && !isRate(json.receiving.rate_per_unit)) {
      err('rate_card.receiving.rate_per_unit', 'must be a number >= 0');
    }
  }
  if (json.shipping !== undefined) {
    rule('rate_card.shipping', json.shipping);
    if (isObj(json.shipping) && json.shipping.by_service !== undefined) {
      if (!isObj(json.shipping.by_service)) err('rate_card.shipping.by_service', 'must be an object');
      else for (const [id, v] of Object.entries(json.shipping.by_service)) rule(`rate_card.shipping.by_service.${id}`, v);
    }
  }
  return errors;
}

/** The stored card, or null when the delegation has none or it is unusable. */
export function parseRateCard(json: unknown): RateCard | null {
  if (json === null || json === undefined || validateRateCard(json).length) return null;
  const card = json as unknown as RateCard & { currency?: string };
  return { ...card, currency: card.currency ?? 'USD' };
}

const trigger = (step_id: string, category: ChargeCategory, matched: boolean): TraceEvent => ({
  event_type: 'trigger',
  step_id,
  category,
  matched,
});

function noMatch(category: ChargeCategory, events: TraceEvent[], note: string): Pricing {
  return {
    matched: false,
    calculated_amount: 0,
    original_amount: 0,
    trigger_step_id: category.toLowerCase(),
    pricing_step_id: null,
    calculation_note: note,
    events,
  };
}

/** Storage: a location-type rate for the period wins over the card's general rate for it. */
export function priceJsonCardStorage(
  card: RateCard,
  input: { location_type_id: string; rate_period: RatePeriod; quantity: number },
): Pricing {
  const section = card.storage;
  const events = [trigger('storage', 'STORAGE', Boolean(section))];
  if (!section) return noMatch('STORAGE', events, 'The rate card has no storage section.');
  const candidates: Array<[string, number | undefined]> = [
    [
      `storage.by_location_type.${input.location_type_id}.${input.rate_period}`,
      section.by_location_type?.[input.location_type_id]?.[input.rate_period],
    ],
    [`storage.rate_per_unit.${input.rate_period}`, section.rate_per_unit?.[input.rate_period]],
  ];
  return firstMatch('STORAGE', events, candidates, input.quantity, `per unit ${input.rate_period}`);
}

export function priceReceiving(card: RateCard, input: { quantity: number }): Pricing {
  const section = card.receiving;
  const events = [trigger('receiving', 'RECEIVING', Boolean(section))];
  if (!section) return noMatch('RECEIVING', events, 'The rate card has no receiving section.');
  return firstMatch('RECEIVING', events, [['receiving.rate_per_unit', section.rate_per_unit]], input.quantity, 'per unit received');
}

function firstMatch(
  category: ChargeCategory,
  events: TraceEvent[],
  candidates: Array<[string, number | undefined]>,
  quantity: number,
  unit: string,
): Pricing {
  let hit: [string, number] | undefined;
  for (const [step, rate] of candidates) {
    const matched = !hit && rate !== undefined;
    events.push(trigger(step, category, matched));
    if (matched) hit = [step, rate];
  }
  if (!hit) return noMatch(category, events, `The rate card has no ${category.toLowerCase()} rate ${unit}.`);
  const amount = roundMoney(quantity * hit[1]);
  return {
    matched: true,
    calculated_amount: amount,
    original_amount: amount,
    trigger_step_id: category.toLowerCase(),
    pricing_step_id: hit[0],
    calculation_note: `${quantity} x ${hit[1]} ${unit} = ${amount}`,
    events,
  };
}

/** Shipping: label price plus markup_percent, plus fee_per_package; a by_service rule overrides both. */
export function priceShipping(card: RateCard, input: { label_price: number; service_id: string | null }): Pricing {
  const section = card.shipping;
  const events = [trigger('shipping', 'SHIPPING', Boolean(section))];
  if (!section) return noMatch('SHIPPING', events, 'The rate card has no shipping section.');
  const byService = input.service_id ? section.by_service?.[input.service_id] : undefined;
  events.push(trigger(`shipping.by_service.${input.service_id ?? 'none'}`, 'SHIPPING', Boolean(byService)));
  const rule = byService ?? section;
  events.push(trigger('shipping.default', 'SHIPPING', !byService));
  const markup = rule.markup_percent ?? 0;
  const fee = rule.fee_per_package ?? 0;
  const amount = roundMoney(input.label_price * (1 + markup / 100) + fee);
  return {
    matched: true,
    calculated_amount: amount,
    original_amount: roundMoney(input.label_price),
    trigger_step_id: 'shipping',
    pricing_step_id: byService ? `shipping.by_service.${input.service_id}` : 'shipping.default',
    calculation_note: `label ${input.label_price} + ${markup}% markup + ${fee} per package = ${amount}`,
    events,
  };
}

/**
 * A carrier's correction of a label cost already billed: the difference with the same markup
 * as the shipping rule that priced it (by_service, else the default); the per-package fee was
 * billed once and is not repeated. Negative for a credit.
 */
export function priceShippingCorrection(card: RateCard, input: { cost_delta: number; service_id: string | null }): Pricing {
  const section = card.shipping;
  const events = [trigger('shipping', 'SHIPPING', Boolean(section))];
  if (!section) return noMatch('SHIPPING', events, 'The rate card has no shipping section.');
  const byService = input.service_id ? section.by_service?.[input.service_id] : undefined;
  const markup = (byService ?? section).markup_percent ?? 0;
  const step = byService ? `shipping.by_service.${input.service_id}` : 'shipping.default';
  events.push(trigger(step, 'SHIPPING', true));
  const amount = roundMoney(input.cost_delta * (1 + markup / 100));
  return {
    matched: true,
    calculated_amount: amount,
    original_amount: roundMoney(input.cost_delta),
    trigger_step_id: 'shipping.carrier_correction',
    pricing_step_id: step,
    calculation_note: `carrier correction ${roundMoney(input.cost_delta)} + ${markup}% markup = ${amount}`,
    events,
  };
}
