import { selectionNullable } from './automation-rules.js';
import { Type } from 'typebox';
import { Id, Nullable, Opt, StringEnum, Timestamp } from './common.js';
import { AddressInput } from './orders.js';
import { CANCEL_REASONS, HOLD_REASONS, PRIORITIES } from './orders-enums.js';
import { CURRENCY_CODES } from './iso.js';

// Schemas of the order exceptions: cancel, holds, backorders (docs/orders.md).

export const CancelBody = Type.Object(
  {
    reason: StringEnum(CANCEL_REASONS, {
      description: 'why: CUSTOMER, FRAUD, INVENTORY, DECLINED, STAFF, CHANNEL (the sales channel cancelled it), OTHER',
    }),
    restock: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'released units go back on sale (true) or are set aside as unavailable (false); shipped units are never touched',
      }),
    ),
  },
  { additionalProperties: false },
);

export const HoldBody = Type.Object(
  {
    reason: StringEnum(HOLD_REASONS),
    reason_notes: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

/** order_fulfillment_hold of spec 2.6. */
export const HoldSchema = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  active: Type.Boolean(),
  reason: StringEnum(HOLD_REASONS),
  reason_notes: Opt(Type.String()),
  created_by_user_id: Opt(
    Type.String({ description: 'the person who placed it (agent connections); null for API keys and automatic holds' }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const HoldParams = Type.Object({ order_id: Id, hold_id: Id });

export const BackorderQuery = Type.Object(
  {
    page: Type.Number({ minimum: 0, maximum: 1_000_000, multipleOf: 1, default: 0, description: '0-based page number' }),
    limit: Type.Number({ minimum: 1, maximum: 250, multipleOf: 1, default: 50 }),
    sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    product_id: Type.Optional(Id),
    priority: Type.Optional(Type.String({ description: `comma-separated: ${PRIORITIES.join(', ')}` })),
  },
  { additionalProperties: false },
);

export const BackorderSchema = Type.Object({
  order_id: Type.String(),
  order_number: Type.String(),
  order_line_item_id: Type.String(),
  product_id: Opt(Type.String()),
  sku: Opt(Type.String()),
  name: Type.String(),
  quantity: Type.Integer({ description: 'units waiting for stock' }),
  priority: StringEnum(PRIORITIES),
  since: Timestamp,
});

const LineQuantity = Type.Object(
  {
    fulfillment_order_line_item_id: Id,
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  },
  { additionalProperties: false },
);

export const MoveBody = Type.Object(
  {
    warehouse_id: Id,
    lines: Type.Optional(
      Type.Array(LineQuantity, { minItems: 1, maxItems: 500, description: 'some units only (default: every remaining unit)' }),
    ),
  },
  { additionalProperties: false },
);

export const SplitBody = Type.Object(
  {
    lines: Type.Array(LineQuantity, {
      minItems: 1,
      maxItems: 500,
      description: 'the units that go to the new fulfillment order (some, not all)',
    }),
  },
  { additionalProperties: false },
);

export const OrderEditBody = Type.Object(
  {
    shipping_address: Type.Optional(AddressInput),
    shipping_method: Type.Optional(Nullable(Type.String({ maxLength: 120 }))),
    note: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
    lock_address: Type.Optional(Type.Boolean({ description: 'true: the shipping address can no longer be edited (until set false)' })),
    // Carrier selection (spec 2.6 fields, plus rate_strategy): a person's choice, which no automation
    // rule overwrites afterwards; null clears the field and leaves it to the rules again.
    ...selectionNullable(),
    add_line_items: Type.Optional(
      Type.Array(
        Type.Object(
          {
            product_id: Type.Optional(Id),
            sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
            quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
            price: Type.Optional(Type.Number({ minimum: 0, description: 'unit price (default 0)' })),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          maxItems: 100,
          description: 'new lines (a product of the merchant, by product_id or sku): stock committed, the rest backordered',
        },
      ),
    ),
    update_line_items: Type.Optional(
      Type.Array(
        Type.Object(
          {
            order_line_item_id: Type.String({ minLength: 1, description: 'a core line item id' }),
            quantity: Type.Integer({
              minimum: 0,
              maximum: 1_000_000,
              description: 'the new quantity (never below what is packed or shipped)',
            }),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 100 },
      ),
    ),
    remove_line_items: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        maxItems: 100,
        description: 'core line item ids: their unpacked units leave the order (409 when units are packed or shipped)',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

// ---------- rate cards (docs/charges.md) ----------

const Rate = Type.Number({ minimum: 0 });
const PeriodRates = Type.Object(
  { DAILY: Type.Optional(Rate), WEEKLY: Type.Optional(Rate), MONTHLY: Type.Optional(Rate) },
  { additionalProperties: false },
);
const ShippingRule = { fee_per_package: Type.Optional(Rate), markup_percent: Type.Optional(Type.Number({ minimum: -100 })) };

export const RateCardBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    semantic_version: Type.Optional(
      Type.String({
        pattern: '^\\d+\\.\\d+\\.\\d+$',
        description: 'default: the previous version with its patch number + 1 (1.0.0 first)',
      }),
    ),
    currency: Type.Optional(StringEnum(CURRENCY_CODES)),
    storage: Type.Optional(
      Type.Object(
        {
          rate_per_unit: Type.Optional(PeriodRates),
          by_location_type: Type.Optional(Type.Record(Type.String(), PeriodRates)),
        },
        { additionalProperties: false },
      ),
    ),
    receiving: Type.Optional(Type.Object({ rate_per_unit: Type.Optional(Rate) }, { additionalProperties: false })),
    shipping: Type.Optional(
      Type.Object(
        {
          ...ShippingRule,
          by_service: Type.Optional(Type.Record(Type.String(), Type.Object(ShippingRule, { additionalProperties: false }))),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'version_id is given by the server on every PUT' },
);

export const DelegationSchema = Type.Object({
  id: Type.String(),
  merchant_team_id: Type.String(),
  fulfiller_team_id: Type.String(),
  active: Type.Boolean(),
  rate_card: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
  rate_card_id: Opt(Type.String({ description: 'the versioned rate card pricing this merchant (docs/billing.md); null: rate_card' })),
  merchant_team_name: Type.Optional(Type.String({ description: "the merchant team's name (in the list)" })),
  rate_card_name: Type.Optional(
    Nullable(
      Type.String({
        description: 'the name of the card pricing this merchant: the versioned card (rate_card_id), else rate_card (in the list)',
      }),
    ),
  ),
});

/** POST …/split-shortfall (docs/fulfillment.md "Short units never ship"). */
export const SplitShortfallBody = Type.Object(
  {
    lock_owner: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "the caller's lock owner, when it holds the fulfillment order's lock" }),
    ),
  },
  { additionalProperties: false },
);
