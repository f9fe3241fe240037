import type { Actions, Condition } from '../../contract/automation-rules.js';

// A rule version compiled once into a closure over precomputed sets (cached by id + version), so
// evaluating 100 rules against an order is a few set lookups each: no JSON walking per order.

/** What conditions read from an order (facts.ts builds it from the rows, or from a test body). */
export interface OrderFacts {
  merchant_team_id: string | null;
  shop_id: string | null;
  shop_type: string | null;
  tags: Set<string>;
  country: string;
  state: string;
  zip: string;
  /** grams */
  weight: number;
  item_count: number;
  line_count: number;
  order_total: number;
  skus: Set<string>;
  shipping_method: string;
  priority: string;
  /** address_residential is RESIDENTIAL */
  residential: boolean;
  /** mm: the longest side of any unit */
  longest_side: number;
  /** cm³: all units */
  volume: number;
  /** epoch ms, or null when the order has none */
  deliver_by: number | null;
  /** epoch ms: when the rules run (the injected clock) */
  now: number;
}

export type Test = (f: OrderFacts) => boolean;

export interface RuleRow {
  id: string;
  name: string;
  version: number;
  enabled: boolean;
  position: number;
  merchant_team_id: string | null;
  conditions: unknown;
  actions: unknown;
}

export interface CompiledRule {
  id: string;
  name: string;
  version: number;
  merchant_team_id: string | null;
  test: Test;
  actions: Actions;
}

const upper = (xs: string[]) => new Set(xs.map((x) => x.trim().toUpperCase()));

const inRange =
  (key: 'weight' | 'item_count' | 'line_count' | 'order_total' | 'longest_side' | 'volume', r: { gte?: number; lte?: number }): Test =>
  (f) =>
    (r.gte === undefined || f[key] >= r.gte) && (r.lte === undefined || f[key] <= r.lte);

function leafTests(c: Condition): Test[] {
  const t: Test[] = [];
  const member = (key: 'merchant_team_id' | 'shop_id' | 'shop_type', xs: string[]) => {
    const set = new Set(xs);
    t.push((f) => f[key] !== null && set.has(f[key]));
  };
  if (c.merchant_team_id) member('merchant_team_id', c.merchant_team_id);
  if (c.shop_id) member('shop_id', c.shop_id);
  if (c.shop_type) member('shop_type', c.shop_type);
  if (c.tags_any) {
    const xs = c.tags_any;
    t.push((f) => xs.some((x) => f.tags.has(x)));
  }
  if (c.tags_all) {
    const xs = c.tags_all;
    t.push((f) => xs.every((x) => f.tags.has(x)));
  }
  if (c.tags_none) {
    const xs = c.tags_none;
    t.push((f) => !xs.some((x) => f.tags.has(x)));
  }
  for (const key of ['country', 'state', 'shipping_method', 'priority'] as const) {
    const xs = c[key];
    if (!xs) continue;
    const set = upper(xs);
    t.push((f) => set.has(f[key]));
  }
  if (c.zip_prefix) {
    const xs = c.zip_prefix.map((z) => z.trim().toUpperCase());
    t.push((f) => xs.some((z) => f.zip.startsWith(z)));
  }
  for (const key of ['weight', 'item_count', 'line_count', 'order_total', 'longest_side', 'volume'] as const) {
    const r = c[key];
    if (r) t.push(inRange(key, r));
  }
  if (c.skus_any) {
    const xs = c.skus_any;
    t.push((f) => xs.some((x) => f.skus.has(x)));
  }
  if (c.skus_all) {
    const xs = c.skus_all;
    t.push((f) => xs.every((x) => f.skus.has(x)));
  }
  if (c.skus_only) {
    const set = new Set(c.skus_only);
    t.push((f) => f.skus.size > 0 && [...f.skus].every((s) => set.has(s)));
  }
  if (c.residential !== undefined) {
    const want = c.residential;
    t.push((f) => f.residential === want);
  }
  if (c.deliver_by) {
    const { present, within_hours, after_hours } = c.deliver_by;
    if (present !== undefined) t.push((f) => (f.deliver_by !== null) === present);
    if (within_hours !== undefined) t.push((f) => f.deliver_by !== null && f.deliver_by - f.now <= within_hours * HOUR);
    if (after_hours !== undefined) t.push((f) => f.deliver_by !== null && f.deliver_by - f.now > after_hours * HOUR);
  }
  return t;
}

const HOUR = 3_600_000;

/** A node holds when every leaf test, every `all`, some `any` and not the `not` hold. */
export function compileCondition(c: Condition): Test {
  const tests = leafTests(c);
  if (c.all) {
    const subs = c.all.map(compileCondition);
    tests.push((f) => subs.every((s) => s(f)));
  }
  if (c.any) {
    const subs = c.any.map(compileCondition);
    tests.push((f) => subs.some((s) => s(f)));
  }
  if (c.not) {
    const sub = compileCondition(c.not);
    tests.push((f) => !sub(f));
  }
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0];
  return (f) => tests.every((s) => s(f));
}

const cache = new Map<string, CompiledRule>();
const CACHE_MAX = 10_000;

/** The compiled form of this rule version (compiled on first use). */
export function compiled(row: RuleRow): CompiledRule {
  const key = `${row.id}@${row.version}`;
  let c = cache.get(key);
  if (!c) {
    if (cache.size >= CACHE_MAX) cache.clear();
    c = {
      id: row.id,
      name: row.name,
      version: row.version,
      merchant_team_id: row.merchant_team_id,
      test: compileCondition(row.conditions as Condition),
      actions: row.actions as Actions,
    };
    cache.set(key, c);
  }
  return c;
}
