import { LABEL_FORMATS, MEASUREMENT_UNITS, PACKAGE_STATUSES, RATE_STRATEGIES, WEIGHT_UNITS } from './enums.js';
import { Type, type TSchema } from 'typebox';
import { PACKAGE_CONFIG } from './package-config.js';
import { Id, Uuid, listOf, Nullable, Opt, pageQuery, StringEnum, Timestamp } from './common.js';
import { FulfillmentSummarySchema, PackageLineItemSchema, RateErrorDataSchema, ShippingLabelSchema } from './package-nested.js';
import { rateFieldsInput, rateFieldsNullable } from './rate-strategy.js';

// Package 2.7 and the package / label / fulfill bodies (spec 4.6, 4.7; docs/fulfillment.md).

export { MEASUREMENT_UNITS, PACKAGE_STATUSES, RATE_STRATEGIES, WEIGHT_UNITS };

const S = () => Opt(Type.String());
const N = () => Opt(Type.Number());
const T = () => Opt(Timestamp);

const ADDRESS = ['name', 'company', 'address1', 'address2', 'city', 'state', 'country', 'zip', 'phone', 'email'];
const prefixed = (prefix: string, fields: string[]) => Object.fromEntries(fields.map((f) => [`${prefix}${f}`, S()]));

// insurance_policy { mode: 'amount', amount }: each package insured for `amount` (automation rules' insurance_amount).
const INSURED_AMOUNT = Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: "with mode 'amount': the insured value" });

const configField = (kind: string): TSchema => {
  switch (kind) {
    case 'boolean':
      return Type.Boolean();
    case 'number':
      return Type.Number();
    case 'insurance':
      return Type.Object({ mode: Type.String(), amount: Type.Optional(INSURED_AMOUNT) }, { additionalProperties: true });
    default:
      return Type.String();
  }
};

export const PackageConfigSchema = Type.Object(
  Object.fromEntries(Object.entries(PACKAGE_CONFIG).map(([k, v]) => [k, Opt(configField(v.kind))])),
);

/** Request form: every key optional, null clears it, unknown keys rejected. */
export const PackageConfigBody = Type.Object(
  Object.fromEntries(Object.entries(PACKAGE_CONFIG).map(([k, v]) => [k, Type.Optional(Nullable(configField(v.kind)))])),
  { additionalProperties: false },
);

const packageFields = {
  id: Type.String(),
  idempotency_key: S(),
  name: S(),
  created_at: Timestamp,
  updated_at: Timestamp,
  manifested_at: T(),
  shipped_at: T(),
  status: StringEnum(PACKAGE_STATUSES),
  type: Type.String({ description: 'FULFILLMENT_ORDER' }),
  packing_slip_url: S(),
  length: N(),
  width: N(),
  height: N(),
  measurement_unit: S(),
  weight: N(),
  weight_unit: S(),
  total_customs_value: Type.Number(),
  total_item_quantity: Type.Integer(),
  unique_line_item_count: Type.Integer(),
  line_item_hash: S(),
  picking_session_id: S(),
  fulfillment_order_id: S(),
  order_id: S(),
  work_order_id: S(),
  return_id: S(),
  carton_id: S(),
  carton_name: S(),
  shipping_label_id: S(),
  scan_form_id: S(),
  bulk_ship_id: S(),
  bulk_ship_template_package_id: S(),
  package_preset_id: S(),
  package_preset_name: S(),
  rate_shop_id: S(),
  rate_shop_name: S(),
  warehouse_id: S(),
  warehouse_name: S(),
  merchant_team_id: Type.String(),
  merchant_team_name: S(),
  fulfiller_team_id: Type.String(),
  fulfiller_team_name: S(),
  carrier_id: S(),
  service_id: S(),
  provider_rate_id: S(),
  carrier_integration_id: S(),
  carrier_integration_name: S(),
  carrier_integration_type: S(),
  formatted_service: S(),
  deliver_by: T(),
  shipment_status: S(),
  error_message: S(),
  tracking_number: Opt(Type.String({ description: "the label's tracking code; null until labelled" })),
  shipping_label_tracking_code: S(),
  shipping_label_tracking_url: S(),
  shipping_label_formatted_service: S(),
  shipping_label_url: S(),
  ...prefixed('from_address_', ADDRESS),
  ...prefixed('to_address_', ADDRESS),
  config: PackageConfigSchema,
  rate_error_data: Opt(RateErrorDataSchema),
  package_line_items: Type.Array(PackageLineItemSchema),
  fulfillment: Opt(FulfillmentSummarySchema),
  shipping_label: Opt(ShippingLabelSchema),
};

export const PackageSchema = Type.Object(packageFields);
export const PackageListSchema = listOf(PackageSchema);

export const FulfillResponse = Type.Object({
  ...packageFields,
  fulfillment_order: Type.Object({
    id: Type.String(),
    status: Type.String(),
    line_items: Type.Array(
      Type.Object({
        id: Type.String(),
        product_id: S(),
        sku: S(),
        name: Type.String(),
        quantity: Type.Integer(),
        remaining_quantity: Type.Integer(),
      }),
    ),
  }),
});

// ---------- requests ----------

const Dim = () => Type.Optional(Nullable(Type.Number({ minimum: 0 })));

const lineFields = {
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  product_id: Type.Optional(Id),
  core_fulfillment_order_line_item_id: Type.Optional(Id),
  quantity: Type.Integer({ minimum: 1 }),
  lot_code: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  expiration_date: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
};

export const editable = {
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  weight: Dim(),
  weight_unit: Type.Optional(StringEnum(WEIGHT_UNITS)),
  length: Dim(),
  width: Dim(),
  height: Dim(),
  measurement_unit: Type.Optional(StringEnum(MEASUREMENT_UNITS)),
  ...rateFieldsNullable(),
  carton_id: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  config: Type.Optional(PackageConfigBody),
};

export const CreatePackageBody = Type.Object(
  {
    fulfillment_order_id: Uuid,
    ...editable,
    package_line_items: Type.Array(Type.Object(lineFields, { additionalProperties: false }), { minItems: 1, maxItems: 500 }),
    idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'or the Idempotency-Key header' })),
  },
  { additionalProperties: false },
);

export const UpdatePackageBody = Type.Object(
  {
    fulfillment_order_id: Type.Optional(Uuid),
    type: Type.Optional(Type.String()),
    ...editable,
    package_line_items: Type.Optional(
      Type.Array(Type.Object({ id: Type.Optional(Id), ...lineFields }, { additionalProperties: false }), { minItems: 1, maxItems: 500 }),
    ),
  },
  { additionalProperties: false },
);

export const PackageListQuery = Type.Object(
  {
    ...pageQuery(),
    fulfillment_order_id: Type.Optional(Uuid),
    status: Type.Optional(Type.String({ description: `comma-separated: ${PACKAGE_STATUSES.join(', ')}` })),
    scan_form_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'the packages of this scan form' })),
  },
  { additionalProperties: false },
);

export const PackageParams = Type.Object({ package_id: Id });

/**
 * One body for both ways of labelling: the six upload fields together (an externally generated
 * label), or rate shopping ({ rate_strategy: CHEAPEST }, optionally carrier_id / service_id;
 * {} uses the package's rate_strategy). The domain checks the combination.
 */
export const LabelBody = Type.Object(
  {
    label_url: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
    tracking_number: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    carrier: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    service: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    cost: Type.Optional(Type.Number({ minimum: 0 })),
    cost_currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$' })),
    tracking_url: Type.Optional(Type.String({ maxLength: 4096 })),
    ...rateFieldsInput(),
    carrier_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    service_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    label_format: Type.Optional(
      StringEnum(LABEL_FORMATS, {
        description: 'rate shopping: the document at label_url, a 4x6 PDF (default) or ZPL for thermal printers',
      }),
    ),
  },
  { additionalProperties: false },
);

export const LabelDocumentQuery = Type.Object(
  {
    format: Type.Optional(StringEnum(['pdf', 'zpl'] as const, { default: 'pdf' })),
  },
  { additionalProperties: false },
);

export const FulfillBody = Type.Object(
  {
    locked_by: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          "must equal the fulfillment order's lock_owner. Extension: left out, the fulfillment order is locked for this " +
          'fulfill and released by it (409 lock-held when someone else holds its lock)',
      }),
    ),
  },
  { additionalProperties: false },
);
