import { Type } from 'typebox';
import { CARRIER_WEIGHT_UNITS, FO_STATUSES, PRIORITIES } from './enums.js';
import { Id, Uuid, listOf, Opt, pageQuery, StringEnum, Timestamp } from './common.js';

// Fulfillment orders, locks and the carrier rate table (spec 2.11, 4.6; docs/fulfillment.md).

export { FO_STATUSES };

export const LockSchema = Type.Object(
  {
    lock_owner: Type.String(),
    expires_at: Timestamp,
  },
  { description: 'The active lock; null when not locked or expired.' },
);

export const FulfillmentOrderLineSchema = Type.Object({
  id: Type.String(),
  fulfillment_order_id: Type.String(),
  order_line_item_id: Type.String(),
  product_id: Opt(Type.String()),
  sku: Opt(Type.String()),
  name: Type.String(),
  image_url: Opt(Type.String()),
  quantity: Type.Integer({ description: 'units ordered on this fulfillment order' }),
  remaining_quantity: Type.Integer({ description: 'units not yet fulfilled' }),
  fulfilled_quantity: Type.Integer(),
  short_quantity: Type.Optional(
    Type.Integer({
      description:
        'extension: units of remaining_quantity recorded missing (a short pick or pack); they are never packed or ' +
        'shipped on this fulfillment order until split off (POST …/split-shortfall)',
    }),
  ),
});

export const FulfillmentOrderSchema = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  order_number: Type.String(),
  status: StringEnum(FO_STATUSES),
  request_status: Type.String({ description: 'UNSUBMITTED | ACCEPTED | REJECTED' }),
  fulfillment_status: StringEnum(['UNFULFILLED', 'PARTIALLY_FULFILLED', 'FULFILLED'] as const),
  warehouse_id: Type.String(),
  warehouse_name: Opt(Type.String()),
  merchant_team_id: Type.String(),
  merchant_team_name: Opt(Type.String()),
  fulfiller_team_id: Type.String(),
  fulfiller_team_name: Opt(Type.String()),
  picking_session_id: Opt(Type.String()),
  total_quantity: Type.Integer(),
  remaining_quantity: Type.Integer(),
  line_items: Type.Array(FulfillmentOrderLineSchema),
  shipping_address_name: Opt(Type.String()),
  shipping_address_company: Opt(Type.String()),
  shipping_address_address1: Opt(Type.String()),
  shipping_address_address2: Opt(Type.String()),
  shipping_address_city: Opt(Type.String()),
  shipping_address_state: Opt(Type.String()),
  shipping_address_country: Opt(Type.String()),
  shipping_address_zip: Opt(Type.String()),
  shipping_address_phone: Opt(Type.String()),
  customer_email: Opt(Type.String()),
  customer_name: Opt(Type.String()),
  priority: Type.Optional(StringEnum(PRIORITIES, { description: "extension: the order's priority" })),
  shipping_method: Opt(Type.String({ description: "extension: the order's shipping method (e.g. Overnight)" })),
  picked_by_user_id: Opt(Type.String({ description: 'extension: the user who last scanned a pick for it' })),
  picked_by_user_name: Opt(Type.String()),
  short_picked: Type.Optional(Type.Boolean({ description: 'extension: a picker reported units missing for it (short pick)' })),
  lock: Opt(LockSchema),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** Answers of move and split: the order as it is now, and the one made from it. */
export const MovedFulfillmentOrderSchema = Type.Object({ original: FulfillmentOrderSchema, moved: FulfillmentOrderSchema });
export const SplitFulfillmentOrderSchema = Type.Object({ original: FulfillmentOrderSchema, split: FulfillmentOrderSchema });

export const FulfillmentOrderListSchema = listOf(FulfillmentOrderSchema);

export const FulfillmentOrderListQuery = Type.Object(
  {
    ...pageQuery(),
    order_id: Type.Optional(Uuid),
    status: Type.Optional(Type.String({ description: `comma-separated: ${FO_STATUSES.join(', ')}` })),
    warehouse_id: Type.Optional(Id),
    tote: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'extension: a tote name or id: the fulfillment orders picked into it' }),
    ),
  },
  { additionalProperties: false },
);

export const FulfillmentOrderParams = Type.Object({ fulfillment_order_id: Uuid });

export const LockBody = Type.Object(
  {
    lock_owner: Type.String({ minLength: 1, maxLength: 200, description: 'who works on it (a user, a station, a script)' }),
    // The spec types it as a number: fractions are taken, rounded up to whole seconds (0.5 = 30 s).
    timeout_minutes: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1440,
      description: 'the lock expires after this many minutes (a fraction is rounded up to whole seconds: 0.5 = 30 s)',
    }),
  },
  { additionalProperties: false },
);

export const ReleaseBody = Type.Object(
  {
    lock_owner: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

export const LockResponse = Type.Object({
  success: Type.Boolean(),
  lock_owner: Opt(Type.String()),
  expires_at: Opt(Timestamp),
});

// ---------- carrier rate table ----------

const WEIGHT_UNITS = CARRIER_WEIGHT_UNITS;

export const CarrierRateSchema = Type.Object({
  id: Type.String(),
  team_id: Type.String(),
  carrier_id: Type.String(),
  carrier_name: Type.String(),
  service_id: Type.String(),
  service_name: Type.String(),
  amount: Type.Number(),
  currency: Type.String(),
  per_unit_weight: Type.Number(),
  max_weight: Opt(Type.Number()),
  weight_unit: Type.String(),
  countries: Opt(Type.Array(Type.String())),
  estimated_days: Opt(Type.Integer()),
  delivery_date_guaranteed: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CarrierRateListSchema = listOf(CarrierRateSchema);

const Name = Type.String({ minLength: 1, maxLength: 200 });

export const CarrierRateBody = Type.Object(
  {
    carrier_id: Name,
    carrier_name: Name,
    service_id: Name,
    service_name: Name,
    amount: Type.Number({ minimum: 0, description: 'base price' }),
    currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', default: 'USD' })),
    per_unit_weight: Type.Optional(Type.Number({ minimum: 0, description: 'added per weight_unit of package weight' })),
    max_weight: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])),
    weight_unit: Type.Optional(StringEnum(WEIGHT_UNITS, { default: 'G' })),
    countries: Type.Optional(
      Type.Union([
        Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$' }), { minItems: 1, description: 'ISO 3166-1 alpha-2 codes it ships to' }),
        Type.Null(),
      ]),
    ),
    estimated_days: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    delivery_date_guaranteed: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const CarrierRateParams = Type.Object({ carrier_rate_id: Id });

export const CarrierRateListQuery = Type.Object({ ...pageQuery() }, { additionalProperties: false });
