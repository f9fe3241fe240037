import type { CHARGE_CATEGORIES, FeeEvent } from '../../contract/enums.js';
import type { BillableEvent, FeeRule } from '../../contract/rate-cards.js';
import { roundMoney, type Pricing, type TraceEvent } from './rate-card.js';

// Pricing by a versioned rate card (issue 40, docs/billing.md): a pure function of a compiled
// version and one billable event. A version never changes once published, so it is compiled once
// (conditions to sets, rules grouped by event) and kept by its id for every later event.

export type Category = (typeof CHARGE_CATEGORIES)[number];

/** The category each event bills. */
export const CATEGORY_OF: Record<FeeEvent, Category> = {
  STORAGE: 'STORAGE',
  RECEIVING: 'RECEIVING',
  RECEIVING_PO: 'RECEIVING',
  RECEIVING_HOURS: 'RECEIVING',
  PICK: 'PICK',
  PACK: 'PACK',
  PACKAGING: 'PACKAGING',
  SHIPPING: 'SHIPPING',
  RETURN: 'RETURNS',
  KITTING: 'KITTING',
  AD_HOC: 'AD_HOC',
};

/** A version row as stored (rate_card_versions) with its card's name. */
export interface VersionRecord {
  id: string;
  rate_card_id: string;
  rate_card_name: string;
  semantic_version: string;
  effective_at: Date;
  currency: string;
  fees: unknown;
}

interface CompiledRule {
  rule: FeeRule;
  test: (e: BillableEvent) => boolean;
}

export interface CompiledVersion {
  id: string;
  rate_card_id: string;
  rate_card_name: string;
  semantic_version: string;
  effective_at: Date;
  /** effective_at as ISO text, as every charge's trace records it (once per version, not per charge). */
  effective_at_text: string;
  currency: string;
  rules: Map<FeeEvent, CompiledRule[]>;
}

export interface EventPricing extends Pricing {
  category: Category;
  quantity: number;
  version: CompiledVersion;
}

const GRAMS: Record<string, number> = { G: 1, KG: 1000, LB: 453.59237, OZ: 28.349523125 };
const lower = (v: string[] | undefined) => (v ? new Set(v.map((s) => s.toLowerCase())) : null);
const within = (r: { min?: number; max?: number } | undefined, n: number | null | undefined, scale = 1) =>
  !r || (n !== null && n !== undefined && (r.min === undefined || n >= r.min * scale) && (r.max === undefined || n <= r.max * scale));

/** One rule's conditions as a predicate: every condition given holds; lists match case-insensitively. */
function compileConditions(rule: FeeRule): (e: BillableEvent) => boolean {
  const c = rule.conditions ?? {};
  const merchants = c.merchants ? new Set(c.merchants) : null;
  const warehouses = c.warehouses ? new Set(c.warehouses) : null;
  const locationTypes = c.location_types ? new Set(c.location_types) : null;
  const [carriers, services, zones, tags, shops, cartons] = [c.carriers, c.services, c.zones, c.order_tags, c.shop_types, c.cartons].map(
    lower,
  );
  const has = (set: Set<string> | null, ...v: Array<string | null | undefined>) => !set || v.some((x) => !!x && set.has(x.toLowerCase()));
  const weightScale = c.weight ? GRAMS[c.weight.unit as string] : 1;
  return (e) =>
    (!merchants || merchants.has(e.merchant_team_id)) &&
    (!warehouses || (!!e.warehouse_id && warehouses.has(e.warehouse_id))) &&
    (!locationTypes || (!!e.location_type_id && locationTypes.has(e.location_type_id))) &&
    has(carriers, e.carrier, e.carrier_type) &&
    has(services, e.service) &&
    has(zones, e.zone) &&
    has(tags, ...(e.order_tags ?? [])) &&
    has(shops, e.shop_type) &&
    has(cartons, e.carton) &&
    within(c.item_count, e.units) &&
    within(c.weight, e.weight_g, weightScale);
}

export function compileVersion(v: VersionRecord): CompiledVersion {
  const rules = new Map<FeeEvent, CompiledRule[]>();
  for (const rule of (v.fees ?? []) as FeeRule[]) {
    const list = rules.get(rule.event) ?? [];
    list.push({ rule, test: compileConditions(rule) });
    rules.set(rule.event, list);
  }
  const { fees: _fees, ...rest } = v;
  return { ...rest, effective_at_text: v.effective_at.toISOString(), rules };
}

const compiled = new Map<string, CompiledVersion>();
const MAX_COMPILED = 500;

/** The compiled version, compiled at most once per process (versions are immutable). */
export function compiledVersion(v: VersionRecord): CompiledVersion {
  let c = compiled.get(v.id);
  if (!c) {
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(v.id, (c = compileVersion(v)));
  }
  return c;
}
export const cachedVersion = (id: string) => compiled.get(id) ?? null;

/** Graduated tiers: each unit is priced at the tier it falls in. */
function tiered(tiers: NonNullable<FeeRule['price']['tiers']>, n: number): [number, string] {
  let left = n;
  let from = 0;
  let total = 0;
  const parts: string[] = [];
  for (const t of tiers) {
    if (left <= 0) break;
    const take = t.up_to === null ? left : Math.max(0, Math.min(left, t.up_to - from));
    if (take > 0) parts.push(`${take} x ${t.amount}`);
    total += take * t.amount;
    left -= take;
    if (t.up_to !== null) from = t.up_to;
  }
  return [total, parts.join(' + ')];
}

/** Pick fees: the first unit at `first`, every other at its product's pick_fee_override, else `additional`. */
function firstAdditional(p: FeeRule['price'], e: BillableEvent, units: number): [number, string] {
  const first = p.first ?? 0;
  const additional = p.additional ?? p.amount ?? 0;
  if (units <= 0) return [0, 'no units'];
  if (!e.products?.length) return [first + (units - 1) * additional, `first ${first} + ${units - 1} x ${additional}`];
  let total = first;
  let firstTaken = false;
  const parts = [`first ${first}`];
  for (const prod of e.products) {
    const n = firstTaken ? prod.units : prod.units - 1;
    firstTaken = firstTaken || prod.units > 0;
    if (n <= 0) continue;
    const rate = prod.pick_fee_override ?? additional;
    total += n * rate;
    parts.push(`${n} x ${rate}${prod.pick_fee_override !== null && prod.pick_fee_override !== undefined ? ' (override)' : ''}`);
  }
  return [total, parts.join(' + ')];
}

/** Per unit; for picks a product's pick_fee_override replaces the rate for its units. */
function perUnit(p: FeeRule['price'], e: BillableEvent, event: FeeEvent, units: number): [number, string] {
  const rate = p.amount ?? 0;
  if (event !== 'PICK' || !e.products?.length) return [units * rate, `${units} x ${rate}`];
  let total = 0;
  const parts: string[] = [];
  for (const prod of e.products) {
    const r = prod.pick_fee_override ?? rate;
    total += prod.units * r;
    parts.push(`${prod.units} x ${r}`);
  }
  return [total, parts.join(' + ')];
}

/** The amount, the quantity billed and how, or null when the event lacks what the price needs. */
function priceOf(rule: FeeRule, e: BillableEvent): [number, number, string] | null {
  const p = rule.price;
  const units = e.units ?? e.quantity ?? 1;
  const label = e.label_cost;
  switch (p.type) {
    case 'FLAT':
    case 'PER_ORDER':
      return [p.amount ?? 0, 1, `${p.type === 'FLAT' ? 'flat' : 'per order'} ${p.amount ?? 0}`];
    case 'PER_UNIT': {
      if (e.event === 'STORAGE' && e.units === undefined) return null;
      const [a, note] = perUnit(p, e, rule.event, units);
      return [a, units, note];
    }
    case 'PER_LOCATION':
      return e.quantity === undefined ? null : [e.quantity * (p.amount ?? 0), e.quantity, `${e.quantity} locations x ${p.amount ?? 0}`];
    case 'PER_LINE':
      return [(e.lines ?? 0) * (p.amount ?? 0), e.lines ?? 0, `${e.lines ?? 0} lines x ${p.amount ?? 0}`];
    case 'FIRST_ADDITIONAL': {
      const [a, note] = firstAdditional(p, e, units);
      return [a, units, note];
    }
    case 'TIERED': {
      const [a, note] = tiered(p.tiers ?? [], units);
      return [a, units, `tiered: ${note || '0'}`];
    }
    case 'LABEL_PERCENT': {
      if (label === null || label === undefined) return null;
      const a = Math.max(p.minimum ?? 0, (label * (p.percent ?? 0)) / 100);
      return [a, 1, `${p.percent ?? 0}% of label ${label}, minimum ${p.minimum ?? 0}`];
    }
    case 'LABEL_MARKUP': {
      if (label === null || label === undefined) return null;
      const a = Math.max(p.minimum ?? 0, label * (1 + (p.markup_percent ?? 0) / 100) + (p.amount ?? 0));
      return [a, 1, `label ${label} + ${p.markup_percent ?? 0}% markup + ${p.amount ?? 0}, minimum ${p.minimum ?? 0}`];
    }
  }
}

/** Prices one event: the first rule of its event whose conditions hold (and can price it) wins. */
export function priceEvent(version: CompiledVersion, e: BillableEvent): EventPricing {
  const category = CATEGORY_OF[e.event];
  const trigger = e.event.toLowerCase();
  const events: TraceEvent[] = [{ event_type: 'trigger', step_id: trigger, category, matched: version.rules.has(e.event) }];
  let hit: { rule: FeeRule; priced: [number, number, string] } | null = null;
  for (const { rule, test } of version.rules.get(e.event) ?? []) {
    const priced: [number, number, string] | null = hit ? null : test(e) ? priceOf(rule, e) : null;
    events.push({ event_type: 'trigger', step_id: rule.id, category, matched: Boolean(priced) });
    if (priced) hit = { rule, priced };
  }
  const original = e.label_cost !== null && e.label_cost !== undefined && e.event === 'SHIPPING' ? roundMoney(e.label_cost) : null;
  if (!hit) {
    return {
      matched: false,
      calculated_amount: 0,
      original_amount: original ?? 0,
      trigger_step_id: trigger,
      pricing_step_id: null,
      calculation_note: `No ${e.event} fee of rate card ${version.rate_card_name} ${version.semantic_version} applies.`,
      events,
      category,
      quantity: 0,
      version,
    };
  }
  const [raw, quantity, note] = hit.priced;
  const amount = roundMoney(raw);
  return {
    matched: true,
    calculated_amount: amount,
    original_amount: original ?? amount,
    trigger_step_id: trigger,
    pricing_step_id: hit.rule.id,
    calculation_note: `${hit.rule.name ?? hit.rule.id}: ${note} = ${amount}`,
    events,
    category,
    quantity,
    version,
  };
}

/**
 * A day's storage for one merchant, location type and warehouse, by the card's STORAGE fees
 * (PER_UNIT: per unit per day; PER_LOCATION: per occupied location per day; FLAT, TIERED likewise
 * per day). For the daily storage snapshot: `version` is the version in force on `date`
 * (versionAt in versions-store.ts); `date` is recorded, the price does not depend on it.
 */
export function priceStorage(
  version: CompiledVersion | VersionRecord,
  input: { location_type: string; units?: number; locations?: number; merchant: string; warehouse: string; date: string },
): EventPricing & { rate_period: 'DAILY'; event: BillableEvent } {
  const v = 'rules' in version ? version : compiledVersion(version);
  const event: BillableEvent = {
    event: 'STORAGE',
    merchant_team_id: input.merchant,
    warehouse_id: input.warehouse,
    location_type_id: input.location_type,
    ...(input.units !== undefined ? { units: input.units } : {}),
    ...(input.locations !== undefined ? { quantity: input.locations } : {}),
  };
  const pricing = priceEvent(v, event);
  return { ...pricing, calculation_note: `${input.date}: ${pricing.calculation_note}`, rate_period: 'DAILY', event };
}
