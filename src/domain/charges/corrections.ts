import type { Prisma, TxClient } from '../../db/types.js';
import type { BillableEvent } from '../../contract/rate-cards.js';
import { chargeRow, priceBillable } from './billing.js';
import { cachedVersion, compiledVersion, type EventPricing } from './pricing.js';
import { findCardName, findVersion } from './store/rate-cards.js';

// A carrier's correction of a label whose SHIPPING charge a versioned card billed (docs/billing.md,
// docs/carrier-invoices.md): the shipping event priced by the same version at the corrected cost,
// less its price at the cost before this correction, so the rule's minimum and percentages hold
// for the final cost and successive corrections add up to its price.

interface Billed {
  pricing_trace: unknown;
  fulfillment_delegation_id: string | null;
  merchant_team_id: string;
  fulfiller_team_id: string;
}

/** The difference to bill (negative: a credit) and its pricing record; null when the charge was not priced by a versioned card. */
export async function versionedCorrection(tx: TxClient, billed: Billed, cost: { corrected: number; delta: number }, name: string) {
  const trace = (billed.pricing_trace ?? {}) as { version_id?: string; event?: BillableEvent };
  if (!trace.event || !trace.version_id || !billed.fulfillment_delegation_id) return null;
  let version = cachedVersion(trace.version_id);
  if (!version) {
    const v = await findVersion(tx, trace.version_id);
    if (!v) return null;
    const card = await findCardName(tx, v.rate_card_id);
    version = compiledVersion({ ...v, rate_card_name: card.name });
  }
  const event = { ...trace.event, label_cost: cost.corrected };
  const previous = { ...trace.event, label_cost: Math.round((cost.corrected - cost.delta) * 100) / 100 };
  const priced = priceBillable(version, { key: '', event, name });
  const was = priceBillable(version, { key: '', event: previous, name });
  if (!priced) return null;
  const amount = Math.round((priced.calculated_amount - (was?.calculated_amount ?? 0)) * 100) / 100;
  const pricing: EventPricing = {
    ...priced,
    calculated_amount: amount,
    original_amount: Math.round(cost.delta * 100) / 100,
    trigger_step_id: 'shipping.carrier_correction',
    calculation_note: `carrier correction: ${priced.calculation_note}, less ${was?.calculated_amount ?? 0} at cost ${previous.label_cost} = ${amount}`,
  };
  const d = {
    id: billed.fulfillment_delegation_id,
    merchant_team_id: billed.merchant_team_id,
    fulfiller_team_id: billed.fulfiller_team_id,
  };
  const row = chargeRow({ ...d, rate_card_id: version.rate_card_id, active: true }, { key: '', event, name }, pricing);
  return {
    amount,
    original_amount: pricing.original_amount,
    pricing_config: row.pricing_config as Prisma.InputJsonValue,
    pricing_trace: row.pricing_trace as Prisma.InputJsonValue,
  };
}
