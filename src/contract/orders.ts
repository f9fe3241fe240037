import { COUNTRY_CODES, CURRENCY_CODES } from './iso.js';
import { SELECTION_FIELDS, selectionInput, TraceSchema } from './automation-rules.js';
import { nullableFields, RATE_FIELDS } from './rate-strategy.js';
import { Type, type TSchema } from 'typebox';
import { Id, Nullable, Opt, StringEnum, Timestamp } from './common.js';
import {
  CANCEL_REASONS,
  CARRIER_SELECTION_FIELDS,
  DRAFT_PAYMENT_STATUSES,
  DRAFT_STATUSES,
  FULFILLMENT_STATUSES,
  HOLD_REASONS,
  METADATA_KEYS,
  ORDER_CONFIG_DEFAULTS,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  PRIORITIES,
  SHOP_TYPES,
} from './orders-enums.js';
import { ADDRESS_FIELDS } from './enums.js';

// Schemas of orders and draft orders (spec 2.6, 4.5; draft shape: docs/orders.md).

const Str = (max = 255) => Type.String({ maxLength: max });
const Residential = StringEnum(['UNKNOWN', 'RESIDENTIAL'] as const);

// ---------- request bodies ----------

export const AddressInput = Type.Object(
  {
    name: Type.Optional(Nullable(Str(200))),
    company: Type.Optional(Nullable(Str(200))),
    address1: Type.String({ minLength: 1, maxLength: 255 }),
    address2: Type.Optional(Nullable(Str())),
    city: Type.String({ minLength: 1, maxLength: 120 }),
    state: Type.Optional(Nullable(Str(120))),
    country: StringEnum(COUNTRY_CODES, { description: 'ISO 3166-1 alpha-2 code' }),
    zip: Type.Optional(Nullable(Str(32))),
    phone: Type.Optional(Nullable(Str(40))),
  },
  { additionalProperties: false },
);

const KeyValue = Type.Object({ key: Type.String({ minLength: 1, maxLength: 255 }), value: Str(5000) }, { additionalProperties: false });
const MetadataInput = Type.Object(
  Object.fromEntries(METADATA_KEYS.map((k) => [k, Type.Optional(Type.Array(KeyValue, { maxItems: 100 }))])) as Record<string, TSchema>,
  { additionalProperties: false, description: 'custom, shopify, meta_data (WooCommerce), bigcommerce: arrays of {key, value}' },
);

const NUMBER_CONFIG = new Set(Object.keys(ORDER_CONFIG_DEFAULTS).filter((k) => k.endsWith('_amount')));
const configField = (k: string, v: unknown): TSchema => {
  if (typeof v === 'boolean') return Type.Boolean();
  if (k === 'insurance_policy')
    return Type.Object(
      {
        mode: Type.String({ description: 'none, or amount: each package insured for `amount`' }),
        amount: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 })),
      },
      { additionalProperties: false },
    );
  return NUMBER_CONFIG.has(k) ? Nullable(Type.Number()) : Nullable(Type.String());
};
export const OrderConfigSchema = Type.Object(
  Object.fromEntries(Object.entries(ORDER_CONFIG_DEFAULTS).map(([k, v]) => [k, configField(k, v)])) as Record<string, TSchema>,
);
const OrderConfigInput = Type.Object(
  Object.fromEntries(Object.entries(ORDER_CONFIG_DEFAULTS).map(([k, v]) => [k, Type.Optional(configField(k, v))])) as Record<
    string,
    TSchema
  >,
  { additionalProperties: false },
);

export const DraftLineItemInput = Type.Object(
  {
    product_id: Type.Optional(Id),
    sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    price: Type.Number({ minimum: 0, description: 'unit price' }),
    applied_discount_amount: Type.Optional(Type.Number({ minimum: 0, description: 'discount on the whole line' })),
  },
  { additionalProperties: false },
);

export const DraftOrderCreateBody = Type.Object(
  {
    merchant_team_id: Type.Optional(Id),
    shop_id: Type.Optional(Id),
    shop: Type.Optional(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 120 }),
          shop_type: Type.Optional(StringEnum(SHOP_TYPES)),
        },
        { additionalProperties: false },
      ),
    ),
    line_items: Type.Array(DraftLineItemInput, { minItems: 1, maxItems: 500 }),
    shipping_address: AddressInput,
    billing_address: Type.Optional(Nullable(AddressInput)),
    customer: Type.Optional(
      Nullable(
        Type.Object(
          {
            email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 320 }))),
            name: Type.Optional(Nullable(Str(200))),
            phone: Type.Optional(Nullable(Str(40))),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    shipping_method: Type.Optional(Nullable(Str(120))),
    priority: Type.Optional(StringEnum(PRIORITIES, { default: 'NORMAL' })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
    note: Type.Optional(Nullable(Str(5000))),
    currency: Type.Optional(StringEnum(CURRENCY_CODES, { default: 'USD', description: 'ISO 4217 code' })),
    payment_status: Type.Optional(StringEnum(DRAFT_PAYMENT_STATUSES, { default: 'PENDING' })),
    order_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' })),
    deliver_by: Type.Optional(Nullable(Timestamp)),
    metadata: Type.Optional(MetadataInput),
    is_fragile: Type.Optional(Type.Boolean()),
    total_tax: Type.Optional(Type.Number({ minimum: 0 })),
    total_shipping: Type.Optional(Type.Number({ minimum: 0 })),
    config: Type.Optional(OrderConfigInput),
    // Carrier selection (spec 2.6 fields, plus the rate strategy): a person's choice, carried to the
    // order at conversion, where no automation rule overwrites it (docs/automation.md).
    ...selectionInput(),
  },
  { additionalProperties: false },
);

// ---------- responses ----------

const AddressOut = Type.Object(Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, Nullable(Type.String())])) as Record<string, TSchema>);
const MetadataOut = Type.Object(
  Object.fromEntries(METADATA_KEYS.map((k) => [k, Type.Array(Type.Object({ key: Type.String(), value: Type.String() }))])) as Record<
    string,
    TSchema
  >,
);

export const DraftOrderSchema = Type.Object({
  id: Type.String(),
  status: StringEnum(DRAFT_STATUSES),
  order_id: Opt(Type.String()),
  order_number: Opt(Type.String({ description: 'requested order number; generated at conversion when null' })),
  merchant_team_id: Type.String(),
  merchant_team_name: Opt(Type.String()),
  fulfiller_team_id: Type.String(),
  fulfiller_team_name: Opt(Type.String()),
  shop_id: Opt(Type.String()),
  shop_name: Opt(Type.String()),
  shop_type: Opt(StringEnum(SHOP_TYPES)),
  priority: StringEnum(PRIORITIES),
  payment_status: StringEnum(DRAFT_PAYMENT_STATUSES),
  currency: Type.String(),
  note: Opt(Type.String()),
  tags: Type.Array(Type.String()),
  shipping_method: Opt(Type.String()),
  deliver_by: Opt(Timestamp),
  shipping_address: Opt(AddressOut),
  billing_address: Opt(AddressOut),
  customer: Opt(Type.Object({ email: Opt(Type.String()), name: Opt(Type.String()), phone: Opt(Type.String()) })),
  metadata: MetadataOut,
  is_fragile: Type.Boolean(),
  // The carrier selection a person chose on the draft (null: not chosen; the rules decide at conversion).
  ...nullableFields(SELECTION_FIELDS),
  line_items: Type.Array(
    Type.Object({
      id: Type.String(),
      product_id: Type.String(),
      sku: Opt(Type.String()),
      name: Type.String(),
      quantity: Type.Integer(),
      price: Type.Number(),
      applied_discount_amount: Type.Number(),
    }),
  ),
  subtotal_price: Type.Number(),
  total_discount: Type.Number(),
  total_tax: Type.Number(),
  total_shipping: Type.Number(),
  total_price: Type.Number(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const AddressVerificationSchema = Type.Object({
  verified: Type.Boolean(),
  residential: Residential,
  errors: Type.Array(Type.Object({ message: Type.String(), code: Type.String() })),
  corrected_address: Type.Object({
    street1: Opt(Type.String()),
    street2: Opt(Type.String()),
    city: Opt(Type.String()),
    state: Opt(Type.String()),
    zip5: Opt(Type.String()),
    zip4: Opt(Type.String()),
  }),
  metadata: Type.Object({
    is_active: Type.Boolean(),
    is_cmra: Type.Boolean(),
    is_vacant: Type.Boolean(),
    record_type: Opt(Type.String()),
    dpv_footnotes: Opt(Type.String()),
    dpv_match_code: Opt(Type.String()),
    latitude: Opt(Type.Number()),
    longitude: Opt(Type.Number()),
  }),
});

const CoreLineItem = {
  id: Type.String(),
  order_id: Type.String(),
  product_id: Opt(Type.String()),
  core_draft_order_line_item_id: Opt(Type.String()),
  sku: Opt(Type.String()),
  name: Type.String(),
  image_url: Opt(Type.String()),
  unsynced_quantity: Type.Integer(),
  remaining_quantity: Type.Integer(),
  total_quantity: Type.Integer(),
  removed_quantity: Type.Integer(),
  synced_at: Opt(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
};

const flat = (prefix: string) => Object.fromEntries(ADDRESS_FIELDS.map((f) => [`${prefix}_${f}`, Opt(Type.String())]));

/** Order 2.6 members shared by every response that carries an order. */
const orderFields = {
  id: Type.String(),
  order_number: Type.String(),
  remote_id: Opt(Type.String()),
  synced_at: Opt(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  closed_at: Opt(Timestamp),
  cancelled_at: Opt(Timestamp),
  cancel_reason: Opt(StringEnum(CANCEL_REASONS, { description: 'extension: why it was cancelled (POST /v1/ops/orders/{id}/cancel)' })),
  merchant_team_id: Type.String(),
  merchant_team_name: Opt(Type.String()),
  team_id: Type.String(),
  team_name: Opt(Type.String()),
  fulfiller_team_id: Type.String(),
  fulfiller_team_name: Opt(Type.String()),
  shop_id: Opt(Type.String()),
  shop_name: Opt(Type.String()),
  shop_slug: Opt(Type.String()),
  shop_type: Opt(StringEnum(SHOP_TYPES)),
  status: StringEnum(ORDER_STATUSES),
  fulfillment_status: StringEnum(FULFILLMENT_STATUSES),
  payment_status: StringEnum(PAYMENT_STATUSES),
  priority: StringEnum(PRIORITIES),
  currency: Type.String(),
  note: Opt(Type.String()),
  shipping_method: Opt(Type.String()),
  deliver_by: Opt(Timestamp),
  line_item_hash: Opt(Type.String()),
  tags: Type.Array(Type.String()),
  total_price: Type.Number(),
  total_tax: Type.Number(),
  total_discount: Type.Number(),
  total_shipping: Type.Number(),
  current_shipping: Type.Number(),
  total_outstanding: Type.Number(),
  metadata: MetadataOut,
  ...flat('shipping_address'),
  shipping_latitude: Opt(Type.Number()),
  shipping_longitude: Opt(Type.Number()),
  ...flat('billing_address'),
  customer_email: Opt(Type.String()),
  customer_name: Opt(Type.String()),
  customer_phone: Opt(Type.String()),
  ...Object.fromEntries(CARRIER_SELECTION_FIELDS.map((f) => [f, Opt(Type.String())])),
  lock_address: Type.Boolean(),
  address_verified: Type.Boolean(),
  address_residential: Residential,
  address_verified_at: Opt(Timestamp),
  address_hash: Opt(Type.String()),
  address_verification_response: Opt(AddressVerificationSchema),
  is_fragile: Type.Boolean(),
  core_line_item_count: Type.Integer(),
  unique_core_line_item_count: Type.Integer(),
  tracking_count: Type.Integer(),
  fulfillment_count: Type.Integer(),
  line_item_image_urls: Type.Array(Type.String()),
  config: OrderConfigSchema,
  order_fulfillment_holds: Type.Array(
    Type.Object({
      id: Type.String(),
      order_id: Type.String(),
      active: Type.Boolean(),
      reason: StringEnum(HOLD_REASONS),
      reason_notes: Opt(Type.String()),
      created_by_user_id: Opt(Type.String()),
      created_at: Timestamp,
      updated_at: Timestamp,
    }),
  ),
};

/** Order 2.6 (get-one, priority update, convert and mark-paid responses). */
export const OrderSchema = Type.Object({
  ...orderFields,
  core_order_line_items: Type.Array(
    Type.Object({
      ...CoreLineItem,
      returned_quantity: Type.Integer({ description: 'extension: units on returns of this line (never above what was fulfilled)' }),
    }),
  ),
  original_order_line_items: Type.Array(
    Type.Object({
      ...CoreLineItem,
      original_draft_order_line_item_id: Opt(Type.String()),
      shop_id: Opt(Type.String()),
      product_listing_id: Opt(Type.String()),
      product_listing_variant_id: Opt(Type.String()),
      remote_id: Opt(Type.String()),
      applied_discount_amount: Type.Number(),
      price: Type.Number(),
    }),
  ),
  supported_actions: Type.Array(Type.Object({ action: Type.String() })),
  // Extensions (docs/automation.md), present once rules ran on the order / a rate strategy was chosen.
  automation_trace: Type.Optional(TraceSchema),
  // extension: the rate strategy (and options) chosen for its packages
  rate_strategy: Type.Optional(RATE_FIELDS.rate_strategy),
  rate_within_days: Type.Optional(RATE_FIELDS.rate_within_days),
  rate_exclude_carrier_ids: Type.Optional(RATE_FIELDS.rate_exclude_carrier_ids),
  carrier_selection_set_by_person: Type.Optional(
    Type.Array(Type.String(), { description: 'extension: carrier-selection fields a person chose (no rule overwrites them)' }),
  ),
  // Extension (docs/sales-channels.md): what the sales channel answered to this order's tracking pushes.
  sales_channel_pushes: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String(),
        shop_id: Type.String(),
        status: Type.String({ description: 'RETRYING | PUSHED | FAILED | SKIPPED' }),
        detail: Type.String({ description: "the platform's answer or error message" }),
        attempts: Type.Number(),
        created_at: Timestamp,
        updated_at: Timestamp,
      }),
    ),
  ),
});

const pick = (names: string[]) => Object.fromEntries(names.map((n) => [n, (orderFields as Record<string, TSchema>)[n]]));

/** The order-list projection of 2.6, in the spec's order. */
export const OrderListItemSchema = Type.Object(
  pick([
    'id',
    'created_at',
    'closed_at',
    'cancelled_at',
    'merchant_team_name',
    'shop_name',
    'shop_type',
    'fulfillment_status',
    'payment_status',
    'priority',
    'order_number',
    'currency',
    'note',
    'shipping_method',
    'tags',
    'total_price',
    'customer_email',
    'customer_name',
    'customer_phone',
    'shipping_address_company',
    'shipping_address_address1',
    'shipping_address_address2',
    'shipping_address_city',
    'shipping_address_state',
    'shipping_address_country',
    'shipping_address_zip',
    'address_verified',
    'address_residential',
    'core_line_item_count',
    'unique_core_line_item_count',
    'fulfillment_count',
    'line_item_image_urls',
    'status',
  ]),
);
