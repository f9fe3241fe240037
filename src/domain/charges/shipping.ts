import type { TxClient } from '../../db/types.js';
import { announceCharge, jsonPricing } from './charges.js';
import type { OrderConfig, ShippingLabelConfig } from './pricing-record.js';
import { parseRateCard, priceShipping } from './rate-card.js';

export interface ShippingChargeInput {
  fulfillmentId: string;
  fulfillmentOrderId: string;
  orderId: string;
  packageId: string;
  merchantTeamId: string;
  fulfillerTeamId: string;
}

type Address = { country?: unknown; zip?: unknown; state?: unknown; city?: unknown } | null;
const addr = (json: unknown): Address => (json && typeof json === 'object' && !Array.isArray(json) ? (json as Address) : null);
const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

/**
 * Bills the merchant a SHIPPING charge for a fulfilled package when the delegation's rate card
 * has a shipping section; returns null when nothing is billed. Runs inside the fulfill
 * transaction, so the charge exists exactly when the fulfillment committed; the unique
 * (fulfillment_id, category) makes a second bill for the same fulfillment impossible.
 */
export async function billShipping(tx: TxClient, input: ShippingChargeInput): Promise<{ id: string } | null> {
  const priced = await shippingRateCard(tx, input.merchantTeamId, input.fulfillerTeamId);
  if (!priced) return null;
  const { delegation, card } = priced;

  const existing = await tx.charge.findFirst({
    where: { fulfillment_id: input.fulfillmentId, category: 'SHIPPING' },
    select: { id: true },
  });
  if (existing) return existing;

  // Sequential on purpose: a transaction is one connection, which runs one query at a time.
  const label = await tx.shippingLabel.findUnique({ where: { package_id: input.packageId } });
  const pkg = await tx.package.findUnique({ where: { id: input.packageId } });
  const order = await tx.order.findUnique({ where: { id: input.orderId } });
  const fo = await tx.fulfillmentOrder.findUnique({ where: { id: input.fulfillmentOrderId }, select: { warehouse_id: true } });
  const warehouseId = pkg?.warehouse_id ?? fo?.warehouse_id ?? null;
  const shop = order?.shop_id ? await tx.shop.findUnique({ where: { id: order.shop_id }, select: { shop_type: true } }) : null;
  const warehouse = warehouseId ? await tx.warehouse.findUnique({ where: { id: warehouseId }, select: { id: true, name: true } }) : null;

  let labelConfig: ShippingLabelConfig | null = null;
  if (label) {
    const from = addr(label.from_address) ?? addr(pkg?.from_address);
    const to = addr(label.to_address) ?? addr(pkg?.to_address);
    labelConfig = {
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
  const orderConfig: OrderConfig | null = order
    ? {
        id: order.id,
        address_residential: order.address_residential,
        priority: order.priority,
        is_fragile: order.is_fragile,
        tags: Array.isArray(order.tags) ? (order.tags as unknown[]).filter((t): t is string => typeof t === 'string') : [],
        unique_core_line_item_count: order.unique_core_line_item_count,
        shop_type: shop?.shop_type ?? 'MANUAL',
        order_number: order.order_number,
      }
    : null;

  // A carrier correction that arrived before the fulfill (carrier-invoices/) is what the label costs.
  const corrected = (label?.carrier_correction as { corrected_carrier_cost?: unknown } | null)?.corrected_carrier_cost;
  const cost = typeof corrected === 'number' ? corrected : (label?.price ?? 0);
  const pricing = priceShipping(card, { label_price: cost, service_id: label?.service_id ?? null });
  const charge = await tx.charge.create({
    data: {
      name: `Shipping ${order?.order_number ?? input.orderId}${label?.tracking_code ? ` (${label.tracking_code})` : ''}`,
      description: label?.formatted_service ?? null,
      category: 'SHIPPING',
      currency: label?.currency ?? card.currency,
      quantity: 1,
      calculated_amount: pricing.calculated_amount,
      original_amount: pricing.original_amount,
      merchant_team_id: input.merchantTeamId,
      fulfiller_team_id: input.fulfillerTeamId,
      fulfillment_delegation_id: delegation.id,
      order_id: input.orderId,
      fulfillment_id: input.fulfillmentId,
      fulfillment_order_id: input.fulfillmentOrderId,
      shipping_label_id: label?.id ?? null,
      carrier_id: label?.carrier_id ?? pkg?.carrier_id ?? null,
      carrier_integration_id: label?.carrier_integration_id ?? pkg?.carrier_integration_id ?? null,
      carrier_integration_name: label?.carrier_integration_name ?? pkg?.carrier_integration_name ?? null,
      carrier_integration_type: label?.carrier_integration_type ?? pkg?.carrier_integration_type ?? null,
      service_id: label?.service_id ?? pkg?.service_id ?? null,
      carton_id: pkg?.carton_id ?? null,
      carton_name: pkg?.carton_name ?? null,
      warehouse_id: warehouse?.id ?? null,
      warehouse_name: warehouse?.name ?? null,
      ...jsonPricing(card, { category: 'SHIPPING', origination: 'ORDER', shipping_label: labelConfig, order: orderConfig }, pricing),
    },
  });
  await announceCharge(tx, charge);
  return { id: charge.id };
}

/**
 * The delegation between the two teams and its rate card, when the delegation is active and the
 * card prices shipping (else null: shipping is not billed). Shipping and its carrier corrections
 * (carrier-invoices/billing.ts) are priced from it.
 */
export async function shippingRateCard(tx: TxClient, merchantTeamId: string, fulfillerTeamId: string) {
  const delegation = await tx.fulfillmentDelegation.findUnique({
    where: { merchant_team_id_fulfiller_team_id: { merchant_team_id: merchantTeamId, fulfiller_team_id: fulfillerTeamId } },
  });
  const card = delegation?.active ? parseRateCard(delegation.rate_card) : null;
  return delegation && card?.shipping ? { delegation, card } : null;
}
