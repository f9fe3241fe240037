import type { Charge } from '../../db/types.js';
import type { ChargeCategory, Pricing, RateCard } from './rate-card.js';

// The JSON a charge keeps about how it was priced (spec 2.8): pricing_config (the inputs) and
// pricing_trace (the rate card, the steps evaluated and the outcome).

export interface ShippingLabelConfig {
  id: string;
  from_address_country: string | null;
  from_address_zip: string | null;
  from_address_state: string | null;
  from_address_city: string | null;
  to_address_country: string | null;
  to_address_zip: string | null;
  to_address_state: string | null;
  to_address_city: string | null;
  zone: string | null;
  price: number | null;
  formatted_service: string | null;
  carrier_integration_name: string | null;
  carrier_integration_type: string | null;
  tracking_code: string | null;
  service_id: string | null;
  carrier_integration_id: string | null;
  carrier_id: string | null;
}

export interface OrderConfig {
  id: string;
  address_residential: string;
  priority: string;
  is_fragile: boolean;
  tags: string[];
  unique_core_line_item_count: number;
  shop_type: string;
  order_number: string;
}

export interface PricingInputs {
  category: ChargeCategory;
  origination: 'ORDER' | 'MANUAL';
  shipping_label: ShippingLabelConfig | null;
  order: OrderConfig | null;
}

/** pricing_config as charges show it: the trace's copy without the record ids. */
function publicConfig(inputs: PricingInputs, pricing: Pricing) {
  let label: Record<string, unknown> | null = null;
  if (inputs.shipping_label) {
    const { id: _id, service_id: _s, carrier_integration_id: _ci, carrier_id: _c, ...rest } = inputs.shipping_label;
    label = rest;
  }
  let order: Record<string, unknown> | null = null;
  if (inputs.order) {
    const { id: _id, ...rest } = inputs.order;
    order = rest;
  }
  return {
    category: inputs.category,
    original_amount: pricing.original_amount,
    origination: inputs.origination,
    shipping_label: label,
    order,
  };
}

/** What a versioned card's trace records after the steps: the version's date and the event priced (re-rating reads it). */
export interface TraceTail {
  effective_at: string;
  event: unknown;
}

export function pricingRecord(card: RateCard, inputs: PricingInputs, pricing: Pricing, tail?: TraceTail) {
  const pricing_config = publicConfig(inputs, pricing);
  const pricing_trace = {
    rate_card_id: card.id,
    rate_card_name: card.name,
    version_id: card.version_id,
    semantic_version: card.semantic_version,
    category: inputs.category,
    decision: 'pricing_matched',
    trigger_step_id: pricing.trigger_step_id,
    pricing_step_id: pricing.pricing_step_id,
    calculated_amount: pricing.calculated_amount,
    calculation_note: pricing.calculation_note,
    pricing_config: {
      category: inputs.category,
      original_amount: pricing.original_amount,
      origination: inputs.origination,
      shipping_label: inputs.shipping_label,
      order: inputs.order,
    },
    events: pricing.events,
    ...tail, // built with the trace, not spread onto a copy of it afterwards (issue 40 item 6)
  };
  return { pricing_config, pricing_trace };
}

/** The spec 2.8 field set of a charge (rate_period is kept internally, not shown). */
export function chargeView(c: Charge) {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    category: c.category,
    currency: c.currency,
    quantity: c.quantity,
    calculated_amount: c.calculated_amount,
    original_amount: c.original_amount,
    created_at: c.created_at,
    updated_at: c.updated_at,
    merchant_team_id: c.merchant_team_id,
    fulfiller_team_id: c.fulfiller_team_id,
    fulfillment_delegation_id: c.fulfillment_delegation_id,
    invoice_id: c.invoice_id,
    order_id: c.order_id,
    fulfillment_id: c.fulfillment_id,
    fulfillment_order_id: c.fulfillment_order_id,
    work_order_id: c.work_order_id,
    return_id: c.return_id,
    shipping_label_id: c.shipping_label_id,
    purchase_order_id: c.purchase_order_id,
    carrier_id: c.carrier_id,
    carrier_integration_id: c.carrier_integration_id,
    carrier_integration_name: c.carrier_integration_name,
    carrier_integration_type: c.carrier_integration_type,
    service_id: c.service_id,
    carton_id: c.carton_id,
    carton_name: c.carton_name,
    warehouse_id: c.warehouse_id,
    warehouse_name: c.warehouse_name,
    location_type_id: c.location_type_id,
    location_type_name: c.location_type_name,
    pricing_config: c.pricing_config as Record<string, unknown> | null,
    pricing_trace: c.pricing_trace as Record<string, unknown> | null,
  };
}

export type ChargeView = ReturnType<typeof chargeView>;

/** A charge as an event payload: plain JSON (its view is plain JSON but its two dates, given as ISO strings). */
export function chargePayload(c: Charge): Record<string, unknown> {
  const payload: Record<string, unknown> = chargeView(c); // a new object: its dates are set in place, not copied
  payload.created_at = c.created_at.toISOString();
  payload.updated_at = c.updated_at.toISOString();
  return payload;
}
