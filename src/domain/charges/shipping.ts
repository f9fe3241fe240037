import { anyStatementsOf, type Statements } from '../../db/statements.js';
import type { Package, ShippingLabel, TxClient } from '../../db/types.js';
import { txNow } from '../clock.js';
import { insertBilled } from './billing.js';
import { jsonPricing } from './charges.js';
import type { OrderConfig, ShippingLabelConfig } from './pricing-record.js';
import { parseRateCard, priceShipping } from './rate-card.js';
import { findDelegationBetween } from './store/delegations.js';
import { fulfillmentKey, jsonOf, shippingInputs, type ShippingRow } from './store/statements.js';
import { billFulfillmentByCard } from './fulfillment-billing.js';

export interface ShippingChargeInput {
  fulfillmentId: string;
  fulfillmentOrderId: string;
  orderId: string;
  packageId: string;
  merchantTeamId: string;
  fulfillerTeamId: string;
  /** The package and its label as the fulfill read them (its transaction's rows): not read again. */
  package: Package;
  label: ShippingLabel | null;
}

type Address = { country?: unknown; zip?: unknown; state?: unknown; city?: unknown } | null;
const addr = (json: unknown): Address => (json && typeof json === 'object' && !Array.isArray(json) ? (json as Address) : null);
const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/**
 * Bills the merchant a SHIPPING charge for a fulfilled package when the delegation's rate card
 * has a shipping section; returns null when nothing is billed. Runs inside the fulfill
 * transaction, so the charge exists exactly when the fulfillment committed; its unique billing key
 * ("SHIPPING:fulfillment:<id>", as a versioned card's) makes a second bill for the same fulfillment impossible. One read
 * (store/statements.ts: the delegation, order and warehouse; the package and label come with the
 * input) and one insert on the transaction's prepared statements, plus the two events (billing.ts
 * insertBilled, as a versioned card's charges).
 */
export async function billShipping(tx: TxClient, input: ShippingChargeInput): Promise<{ id: string } | null> {
  const st = anyStatementsOf(tx);
  const now = txNow(tx); // the app's clock (FOS_NOW): the charge's date and the version in force
  const row = await shippingInputs(st, input, now);
  // A versioned card (docs/billing.md) bills shipping, pick, pack and packaging; else the JSON card, shipping.
  if (row.d_id && row.d_rate_card_id) return billFulfillmentByCard(tx, st, row, input, now);
  const card = row.d_id && st.dialect.bool(row.d_active) ? parseRateCard(jsonOf(st, row.d_rate_card)) : null;
  if (!row.d_id || !card?.shipping) return null;
  if (row.existing_id) return { id: row.existing_id };
  const { label, package: pkg } = input;
  const order = row.o_id ? row : null;
  const labelConfig = label ? shippingLabelConfig(label, pkg) : null;
  const orderConfig = order ? orderConfigOf(st, row) : null;
  const cost = labelCost(label) ?? 0;
  const pricing = priceShipping(card, { label_price: cost, service_id: label?.service_id ?? null });
  const [charge] = await insertBilled(
    tx,
    st,
    [
      {
        name: `Shipping ${row.o_order_number ?? input.orderId}${label?.tracking_code ? ` (${label.tracking_code})` : ''}`,
        description: label?.formatted_service ?? null,
        category: 'SHIPPING',
        currency: label?.currency ?? card.currency,
        quantity: 1,
        calculated_amount: pricing.calculated_amount,
        original_amount: pricing.original_amount,
        merchant_team_id: input.merchantTeamId,
        fulfiller_team_id: input.fulfillerTeamId,
        fulfillment_delegation_id: row.d_id,
        order_id: input.orderId,
        fulfillment_id: input.fulfillmentId,
        fulfillment_order_id: input.fulfillmentOrderId,
        ...shippingLinks(label, pkg),
        carton_id: pkg.carton_id ?? null,
        carton_name: pkg.carton_name ?? null,
        warehouse_id: row.w_id ?? null,
        warehouse_name: row.w_name ?? null,
        billing_key: fulfillmentKey('SHIPPING', input.fulfillmentId),
        ...jsonPricing(card, { category: 'SHIPPING', origination: 'ORDER', shipping_label: labelConfig, order: orderConfig }, pricing),
      },
    ],
    now,
    { atCommit: true }, // its events with the fulfill's COMMIT, as its other events (fulfill.ts)
  );
  return charge ? { id: charge.id } : null;
}

export function orderConfigOf(st: Statements, row: ShippingRow): OrderConfig {
  return {
    id: row.o_id!,
    address_residential: row.o_address_residential!,
    priority: row.o_priority!,
    is_fragile: st.dialect.bool(row.o_is_fragile),
    tags: tagsOf(jsonOf(st, row.o_tags)),
    unique_core_line_item_count: Number(row.o_unique_core_line_item_count),
    shop_type: row.s_shop_type ?? 'MANUAL',
    order_number: row.o_order_number!,
  };
}

/** The label's cost: a carrier correction that arrived before the fulfill (carrier-invoices/), else its price; null without a label. */
export function labelCost(label: ShippingLabel | null): number | null {
  if (!label) return null;
  const corrected = (label.carrier_correction as { corrected_carrier_cost?: unknown } | null)?.corrected_carrier_cost;
  return typeof corrected === 'number' ? corrected : (label.price ?? 0);
}

export const tagsOf = (tags: unknown) => (Array.isArray(tags) ? (tags as unknown[]).filter((t): t is string => typeof t === 'string') : []);

/** A shipping charge's carrier columns: the label's, else the package's. */
export function shippingLinks(label: ShippingLabel | null, pkg: Package) {
  return {
    shipping_label_id: label?.id ?? null,
    carrier_id: label?.carrier_id ?? pkg.carrier_id ?? null,
    carrier_integration_id: label?.carrier_integration_id ?? pkg.carrier_integration_id ?? null,
    carrier_integration_name: label?.carrier_integration_name ?? pkg.carrier_integration_name ?? null,
    carrier_integration_type: label?.carrier_integration_type ?? pkg.carrier_integration_type ?? null,
    service_id: label?.service_id ?? pkg.service_id ?? null,
  };
}

/** The label as the pricing sees it: its addresses, else the package's. */
export function shippingLabelConfig(label: ShippingLabel, pkg: Package): ShippingLabelConfig {
  const from = addr(label.from_address) ?? addr(pkg.from_address);
  const to = addr(label.to_address) ?? addr(pkg.to_address);
  return {
    id: label.id,
    from_address_country: str(from?.country),
    from_address_zip: str(from?.zip),
    from_address_state: str(from?.state),
    from_address_city: str(from?.city),
    to_address_country: str(to?.country),
    to_address_zip: str(to?.zip),
    to_address_state: str(to?.state),
    to_address_city: str(to?.city),
    zone: label.zone,
    price: label.price,
    formatted_service: label.formatted_service,
    carrier_integration_name: label.carrier_integration_name,
    carrier_integration_type: label.carrier_integration_type,
    tracking_code: label.tracking_code,
    service_id: label.service_id,
    carrier_integration_id: label.carrier_integration_id,
    carrier_id: label.carrier_id,
  };
}

/**
 * The delegation between the two teams and its rate card, when the delegation is active and the
 * card prices shipping (else null: shipping is not billed). Shipping and its carrier corrections
 * (carrier-invoices/billing.ts) are priced from it.
 */
export async function shippingRateCard(tx: TxClient, merchantTeamId: string, fulfillerTeamId: string) {
  const delegation = await findDelegationBetween(tx, merchantTeamId, fulfillerTeamId);
  const card = delegation?.active ? parseRateCard(delegation.rate_card) : null;
  return delegation && card?.shipping ? { delegation, card } : null;
}
