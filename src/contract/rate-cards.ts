import { Type, type Static } from 'typebox';
import { Id, Nullable, Opt, StringEnum, Timestamp, pageQuery } from './common.js';
import { CARRIER_WEIGHT_UNITS, FEE_EVENTS, FEE_PRICE_TYPES } from './enums.js';
import { CURRENCY_CODES } from './iso.js';

// Versioned rate cards and their fee rules (issue 40, docs/billing.md). A version as GET returns
// it is what a publish POST accepts unchanged (version_id and created_at are then ignored).

const Money = Type.Number({ minimum: 0, maximum: 1e9 });
const Words = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 500 });
const Range = (unit?: boolean) =>
  Type.Object(
    {
      min: Type.Optional(Type.Number({ minimum: 0 })),
      max: Type.Optional(Type.Number({ minimum: 0 })),
      ...(unit ? { unit: StringEnum(CARRIER_WEIGHT_UNITS) } : {}),
    },
    { additionalProperties: false, description: 'inclusive bounds' },
  );

export const FeeConditionsSchema = Type.Object(
  {
    merchants: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 500, description: 'merchant team ids' })),
    warehouses: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 500, description: 'warehouse ids' })),
    carriers: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { description: 'carrier ids or integration types' })),
    services: Type.Optional(Words),
    zones: Type.Optional(Words),
    order_tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { description: 'any of these tags' })),
    shop_types: Type.Optional(Words),
    item_count: Type.Optional(Range()),
    weight: Type.Optional(Range(true)),
    location_types: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 500, description: 'location type ids (storage)' })),
    cartons: Type.Optional(Words),
  },
  { additionalProperties: false, description: 'every condition given must hold; a list matches any of its values' },
);

export const FeePriceSchema = Type.Object(
  {
    type: StringEnum(FEE_PRICE_TYPES),
    amount: Type.Optional(Money),
    first: Type.Optional(Money),
    additional: Type.Optional(Money),
    tiers: Type.Optional(
      Type.Array(Type.Object({ up_to: Nullable(Type.Number({ exclusiveMinimum: 0 })), amount: Money }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: 50,
      }),
    ),
    percent: Type.Optional(Type.Number({ minimum: 0, maximum: 10_000 })),
    markup_percent: Type.Optional(Type.Number({ minimum: -100, maximum: 10_000 })),
    minimum: Type.Optional(Money),
  },
  { additionalProperties: false, description: 'which members a type needs: docs/billing.md' },
);

export const FeeRuleSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9][a-z0-9_.-]*$', maxLength: 100, description: 'the step id the pricing_trace names' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    event: StringEnum(FEE_EVENTS),
    conditions: Type.Optional(FeeConditionsSchema),
    price: FeePriceSchema,
  },
  { additionalProperties: false },
);

const SemVer = Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+$', maxLength: 40 });

export const RateCardVersionSchema = Type.Object(
  {
    rate_card_id: Type.Optional(Id),
    rate_card_name: Type.String({ minLength: 1, maxLength: 200 }),
    version_id: Type.Optional(Type.String({ description: 'set by the server; ignored on publish' })),
    semantic_version: SemVer,
    effective_at: Timestamp,
    currency: StringEnum(CURRENCY_CODES),
    note: Opt(Type.String({ maxLength: 2000 })),
    fees: Type.Array(FeeRuleSchema, { maxItems: 500 }),
    created_at: Type.Optional(Type.String({ description: 'set by the server; ignored on publish' })),
  },
  { additionalProperties: false },
);
export type RateCardVersionDoc = Static<typeof RateCardVersionSchema>;
export type FeeRule = Static<typeof FeeRuleSchema>;

export const RateCardSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  fulfiller_team_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  versions: Type.Array(
    Type.Object({ version_id: Type.String(), semantic_version: Type.String(), effective_at: Timestamp, created_at: Timestamp }),
  ),
  current_version_id: Nullable(Type.String()),
  delegation_ids: Type.Array(Type.String()),
});

export const RateCardListQuery = Type.Object({ ...pageQuery() }, { additionalProperties: false });

/** What happened, as a fee rule sees it: the inputs of one billable event. */
export const BillableEventSchema = Type.Object(
  {
    event: StringEnum(FEE_EVENTS),
    merchant_team_id: Id,
    warehouse_id: Opt(Id),
    carrier: Opt(Type.String({ maxLength: 100 })),
    carrier_type: Opt(Type.String({ maxLength: 100 })),
    service: Opt(Type.String({ maxLength: 200 })),
    zone: Opt(Type.String({ maxLength: 200 })),
    order_tags: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500 })),
    shop_type: Opt(Type.String({ maxLength: 100 })),
    units: Type.Optional(Type.Number({ minimum: 0 })),
    lines: Type.Optional(Type.Integer({ minimum: 0 })),
    weight_g: Opt(Type.Number({ minimum: 0 })),
    label_cost: Opt(Type.Number()),
    location_type_id: Opt(Id),
    carton: Opt(Type.String({ maxLength: 200 })),
    quantity: Type.Optional(Type.Number({ minimum: 0, description: 'hours, locations or units entered' })),
    products: Type.Optional(
      Type.Array(
        Type.Object(
          { product_id: Id, units: Type.Number({ minimum: 0 }), pick_fee_override: Opt(Type.Number({ minimum: 0 })) },
          { additionalProperties: false },
        ),
        { maxItems: 1000 },
      ),
    ),
  },
  { additionalProperties: false },
);
export type BillableEvent = Static<typeof BillableEventSchema>;

export const RateCardTestBody = Type.Object(
  {
    event: BillableEventSchema,
    at: Type.Optional(Timestamp),
  },
  { additionalProperties: false, description: 'price a sample event by the version in force at `at` (default now)' },
);

const TraceEvent = Type.Object({ event_type: Type.String(), step_id: Type.String(), category: Type.String(), matched: Type.Boolean() });
export const RateCardTestResult = Type.Object({
  rate_card_id: Type.String(),
  version_id: Type.String(),
  semantic_version: Type.String(),
  category: Type.String(),
  matched: Type.Boolean(),
  pricing_step_id: Nullable(Type.String()),
  calculated_amount: Type.Number(),
  original_amount: Type.Number(),
  quantity: Type.Number(),
  currency: Type.String(),
  calculation_note: Type.String(),
  events: Type.Array(TraceEvent),
});

export const DelegationRateCardLinkBody = Type.Object(
  { rate_card_id: Nullable(Id) },
  { additionalProperties: false, description: 'the versioned card that prices this merchant; null: back to the delegation JSON card' },
);

export const AdHocChargeBody = Type.Object(
  {
    merchant_team_id: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    note: Type.String({ minLength: 1, maxLength: 2000, description: 'why: kept as the charge description' }),
    event: Type.Optional(StringEnum(['AD_HOC', 'RECEIVING_HOURS'] as const, { default: 'AD_HOC' })),
    quantity: Type.Number({ exclusiveMinimum: 0, maximum: 1e6, description: 'hours or units' }),
    unit_amount: Type.Optional(Type.Number({ minimum: 0, maximum: 1e9, description: 'the price per unit; default: the card prices it' })),
    purchase_order_id: Type.Optional(Id),
    warehouse_id: Type.Optional(Id),
    reference: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'makes the post idempotent: the same reference bills once' }),
    ),
  },
  { additionalProperties: false },
);
