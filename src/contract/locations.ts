import { Type } from 'typebox';
import { LOCATION_TYPES, PUTAWAY_REASONS } from './inventory-enums.js';
import { Day, Id, IdParams, listOf, Nullable, pageQuery, StringEnum, Timestamp } from './common.js';
import { MAX_LINES, ProductRefFields } from './inventory.js';

// Locations (bins) and stock by bin and lot (issue 28; docs/floor.md).

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$', description: 'unique in the warehouse, e.g. A-01-03' });
const Barcode = Type.String({ minLength: 1, maxLength: 100, description: 'what a scanner reads at the bin; unique in the warehouse' });
const Type_ = StringEnum(LOCATION_TYPES, {
  description:
    'picking takes from PICKABLE first, then OVERSTOCK, STAGING, RECEIVING; never DAMAGED (damaged receipts and returns land there) or QUARANTINE (stock on hold)',
});
const PickSequence = Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'the walk order of a pick list' });

const editable = {
  barcode: Type.Optional(Nullable(Barcode)),
  type: Type.Optional(Type_),
  location_type_id: Type.Optional(Nullable(Id)),
  pick_sequence: Type.Optional(PickSequence),
  active: Type.Optional(Type.Boolean()),
};

export const LocationSchema = Type.Object({
  id: Type.String(),
  warehouse_id: Type.String(),
  warehouse_name: Type.Optional(Type.String({ description: "the warehouse's name (in the list)" })),
  name: Type.String(),
  barcode: Nullable(Type.String()),
  type: Type_,
  location_type_id: Nullable(Type.String()),
  pick_sequence: Type.Integer(),
  active: Type.Boolean(),
  is_default: Type.Boolean({ description: "the warehouse's default location: where stock goes when no bin is named" }),
  count_requested_at: Type.Union([Timestamp, Type.Null()], {
    description: 'when a short pick asked for this bin to be counted; cleared by a count of the bin',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreateLocationBody = Type.Object({ warehouse_id: Id, name: Name, ...editable }, { additionalProperties: false });

export const BulkLocationsBody = Type.Object(
  {
    warehouse_id: Id,
    range: Type.Optional(
      Type.String({ minLength: 4, maxLength: 200, description: 'FIRST..LAST, e.g. A-01-01..A-20-05 (numbers keep their zero padding)' }),
    ),
    type: Type.Optional(Type_),
    location_type_id: Type.Optional(Nullable(Id)),
    locations: Type.Optional(
      Type.Array(Type.Object({ name: Name, ...editable }, { additionalProperties: false }), { minItems: 1, maxItems: 10_000 }),
    ),
  },
  { additionalProperties: false, description: 'give range or locations' },
);

export const BulkLocationsSchema = Type.Object({ created: Type.Integer(), data: Type.Array(LocationSchema) });

export const UpdateLocationBody = Type.Object(
  { name: Type.Optional(Name), ...editable },
  { additionalProperties: false, minProperties: 1 },
);

export const LocationParams = IdParams('location_id');

export const LocationListQuery = Type.Object(
  {
    ...pageQuery({ maxLimit: 1000 }),
    warehouse_id: Type.Optional(Type.String({ maxLength: 4000, description: 'warehouse ids, comma-separated' })),
    type: Type.Optional(Type.String({ maxLength: 200, description: `comma-separated: ${LOCATION_TYPES.join(', ')}` })),
    active: Type.Optional(Type.Boolean()),
    name: Type.Optional(Type.String({ maxLength: 100, description: 'names starting with this, e.g. A-01' })),
    count_requested: Type.Optional(Type.Boolean({ description: 'true: the bins a short pick marked for a count (the count task list)' })),
  },
  { additionalProperties: false },
);

export const LocationListSchema = listOf(LocationSchema);

export const BinStockSchema = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  sku: Nullable(Type.String()),
  product_name: Type.String(),
  lot_tracked: Type.Boolean(),
  warehouse_id: Type.String(),
  warehouse_name: Type.String(),
  location_id: Type.String(),
  location_name: Type.String(),
  location_type: Type_,
  pick_sequence: Type.Integer(),
  lot_code: Nullable(Type.String()),
  expiration_date: Nullable(Type.String()),
  expired: Type.Boolean(),
  on_hand: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const BinStockQuery = Type.Object(
  {
    ...pageQuery({ maxLimit: 1000 }),
    product_id: Type.Optional(Type.String({ maxLength: 4000, description: 'product ids, comma-separated' })),
    sku: Type.Optional(Type.String({ maxLength: 255 })),
    warehouse_id: Type.Optional(Type.String({ maxLength: 4000, description: 'warehouse ids, comma-separated' })),
    location: Type.Optional(Type.String({ maxLength: 100, description: 'a location id, name or barcode' })),
    lot_code: Type.Optional(Type.String({ maxLength: 100 })),
    expiring_before: Type.Optional(Day('lots expiring before this day')),
  },
  { additionalProperties: false },
);

export const BinStockListSchema = listOf(BinStockSchema);

export const MoveBody = Type.Object(
  {
    warehouse_id: Id,
    from_location: Type.String({ minLength: 1, maxLength: 100, description: 'id, name or barcode' }),
    to_location: Type.String({ minLength: 1, maxLength: 100, description: 'id, name or barcode' }),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    lines: Type.Array(
      Type.Object(
        {
          ...ProductRefFields,
          quantity: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
          lot_code: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 100,
              description: "move this lot only (default: the bin's lots, earliest expiry first)",
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_LINES },
    ),
  },
  { additionalProperties: false },
);

export const MoveSchema = Type.Object({
  id: Type.String({ description: 'reference_id of the MOVED movements' }),
  warehouse_id: Type.String(),
  from_location_id: Type.String(),
  from_location_name: Type.String(),
  to_location_id: Type.String(),
  to_location_name: Type.String(),
  note: Nullable(Type.String()),
  actor_key_id: Type.String(),
  created_at: Timestamp,
  lines: Type.Array(
    Type.Object({
      product_id: Type.String(),
      sku: Nullable(Type.String()),
      quantity: Type.Integer(),
      lots: Type.Array(
        Type.Object({ lot_code: Nullable(Type.String()), expiration_date: Nullable(Type.String()), quantity: Type.Integer() }),
      ),
    }),
  ),
});

// ---- Putaway suggestions ----

export const PutawayQuery = Type.Object(
  {
    product_id: Id,
    warehouse_id: Id,
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'the units about to arrive (echoed)' })),
  },
  { additionalProperties: false },
);

export const PutawaySchema = Type.Object({
  product_id: Type.String(),
  sku: Nullable(Type.String()),
  warehouse_id: Type.String(),
  quantity: Nullable(Type.Integer()),
  location_id: Type.String({ description: 'the bin to put the units in' }),
  location_name: Type.String(),
  reason: StringEnum(PUTAWAY_REASONS, {
    description:
      "EXISTING_BIN: a pickable bin already holding the product; EMPTY_BIN: the first empty pickable bin; DEFAULT_LOCATION: the warehouse's default; DAMAGED_LOCATION: damaged units, to the warehouse's DAMAGED location",
  }),
});

// ---- The pick list of a picking session ----

const PickShare = Type.Object({
  fulfillment_order_id: Type.String(),
  order_number: Type.String(),
  tote_id: Nullable(Type.String()),
  tote_name: Nullable(Type.String()),
  quantity: Type.Integer(),
  picked: Type.Integer(),
  short: Type.Integer(),
  remaining: Type.Integer(),
});

export const PickRowSchema = Type.Object({
  location_id: Type.String(),
  location_name: Type.String(),
  location_type: Type_,
  pick_sequence: Type.Integer(),
  product_id: Type.String(),
  sku: Nullable(Type.String()),
  product_name: Type.String(),
  barcode: Nullable(Type.String({ description: "the product's barcode, what the picker scans" })),
  lot_code: Nullable(Type.String()),
  expiration_date: Nullable(Type.String()),
  quantity: Type.Integer({ description: 'picked + short + remaining' }),
  picked: Type.Integer({ description: 'units already scanned into totes at this row' }),
  short: Type.Integer({ description: 'units a picker reported missing here (short pick)' }),
  remaining: Type.Integer({ description: 'units still to pick here' }),
  totes: Type.Array(PickShare),
});

export const PickListSchema = Type.Object({
  picking_session_id: Type.String(),
  fulfillment_order_count: Type.Integer({ description: 'open fulfillment orders of the session' }),
  complete: Type.Boolean({ description: 'nothing is left to pick (rows with remaining 0 stay in the list)' }),
  rows: Type.Array(PickRowSchema, { description: 'the walk: one row per bin, product and lot, in pick_sequence order' }),
  short: Type.Array(
    Type.Object({
      fulfillment_order_id: Type.String(),
      product_id: Type.String(),
      sku: Nullable(Type.String()),
      quantity: Type.Integer({ description: 'units no pickable, unexpired bin holds' }),
    }),
  ),
});
