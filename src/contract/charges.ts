import { Type } from 'typebox';
import { Day, Id, Uuid, Nullable, Opt, StringEnum, Timestamp, pageQuery, sortOrder } from './common.js';
import { CHARGE_CATEGORIES, RATE_PERIODS } from './enums.js';

export { CHARGE_CATEGORIES };

const Str = Nullable(Type.String());
const Num = Nullable(Type.Number());

const ShippingLabelConfig = {
  from_address_country: Str,
  from_address_zip: Str,
  from_address_state: Str,
  from_address_city: Str,
  to_address_country: Str,
  to_address_zip: Str,
  to_address_state: Str,
  to_address_city: Str,
  zone: Str,
  price: Num,
  formatted_service: Str,
  carrier_integration_name: Str,
  carrier_integration_type: Str,
  tracking_code: Str,
};
const OrderConfig = {
  address_residential: Type.String(),
  priority: Type.String(),
  is_fragile: Type.Boolean(),
  tags: Type.Array(Type.String()),
  unique_core_line_item_count: Type.Integer(),
  shop_type: Type.String(),
  order_number: Type.String(),
};

const configSchema = (label: Record<string, unknown>, order: Record<string, unknown>) =>
  Type.Object({
    category: StringEnum(CHARGE_CATEGORIES),
    original_amount: Type.Number(),
    origination: StringEnum(['ORDER', 'MANUAL'] as const),
    shipping_label: Nullable(Type.Object(label as typeof ShippingLabelConfig)),
    order: Nullable(Type.Object(order as typeof OrderConfig)),
  });

const PricingConfigSchema = configSchema(ShippingLabelConfig, OrderConfig);
const TraceConfigSchema = configSchema(
  { ...ShippingLabelConfig, id: Type.String(), service_id: Str, carrier_integration_id: Str, carrier_id: Str },
  { ...OrderConfig, id: Type.String() },
);

const PricingTraceSchema = Type.Object({
  rate_card_id: Type.String(),
  rate_card_name: Type.String(),
  version_id: Type.String(),
  semantic_version: Type.String(),
  category: StringEnum(CHARGE_CATEGORIES),
  decision: Type.String({ description: 'pricing_matched' }),
  trigger_step_id: Type.String(),
  pricing_step_id: Str,
  calculated_amount: Type.Number(),
  calculation_note: Type.String(),
  pricing_config: TraceConfigSchema,
  events: Type.Array(
    Type.Object({
      event_type: Type.String({ description: 'trigger' }),
      step_id: Type.String(),
      category: StringEnum(CHARGE_CATEGORIES),
      matched: Type.Boolean(),
    }),
  ),
  // Charges of a versioned rate card (docs/billing.md): when the version took effect, and the event's inputs it priced.
  effective_at: Type.Optional(Type.String()),
  event: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

export const ChargeSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Opt(Type.String()),
  category: StringEnum(CHARGE_CATEGORIES),
  currency: Type.String(),
  quantity: Type.Number(),
  calculated_amount: Type.Number(),
  original_amount: Type.Number(),
  created_at: Timestamp,
  updated_at: Timestamp,
  merchant_team_id: Type.String(),
  fulfiller_team_id: Type.String(),
  fulfillment_delegation_id: Opt(Type.String()),
  invoice_id: Opt(Type.String()),
  order_id: Opt(Type.String()),
  fulfillment_id: Opt(Type.String()),
  fulfillment_order_id: Opt(Type.String()),
  work_order_id: Opt(Type.String()),
  return_id: Opt(Type.String()),
  shipping_label_id: Opt(Type.String()),
  purchase_order_id: Opt(Type.String()),
  carrier_id: Opt(Type.String()),
  carrier_integration_id: Opt(Type.String()),
  carrier_integration_name: Opt(Type.String()),
  carrier_integration_type: Opt(Type.String()),
  service_id: Opt(Type.String()),
  carton_id: Opt(Type.String()),
  carton_name: Opt(Type.String()),
  warehouse_id: Opt(Type.String()),
  warehouse_name: Opt(Type.String()),
  location_type_id: Opt(Type.String()),
  location_type_name: Opt(Type.String()),
  pricing_config: Opt(PricingConfigSchema),
  pricing_trace: Opt(PricingTraceSchema),
});

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Quantity = Type.Number({ exclusiveMinimum: 0, description: 'units; may be fractional' });
const PurchaseOrderId = Type.String({ minLength: 1, maxLength: 64 });

export const StorageChargeBody = Type.Object(
  {
    fulfillment_delegation_id: Type.Optional(Id),
    merchant_team_id: Type.Optional(Id),
    data: Type.Object(
      {
        name: Name,
        location_type_id: Id,
        warehouse_id: Id,
        rate_period: StringEnum(RATE_PERIODS),
        quantity: Quantity,
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of fulfillment_delegation_id and merchant_team_id (top level) names who is billed.',
  },
);

export const ReceivingChargeBody = Type.Object(
  {
    fulfillment_delegation_id: Id,
    data: Type.Object({ name: Name, quantity: Quantity, purchase_order_id: PurchaseOrderId }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const ReceivingPatchBody = Type.Object(
  {
    data: Type.Object(
      {
        name: Type.Optional(Name),
        quantity: Type.Optional(Quantity),
        purchase_order_id: Type.Optional(PurchaseOrderId),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
  },
  { additionalProperties: false },
);

export const ChargeListQuery = Type.Object({
  ...pageQuery(),
  category: Type.Optional(StringEnum(CHARGE_CATEGORIES)),
  merchant_team_id: Type.Optional(Id),
  order_id: Type.Optional(Uuid),
  // Billing's filters (docs/invoices.md): whole UTC days, and the invoice (none: not invoiced yet).
  period_start: Type.Optional(Day('charges made on or after this day (UTC)')),
  period_end: Type.Optional(Day('charges made on or before this day (UTC)')),
  invoice_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'the invoice the charges are on; none: not invoiced yet' }),
  ),
  order: sortOrder,
});
