import { SELECTION_ACTIONS, type SelectionField, type SelectionValue } from '../../contract/automation-rules.js';
import type { RateOptions } from '../../contract/rate-strategy.js';
import { checkRateOptions, withoutStaleDays } from './rate-options.js';
import type { TxClient } from '../../db/types.js';
import { invalid } from '../errors.js';
import { findCarrierIntegrationName, findTeamCarrierIntegrationId } from './store/selection.js';

// The order's carrier selection (spec 2.6 fields plus rate_strategy) as a person sets it through
// PATCH /v1/ops/orders/{id}. Each field a person gives is recorded in person_set, which automation
// rules respect (docs/automation.md); null clears the field and hands it back to the rules.

export type SelectionEdit = Partial<Record<SelectionField, SelectionValue | null>>;

export async function personSelection(tx: TxClient, teamId: string, current: unknown, given0: SelectionEdit) {
  const edit = withoutStaleDays(given0);
  const given = SELECTION_ACTIONS.filter((f) => edit[f] !== undefined);
  if (!given.length) return null;
  const ci = edit.carrier_integration_id as string | null | undefined;
  if (ci && !(await findTeamCarrierIntegrationId(tx, teamId, ci))) {
    throw invalid('body.carrier_integration_id', `no carrier integration ${ci} in this team`);
  }
  const sel: Record<string, unknown> = current && typeof current === 'object' ? { ...(current as object) } : {};
  const person = new Set(Array.isArray(sel.person_set) ? (sel.person_set as string[]) : []);
  const ruleSet = new Set(Array.isArray(sel.rule_set) ? (sel.rule_set as string[]) : []);
  for (const f of given) {
    const v = edit[f];
    ruleSet.delete(f);
    if (v === null) {
      delete sel[f];
      person.delete(f);
    } else {
      sel[f] = v;
      person.add(f);
    }
  }
  if (ci) {
    const ci2 = await findCarrierIntegrationName(tx, ci);
    sel.carrier_integration_name = ci2?.name ?? null;
    sel.carrier_integration_type = ci2?.type ?? null;
  }
  checkRateOptions(sel as RateOptions);
  return { ...sel, person_set: [...person], rule_set: [...ruleSet] };
}

/** The selection fields as a draft order shows them (null: not chosen). */
export function selectionView(selection: unknown): Record<SelectionField, SelectionValue | null> {
  const sel = selection && typeof selection === 'object' ? (selection as Record<string, unknown>) : {};
  return Object.fromEntries(SELECTION_ACTIONS.map((f) => [f, (sel[f] as SelectionValue | undefined) ?? null])) as Record<
    SelectionField,
    SelectionValue | null
  >;
}
