import { COUNTRY_CODES, CURRENCY_CODES, HS_CODE_PATTERN } from './iso.js';
import { Type, type Static } from 'typebox';
import { Nullable, Opt, pageQuery, sortOrder, StringEnum, Timestamp, Uuid } from './common.js';
import { MEASUREMENT_UNITS, PLATFORMS, PRODUCT_TYPES, REPLENISHMENT_STRATEGIES, WEIGHT_UNITS } from './enums.js';

// Product schemas: ops records (spec 2.3), merchant records (spec 2.4), write bodies and list
// queries. Response schemas list every field: fast-json-stringify drops anything else.

const ProductType = StringEnum(PRODUCT_TYPES);
const Text = (maxLength = 255) => Type.Optional(Nullable(Type.String({ maxLength })));
// Master data checked against ISO codes (src/contract/iso.ts), so the OpenAPI document lists them.
const Currency = Type.Optional(Nullable(StringEnum(CURRENCY_CODES, { description: 'ISO 4217 currency code, e.g. USD' })));
const Country = Type.Optional(Nullable(StringEnum(COUNTRY_CODES, { description: 'ISO 3166-1 alpha-2 country code, e.g. PT' })));
const HsCode = Type.Optional(
  Nullable(Type.String({ pattern: HS_CODE_PATTERN, maxLength: 13, description: 'Harmonized System code: 4 to 10 digits, e.g. 6912.00' })),
);
const Amount = Type.Optional(Nullable(Type.Number({ minimum: 0 })));

// ---------- write bodies ----------

const ConfigBody = Type.Object(
  {
    replenishment_source_strategy: Type.Optional(StringEnum(REPLENISHMENT_STRATEGIES)),
    replenishment_increment_level: Amount,
    replenishment_maximum_level: Amount,
    replenishment_minimum_level: Amount,
  },
  { additionalProperties: false, description: 'Merged into the stored config member by member; null resets it.' },
);

const ComponentBody = Type.Object(
  {
    component_product_id: Type.Optional(Uuid),
    component_product_sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    component_quantity: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Defaults to 1.' })),
  },
  { additionalProperties: false, description: 'A product of the same team, by id or SKU.' },
);

const components = (what: string) =>
  Type.Optional(
    Type.Array(ComponentBody, {
      maxItems: 100,
      description: `${what}. Omitted: kept; []: all removed; an array: replaces all.`,
    }),
  );

/** Fields both families may write (the merchant family's whole set). */
const merchantFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  type: ProductType,
  sku: Text(),
  description: Text(5000),
  image_url: Text(2048),
  length: Amount,
  width: Amount,
  height: Amount,
  weight: Amount,
  measurement_unit: Type.Optional(
    StringEnum(MEASUREMENT_UNITS, { description: "Defaults to the owning team's system: METRIC MM, IMPERIAL IN." }),
  ),
  weight_unit: Type.Optional(StringEnum(WEIGHT_UNITS, { description: "Defaults to the owning team's system: METRIC G, IMPERIAL LB." })),
  cost_price: Amount,
  cost_currency: Currency,
  customs_description: Text(),
  customs_value: Amount,
  customs_value_currency: Currency,
  country_of_origin: Country,
  hs_code: HsCode,
  config: Type.Optional(Nullable(ConfigBody)),
  bundle_components: components('Virtual bundle components'),
  assembly_components: components('Assembly components'),
};

const opsFields = {
  ...merchantFields,
  barcode: Text(),
  mpn: Text(),
  manufacturer: Text(),
  printed_commodity_identifier: Text(),
  eccn: Text(32),
  is_hazmat: Type.Optional(Type.Boolean()),
  lot_tracked: Type.Optional(
    Type.Boolean({ description: 'stock held per lot (lot_code, expiration_date) and picked earliest expiry first; see docs/floor.md' }),
  ),
  category: Text(),
  subcategory: Text(),
  pick_fee_override: Amount,
  first_article_inspection_completed_at: Type.Optional(Nullable(Timestamp)),
  increment_level: Amount,
  maximum_level: Amount,
  minimum_level: Amount,
};

// Create bodies need name and type (everything else is optional); update bodies are partial.
const optionalNameType = <F extends typeof merchantFields>(fields: F) => ({
  ...fields,
  name: Type.Optional(fields.name),
  type: Type.Optional(fields.type),
});

export const OpsCreateBody = Type.Object(
  {
    ...opsFields,
    merchant_team_id: Type.Optional(Type.String({ format: 'uuid', description: 'Create for this merchant team delegated to the caller.' })),
  },
  { additionalProperties: false },
);
export const OpsUpdateBody = Type.Object(optionalNameType(opsFields), { additionalProperties: false });
export const MerchantCreateBody = Type.Object(merchantFields, { additionalProperties: false });
export const MerchantUpdateBody = Type.Object(optionalNameType(merchantFields), { additionalProperties: false });

/** Every writable product field (ops family; the merchant family writes a subset). */
export type ProductInput = Static<typeof OpsUpdateBody>;
/** Written fields the domain converts rather than stores as sent. */
const CONVERTED = new Set(['config', 'bundle_components', 'assembly_components', 'first_article_inspection_completed_at']);
/** The writable fields stored in the product's column of the same name, as sent. */
export const PRODUCT_STORED_AS_SENT = Object.keys(opsFields).filter((k) => !CONVERTED.has(k)) as Array<keyof ProductInput>;

// ---------- queries and params ----------

const sortQuery = {
  order_by: Type.Optional(StringEnum(['created_at', 'updated_at'] as const, { default: 'created_at' })),
  order: sortOrder,
};

export const MerchantProductQuery = Type.Object(
  {
    ...pageQuery(),
    search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive; matches name or SKU.' })),
    ...sortQuery,
  },
  { additionalProperties: false },
);

const flag = (description: string) => Type.Optional(Type.Boolean({ description }));

export const OpsProductQuery = Type.Object(
  {
    ...pageQuery(),
    search: Type.Optional(Type.String({ maxLength: 255, description: 'Case-insensitive; matches name, SKU or barcode.' })),
    ...sortQuery,
    type: Type.Optional(Type.String({ description: `Comma-separated product types (${PRODUCT_TYPES.join(', ')}).` })),
    team_id: Type.Optional(Type.String({ maxLength: 64, description: 'Owning team.' })),
    has_image: flag('With (true) or without (false) an image_url.'),
    has_barcode: flag('With or without a barcode.'),
    has_remote_products: flag('With or without product listing variants.'),
    was_inspected: flag('With or without first_article_inspection_completed_at.'),
    warehouse_id: Type.Optional(
      Type.String({
        description: 'Comma-separated warehouse ids: lists products stocked there and limits inventory to them.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ProductParams = Type.Object({ product_id: Uuid });

// ---------- responses ----------

const ConfigRecord = Type.Object({
  replenishment_source_strategy: StringEnum(REPLENISHMENT_STRATEGIES),
  replenishment_increment_level: Opt(Type.Number()),
  replenishment_maximum_level: Opt(Type.Number()),
  replenishment_minimum_level: Opt(Type.Number()),
});

const Quantity = Type.Object({
  count: Type.Number(),
  operations: Type.Array(Type.Object({ count: Type.Number(), label: Type.String() }), {
    description:
      'Terms adding up to count, explained from the inventory ledger: committed "open_orders"; unavailable by reason ("damaged", "quarantine", …); on_order "purchase_orders" / "transfers"; "stock_level" for on_hand and any part the ledger does not explain; on_hand, -committed, -unavailable for available.',
  }),
});

const WarehouseInventory = Type.Object({
  warehouse_id: Type.String(),
  warehouse_name: Type.String(),
  on_order: Quantity,
  unavailable: Quantity,
  committed: Quantity,
  on_hand: Quantity,
  available: Quantity,
});

const teamFields = {
  team_id: Type.String(),
  team_name: Opt(Type.String()),
  fulfiller_team_id: Opt(Type.String()),
  fulfiller_team_name: Opt(Type.String()),
  merchant_team_id: Opt(Type.String()),
  merchant_team_name: Opt(Type.String()),
};

const componentFields = {
  component_product_id: Type.String(),
  component_product_sku: Opt(Type.String()),
  component_product_name: Type.String(),
  component_product_image_url: Opt(Type.String()),
  component_quantity: Type.Number(),
  created_at: Timestamp,
  updated_at: Timestamp,
};
const BundleComponent = Type.Object({ id: Type.String(), virtual_bundle_product_id: Type.String(), ...componentFields });
const AssemblyComponent = Type.Object({ id: Type.String(), assembly_product_id: Type.String(), ...componentFields });

const ListingVariant = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  product_type: ProductType,
  product_listing_id: Opt(Type.String()),
  product_listing_name: Opt(Type.String()),
  shop_id: Opt(Type.String()),
  shop_name: Opt(Type.String()),
  shop_slug: Opt(Type.String()),
  shop_type: StringEnum(PLATFORMS),
  remote_id: Opt(Type.String()),
  remote_shopify_inventory_item_id: Opt(Type.String()),
  sku: Opt(Type.String()),
  barcode: Opt(Type.String()),
  name: Opt(Type.String()),
  image_url: Opt(Type.String()),
  price: Opt(Type.Number()),
  currency: Opt(Type.String()),
  hs_code: Opt(Type.String()),
  country_of_origin: Opt(Type.String()),
  weight: Opt(Type.Number()),
  weight_unit: Opt(Type.String()),
  synced_at: Opt(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  ...teamFields,
});

const opsBase = {
  id: Type.String(),
  name: Type.String(),
  sku: Opt(Type.String()),
  description: Opt(Type.String()),
  barcode: Opt(Type.String()),
  mpn: Opt(Type.String()),
  manufacturer: Opt(Type.String()),
  image_url: Opt(Type.String()),
  type: ProductType,
  ...teamFields,
  length: Opt(Type.Number()),
  width: Opt(Type.Number()),
  height: Opt(Type.Number()),
  weight: Opt(Type.Number()),
  measurement_unit: StringEnum(MEASUREMENT_UNITS),
  weight_unit: StringEnum(WEIGHT_UNITS),
  cost_price: Opt(Type.Number()),
  cost_currency: Opt(Type.String()),
  customs_value: Opt(Type.Number()),
  customs_value_currency: Opt(Type.String()),
  customs_description: Opt(Type.String()),
  country_of_origin: Opt(Type.String()),
  hs_code: Opt(Type.String()),
  printed_commodity_identifier: Opt(Type.String()),
  eccn: Opt(Type.String()),
  is_hazmat: Type.Boolean(),
  lot_tracked: Type.Boolean({ description: 'stock held per lot and picked FEFO (docs/floor.md)' }),
  category: Opt(Type.String()),
  subcategory: Opt(Type.String()),
  pick_fee_override: Opt(Type.Number()),
  first_article_inspection_completed_at: Opt(Timestamp),
  config: ConfigRecord,
  increment_level: Opt(Type.Number()),
  maximum_level: Opt(Type.Number()),
  minimum_level: Opt(Type.Number()),
  available: Type.Number({ description: 'on_hand - committed - unavailable' }),
  on_hand: Type.Number(),
  committed: Type.Number(),
  unavailable: Type.Number(),
  on_order: Type.Number(),
  inventory_by_warehouse: Type.Array(WarehouseInventory),
  virtual_bundle_component_count: Type.Integer(),
  product_listing_variant_count: Type.Object(Object.fromEntries(PLATFORMS.map((p) => [p, Type.Integer()]))),
};

/** Parts of the ops record that are not the product's own columns (teams, config, stock, counts). */
const DERIVED = new Set([
  ...Object.keys(teamFields),
  'lot_tracked',
  'config',
  'available',
  'on_hand',
  'committed',
  'unavailable',
  'on_order',
  'inventory_by_warehouse',
  'virtual_bundle_component_count',
  'product_listing_variant_count',
]);
/** The product's own columns the ops record shows as stored. */
export const OPS_PRODUCT_COLUMNS = Object.keys(opsBase).filter((k) => !DERIVED.has(k));

const children = {
  virtual_bundle_products: Type.Array(BundleComponent),
  assembly_products: Type.Array(AssemblyComponent),
  product_listing_variants: Type.Array(ListingVariant),
};
const actions = { supported_actions: Type.Array(Type.Object({ action: StringEnum(['VIEW_PRODUCT'] as const) })) };
const timestamps = { created_at: Timestamp, updated_at: Timestamp };

/** List entries: no child arrays. */
export const OpsProductListItem = Type.Object({ ...opsBase, ...actions, ...timestamps });
/** GET one. */
export const OpsProductDetail = Type.Object({ ...opsBase, ...children, ...actions, ...timestamps });
/** Create and update responses: no supported_actions. */
export const OpsProductWritten = Type.Object({ ...opsBase, ...children, ...timestamps });

/** What a merchant key sees of a product: the ops record's catalogue fields, none of the fulfiller's own. */
export const MERCHANT_PRODUCT_COLUMNS = [
  'id',
  ...Object.keys(merchantFields).filter((k) => !CONVERTED.has(k)),
  'first_article_inspection_completed_at',
  'team_id',
] as Array<keyof typeof opsBase>;
export const MerchantProduct = Type.Pick(Type.Object(opsBase), [...MERCHANT_PRODUCT_COLUMNS, 'config']);

// ---------- bulk upsert by SKU (issue 10 item 7) ----------

const { bundle_components: _b, assembly_components: _a, ...bulkFields } = optionalNameType(opsFields);

export const BulkProductsBody = Type.Object(
  {
    merchant_team_id: Type.Optional(
      Type.String({
        format: 'uuid',
        description: "Upsert the products of this merchant team delegated to the caller (default: the caller's team).",
      }),
    ),
    products: Type.Array(
      Type.Object(
        {
          ...bulkFields,
          sku: Type.String({
            minLength: 1,
            maxLength: 255,
            description:
              'the key: an existing product of the team with this SKU is updated, else one is created (name and type then required)',
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  { additionalProperties: false },
);

export const BulkProductsResult = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer(),
  failed: Type.Integer(),
  results: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'position in products[]' }),
      sku: Type.String(),
      status: StringEnum(['created', 'updated', 'failed'] as const),
      id: Nullable(Type.String()),
      error: Nullable(Type.Object({ type: Type.String(), status: Type.Integer(), detail: Type.String() })),
    }),
  ),
});
