import type { Db, TxClient } from '../../db/types.js';
import { ORDER_CONFIG_DEFAULTS, PRIORITY_RANK, type HoldReason, type Priority } from '../../contract/orders-enums.js';
import { CONFIG_ACTION_KEYS } from '../../contract/automation-rules.js';
import { conflict, notFound } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import { placeHold } from '../orders/index.js';
import { setOrderTags } from '../orders/index.js';
import { transaction } from '../../db/tx.js';
import { compiled, type CompiledRule } from './compile.js';
import { evaluate, type Outcome } from './evaluate.js';
import { loadOrderFacts, plannedFacts } from './facts.js';
import { dbNow } from '../clock.js';
import * as store from './store.js';

// Writing what the rules decide on an order, inside the caller's transaction: at intake
// (orders/place.ts writeOrder: every channel, draft conversion, import) and on demand. The
// decisions go to Order.automation_trace; carrier-selection fields land in Order.carrier_selection,
// which also remembers which fields a person set (person_set: never touched by a rule) and which a
// rule set (rule_set: a re-run may clear them when no rule sets them any more). Config actions
// land in Order.config the same way (config_rule_set; a key whose value differs from the default
// and that no rule set is a person's). A warehouse routing lands in Order.routed_warehouse_id /
// routed_warehouse_only, which allocation reads (orders/allocation.ts): at intake the rules run
// before allocation (intakeDecision), so the order's first allocation already follows it.

export type Trigger = 'INTAKE' | 'MANUAL';

/** The team's enabled rules, by position, compiled (cached by id + version). */
export async function loadRules(tx: TxClient, teamId: string): Promise<CompiledRule[]> {
  const rows = await store.findEnabledRules(tx, teamId);
  return rows.map(compiled);
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? { ...(v as object) } : {});
const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const DEFAULTS = ORDER_CONFIG_DEFAULTS as Record<string, unknown>;

/** Config keys a person chose: not at the default and not set by a rule. */
export function personConfig(config: unknown, selection: Record<string, unknown>): string[] {
  const c = obj(config);
  const ruled = new Set(list(selection.config_rule_set));
  return CONFIG_ACTION_KEYS.filter((k) => !ruled.has(k) && c[k] !== undefined && !same(c[k], DEFAULTS[k])).map((k) => `config.${k}`);
}

/** At intake, before the order is written: what the rules decide from the planned order (null: no rules). */
export async function intakeDecision(
  tx: TxClient,
  teamId: string,
  fields: Parameters<typeof plannedFacts>[1] & { config?: unknown; carrier_selection?: unknown },
  cores: Parameters<typeof plannedFacts>[2],
  now: number,
): Promise<Outcome | null> {
  const rules = await loadRules(tx, teamId);
  if (!rules.length) return null;
  // A config value the draft or channel brought (not the default) is a person's: kept.
  // So is a carrier selection a person gave on the draft (person_set).
  const person = [...personConfig(fields.config, {}), ...list(obj(fields.carrier_selection).person_set)];
  return evaluate(rules, await plannedFacts(tx, fields, cores, now), new Set(person));
}

/** A rule's rate_within_days beside a strategy other than CHEAPEST_WITHIN_DAYS (a person's) is not kept: it would mean nothing. */
function dropStrayDays(selection: Record<string, unknown>, out: Outcome) {
  if (selection.rate_strategy === 'CHEAPEST_WITHIN_DAYS' || !('rate_within_days' in out.selection)) return;
  delete selection.rate_within_days;
  selection.rule_set = list(selection.rule_set).filter((f) => f !== 'rate_within_days');
  for (const d of out.decisions) delete d.set.rate_within_days;
}

/**
 * Evaluates (or takes the intake's `decided`) and writes; returns the outcome, or null when the
 * order is not the team's or, at intake, there are no rules.
 */
export async function applyRules(
  tx: TxClient,
  teamId: string,
  orderId: string,
  trigger: Trigger,
  now: number,
  decided?: Outcome | null,
): Promise<Outcome | null> {
  if (trigger === 'INTAKE' && decided === null) return null; // nothing to decide: no extra write at intake
  const rules = decided ? [] : await loadRules(tx, teamId);
  if (!decided && !rules.length && trigger === 'INTAKE') return null;
  const loaded = await loadOrderFacts(tx, teamId, orderId, now);
  if (!loaded) return null;
  const { order, facts } = loaded;
  const selection = obj(order.carrier_selection);
  const person = new Set([...list(selection.person_set), ...personConfig(order.config, selection)]);
  const out = decided ?? evaluate(rules, facts, person);
  // Fields a rule set in an earlier run and no rule sets now are cleared (a person's stay).
  for (const f of list(selection.rule_set)) if (!(f in out.selection)) delete selection[f];
  Object.assign(selection, out.selection, { rule_set: Object.keys(out.selection) });
  dropStrayDays(selection, out);
  if (out.selection.carrier_integration_id) {
    const ci = await store.findIntegrationName(tx, out.selection.carrier_integration_id as string);
    Object.assign(selection, { carrier_integration_name: ci?.name ?? null, carrier_integration_type: ci?.type ?? null });
  }
  const config = obj(order.config);
  for (const k of list(selection.config_rule_set)) if (!(k in out.config)) config[k] = DEFAULTS[k] ?? null;
  Object.assign(config, out.config);
  selection.config_rule_set = Object.keys(out.config);
  const data: Record<string, unknown> = {
    carrier_selection: selection,
    config,
    automation_trace: { applied_at: new Date(now).toISOString(), trigger, decisions: out.decisions },
    routed_warehouse_id: out.route?.warehouse_id ?? null,
    routed_warehouse_only: out.route?.only ?? false,
  };
  if (out.tagsChanged) data.tags = out.tags;
  if (out.priority && out.priority !== order.priority) {
    data.priority = out.priority;
    data.priority_rank = PRIORITY_RANK[out.priority as Priority];
  }
  await store.updateOrder(tx, orderId, data);
  if (out.tagsChanged) await setOrderTags(tx, order, out.tags);
  for (const h of out.holds) {
    const active = await store.findActiveHold(tx, orderId, h.reason as HoldReason);
    if (!active) await placeHold(tx, { orderId, reason: h.reason as HoldReason, notes: h.notes ?? null });
  }
  return out;
}

const OPEN = ['OPEN', 'PENDING_FULFILLMENT'];

/** POST /v1/ops/orders/{id}/apply-rules: re-runs the rules on one open order. */
export async function applyRulesToOrder(db: Db, teamId: string, orderId: string) {
  return transaction(db, async (tx) => {
    const order = await store.findTeamOrderStatus(tx, teamId, orderId);
    if (!order) throw notFound('Order', orderId);
    if (!OPEN.includes(order.status)) throw conflict(`Order ${order.order_number} is ${order.status}; rules apply to open orders only.`);
    const out = await applyRules(tx, teamId, orderId, 'MANUAL', dbNow(db));
    await enqueueEvent(tx, teamId, 'order.updated', { order_id: orderId, order_number: order.order_number, changed: ['automation_trace'] });
    return out;
  });
}

/** Every open order of the team, one transaction each (a long run never holds one big lock). */
export async function applyRulesToOpenOrders(db: Db, teamId: string) {
  let orders = 0;
  let changed = 0;
  let after: string | undefined;
  for (;;) {
    const page = await store.findOrderIdsAfter(db.prisma, teamId, OPEN, after);
    if (!page.length) break;
    for (const { id } of page) {
      const out = await transaction(db, (tx) => applyRules(tx, teamId, id, 'MANUAL', dbNow(db)));
      orders += 1;
      if (out?.decisions.length) changed += 1;
    }
    after = page[page.length - 1].id;
  }
  return { orders, changed };
}
