import { SELECTION_ACTIONS } from '../../contract/automation-rules.js';
import type { TxClient } from '../../db/types.js';
import { invalid } from '../errors.js';

// The order's carrier selection (spec 2.6 fields plus rate_strategy) as a person sets it through
// PATCH /v1/ops/orders/{id}. Each field a person gives is recorded in person_set, which automation
// rules respect (docs/automation.md); null clears the field and hands it back to the rules.

type Edit = Partial<Record<(typeof SELECTION_ACTIONS)[number], string | null>>;

export async function personSelection(tx: TxClient, teamId: string, current: unknown, edit: Edit) {
  const given = SELECTION_ACTIONS.filter((f) => edit[f] !== undefined);
  if (!given.length) return null;
  const ci = edit.carrier_integration_id;
  if (ci && !(await tx.carrierIntegration.findFirst({ where: { id: ci, team_id: teamId }, select: { id: true } }))) {
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
  if (edit.carrier_integration_id) {
    const ci2 = await tx.carrierIntegration.findFirst({ where: { id: edit.carrier_integration_id }, select: { name: true, type: true } });
    sel.carrier_integration_name = ci2?.name ?? null;
    sel.carrier_integration_type = ci2?.type ?? null;
  }
  return { ...sel, person_set: [...person], rule_set: [...ruleSet] };
}
