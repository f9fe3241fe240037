import {
  SELECTION_ACTIONS,
  type Actions,
  type ConfigActionKey,
  type SelectionField,
  type SelectionValue,
} from '../../contract/automation-rules.js';
import type { CompiledRule, OrderFacts } from './compile.js';

// Runs the ordered rules over one order, without writing. Precedence: rules run by position;
// the first matching rule to set a field wins it (a later rule does not overwrite it in the same
// run); tags added or removed are seen by later rules; `stop` ends the run. A carrier-selection
// field a person chose (person_set) is never set: the decision lists it under `kept`. Config
// actions (signature, insurance, customs) land in the order's config, keyed `config.<key>` in
// set/kept; a warehouse routing is the first matching rule's.

export interface Decision {
  rule_id: string;
  rule_name: string;
  version: number;
  set: Record<string, unknown>;
  kept: string[];
  stopped: boolean;
}

export interface Outcome {
  decisions: Decision[];
  selection: Partial<Record<SelectionField, SelectionValue>>;
  tags: string[];
  tagsChanged: boolean;
  priority: string | null;
  holds: { reason: string; notes?: string }[];
  /** Order config keys the rules set (person-chosen ones excluded). */
  config: Partial<Record<ConfigActionKey, unknown>>;
  route: { warehouse_id: string; only: boolean } | null;
}

/** The order config values an action writes. */
export function configOf(a: Actions): Partial<Record<ConfigActionKey, unknown>> {
  const out: Partial<Record<ConfigActionKey, unknown>> = { ...(a.customs ?? {}) };
  if (a.delivery_confirmation) out.delivery_confirmation = a.delivery_confirmation;
  if (a.insurance_amount !== undefined) out.insurance_policy = { mode: 'amount', amount: a.insurance_amount };
  return out;
}

export function evaluate(rules: CompiledRule[], facts: OrderFacts, personSet: ReadonlySet<string>): Outcome {
  const out: Outcome = {
    decisions: [],
    selection: {},
    tags: [...facts.tags],
    tagsChanged: false,
    priority: null,
    holds: [],
    config: {},
    route: null,
  };
  const tags = new Set(facts.tags);
  const f: OrderFacts = { ...facts, tags };
  for (const rule of rules) {
    if (rule.merchant_team_id && rule.merchant_team_id !== f.merchant_team_id) continue;
    if (!rule.test(f)) continue;
    const a = rule.actions;
    const d: Decision = { rule_id: rule.id, rule_name: rule.name, version: rule.version, set: {}, kept: [], stopped: !!a.stop };
    for (const field of SELECTION_ACTIONS) {
      const v = a[field];
      if (v === undefined) continue;
      if (personSet.has(field)) d.kept.push(field);
      else if (!(field in out.selection)) d.set[field] = out.selection[field] = v;
    }
    for (const [k, v] of Object.entries(configOf(a)) as [ConfigActionKey, unknown][]) {
      if (personSet.has(`config.${k}`)) d.kept.push(`config.${k}`);
      else if (!(k in out.config)) d.set[`config.${k}`] = out.config[k] = v;
    }
    if (a.warehouse_id && !out.route) {
      out.route = { warehouse_id: a.warehouse_id, only: !!a.warehouse_only };
      d.set.warehouse_id = a.warehouse_id;
      if (a.warehouse_only) d.set.warehouse_only = true;
    }
    if (a.priority && out.priority === null) d.set.priority = out.priority = f.priority = a.priority;
    const added = (a.add_tags ?? []).filter((t) => !tags.has(t));
    const removed = (a.remove_tags ?? []).filter((t) => tags.has(t));
    for (const t of added) tags.add(t);
    for (const t of removed) tags.delete(t);
    if (added.length) d.set.add_tags = added;
    if (removed.length) d.set.remove_tags = removed;
    if (added.length || removed.length) out.tagsChanged = true;
    if (a.hold && !out.holds.some((h) => h.reason === a.hold!.reason)) {
      out.holds.push(a.hold);
      d.set.hold = a.hold;
    }
    out.decisions.push(d);
    if (a.stop) break;
  }
  out.tags = [...tags];
  return out;
}
