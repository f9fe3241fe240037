import { inLists } from '../../db/in-lists.js';
import type { TxClient } from '../../db/types.js';
import { txStamps } from '../clock.js';
import { announceCharge, jsonPricing } from '../charges/index.js';
import { priceShippingCorrection } from '../charges/index.js';
import { shippingRateCard } from '../charges/index.js';
import { versionedCorrection } from '../charges/index.js';
import type { InvoiceLine } from './import.js';
import { findShippingCharges, insertCharge, type MatchedLabel } from './store.js';

// The merchant's side of a carrier correction: when the label's shipping was billed at fulfill
// (a SHIPPING charge exists for its fulfillment), the cost difference is billed — or credited
// when negative — with the markup of the same rate-card rule (priceShippingCorrection; a versioned
// card's: charges/corrections.ts). A label
// not fulfilled yet is billed later at its corrected cost (charges/shipping.ts), so nothing here.

export interface BilledCorrection {
  id: string;
  shipping_label_id: string;
  tracking_number: string;
  amount: number;
  currency: string;
}

/**
 * A biller for one import: the SHIPPING charges of the labels' fulfillments are read in one go
 * (not once per label), and each merchant's rate card once.
 */
type Billed = {
  fulfillment_id: string | null;
  warehouse_id: string | null;
  warehouse_name: string | null;
  calculated_amount: number;
  pricing_trace: unknown;
  fulfillment_delegation_id: string | null;
  merchant_team_id: string;
  fulfiller_team_id: string;
};

/** What prices a correction's charge: its amounts and the pricing fields of the card that priced it. */
interface CorrectionPrice {
  currency: string;
  calculated_amount: number;
  original_amount: number;
  fulfillment_delegation_id: string | null;
  /** pricing_config and pricing_trace, of a versioned card or of the JSON card. */
  pricing: ReturnType<typeof jsonPricing>;
}

/** The correction's charge, written and announced (charge.created), and what the import reports of it. */
async function recordCorrection(
  tx: TxClient,
  label: MatchedLabel,
  line: InvoiceLine,
  shipped: Billed,
  name: string,
  price: CorrectionPrice,
): Promise<BilledCorrection> {
  const fulfillment = label.package.fulfillment!;
  const charge = await announceCharge(
    tx,
    await insertCharge(tx, {
      name,
      description: [line.correction_type, line.correction_reason].filter(Boolean).join(': ') || null,
      category: 'SHIPPING',
      currency: price.currency,
      quantity: 1,
      calculated_amount: price.calculated_amount,
      original_amount: price.original_amount,
      merchant_team_id: label.merchant_team_id,
      fulfiller_team_id: label.fulfiller_team_id,
      fulfillment_delegation_id: price.fulfillment_delegation_id,
      order_id: fulfillment.order_id,
      fulfillment_order_id: fulfillment.fulfillment_order_id,
      // fulfillment_id stays null (and no billing key): the fulfillment's SHIPPING charge is the fulfill's own.
      shipping_label_id: label.id,
      carrier_id: label.carrier_id,
      carrier_integration_id: label.carrier_integration_id,
      carrier_integration_name: label.carrier_integration_name,
      carrier_integration_type: label.carrier_integration_type,
      service_id: label.service_id,
      warehouse_id: shipped.warehouse_id,
      warehouse_name: shipped.warehouse_name,
      ...price.pricing,
      ...txStamps(tx),
    }),
  );
  return {
    id: charge.id,
    shipping_label_id: label.id,
    tracking_number: label.tracking_code ?? line.tracking_number,
    amount: charge.calculated_amount,
    currency: charge.currency,
  };
}

export async function correctionBiller(tx: TxClient, labels: MatchedLabel[]) {
  const fulfillments = labels.map((l) => l.package.fulfillment?.id).filter((id): id is string => Boolean(id));
  const billed = new Map<string, Billed>();
  for (const some of inLists(fulfillments)) {
    const rows = await findShippingCharges(tx, some);
    for (const r of rows) billed.set(r.fulfillment_id!, r);
  }
  const cards = new Map<string, ReturnType<typeof shippingRateCard>>();

  return async function bill(label: MatchedLabel, costDelta: number, line: InvoiceLine): Promise<BilledCorrection | null> {
    const fulfillment = label.package.fulfillment;
    const shipped = fulfillment ? billed.get(fulfillment.id) : undefined;
    if (!fulfillment || !shipped) return null;
    const name = `Carrier correction ${label.tracking_code} (invoice ${line.carrier_invoice_number})`;
    // Billed by a versioned card: priced again by that version at the corrected cost (charges/corrections.ts).
    const versioned = await versionedCorrection(tx, shipped, { corrected: line.corrected_carrier_cost, delta: costDelta }, name);
    if (versioned) {
      if (versioned.amount === 0) return null;
      return recordCorrection(tx, label, line, shipped, name, {
        currency: label.currency ?? 'USD',
        calculated_amount: versioned.amount,
        original_amount: versioned.original_amount,
        fulfillment_delegation_id: shipped.fulfillment_delegation_id,
        pricing: { pricing_config: versioned.pricing_config, pricing_trace: versioned.pricing_trace },
      });
    }
    if (!cards.has(label.merchant_team_id))
      cards.set(label.merchant_team_id, shippingRateCard(tx, label.merchant_team_id, label.fulfiller_team_id));
    const priced = await cards.get(label.merchant_team_id)!;
    if (!priced) return null;
    const { delegation, card } = priced;
    const pricing = priceShippingCorrection(card, { cost_delta: costDelta, service_id: label.service_id });
    if (pricing.calculated_amount === 0) return null;
    return recordCorrection(tx, label, line, shipped, name, {
      currency: label.currency ?? card.currency,
      calculated_amount: pricing.calculated_amount,
      original_amount: pricing.original_amount,
      fulfillment_delegation_id: delegation.id,
      pricing: jsonPricing(card, { category: 'SHIPPING', origination: 'MANUAL', shipping_label: null, order: null }, pricing),
    });
  };
}
