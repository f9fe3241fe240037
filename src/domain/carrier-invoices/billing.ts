import type { TxClient } from '../../db/types.js';
import { jsonPricing } from '../charges/charges.js';
import { chargePayload } from '../charges/pricing-record.js';
import { parseRateCard, priceShippingCorrection } from '../charges/rate-card.js';
import { enqueueForParties } from '../events/outbox.js';
import type { InvoiceLine, MatchedLabel } from './import.js';

// The merchant's side of a carrier correction: when the label's shipping was billed at fulfil
// (a SHIPPING charge exists for its fulfillment), the cost difference is billed — or credited
// when negative — with the markup of the same rate-card rule (priceShippingCorrection). A label
// not fulfilled yet is billed later at its corrected cost (charges/shipping.ts), so nothing here.

export interface BilledCorrection {
  id: string;
  shipping_label_id: string;
  tracking_number: string;
  amount: number;
  currency: string;
}

export async function billCorrection(tx: TxClient, label: MatchedLabel, costDelta: number, line: InvoiceLine): Promise<BilledCorrection | null> {
  const fulfillment = label.package.fulfillment;
  if (!fulfillment) return null;
  const billed = await tx.charge.findFirst({ where: { fulfillment_id: fulfillment.id, category: 'SHIPPING' }, select: { id: true, warehouse_id: true, warehouse_name: true } });
  if (!billed) return null;
  const delegation = await tx.fulfillmentDelegation.findUnique({
    where: { merchant_team_id_fulfiller_team_id: { merchant_team_id: label.merchant_team_id, fulfiller_team_id: label.fulfiller_team_id } },
  });
  const card = delegation?.active ? parseRateCard(delegation.rate_card) : null;
  if (!delegation || !card?.shipping) return null;
  const pricing = priceShippingCorrection(card, { cost_delta: costDelta, service_id: label.service_id });
  if (pricing.calculated_amount === 0) return null;
  const charge = await tx.charge.create({
    data: {
      name: `Carrier correction ${label.tracking_code} (invoice ${line.carrier_invoice_number})`,
      description: [line.correction_type, line.correction_reason].filter(Boolean).join(': ') || null,
      category: 'SHIPPING',
      currency: label.currency ?? card.currency,
      quantity: 1,
      calculated_amount: pricing.calculated_amount,
      original_amount: pricing.original_amount,
      merchant_team_id: label.merchant_team_id,
      fulfiller_team_id: label.fulfiller_team_id,
      fulfillment_delegation_id: delegation.id,
      order_id: fulfillment.order_id,
      fulfillment_order_id: fulfillment.fulfillment_order_id,
      // fulfillment_id stays null: (fulfillment_id, category) is the fulfil's own SHIPPING charge.
      shipping_label_id: label.id,
      carrier_id: label.carrier_id,
      carrier_integration_id: label.carrier_integration_id,
      carrier_integration_name: label.carrier_integration_name,
      carrier_integration_type: label.carrier_integration_type,
      service_id: label.service_id,
      warehouse_id: billed.warehouse_id,
      warehouse_name: billed.warehouse_name,
      ...jsonPricing(card, { category: 'SHIPPING', origination: 'MANUAL', shipping_label: null, order: null }, pricing),
    },
  });
  await enqueueForParties(tx, { team_id: charge.fulfiller_team_id, merchant_team_id: charge.merchant_team_id }, 'charge.created', chargePayload(charge));
  return { id: charge.id, shipping_label_id: label.id, tracking_number: label.tracking_code ?? line.tracking_number, amount: charge.calculated_amount, currency: charge.currency };
}
