import { Type } from 'typebox';
import { PICKING_FILTER_STATUSES } from './enums.js';
import { PickRowSchema } from './locations.js';
import { Id, Nullable, StringEnum, Timestamp, listOf, pageQuery, sortOrder } from './common.js';

const NullableTs = Nullable(Timestamp);
const NullableStr = Nullable(Type.String());

/** Spec 2.10, plus the picking extensions of issue 28 (picked_by_*, picked_quantity, short_picked). */
export const PickingEntrySchema = Type.Object({
  fulfillment_order_id: Type.String(),
  picking_session_id: Type.String(),
  order_number: Type.String(),
  status: StringEnum(['PENDING', 'FULFILLED', 'CANCELLED'] as const),
  tote_id: NullableStr,
  tote_name: NullableStr,
  packing_started_at: NullableTs,
  packing_completed_at: NullableTs,
  packed_by_user_id: NullableStr,
  packed_by_user_name: NullableStr,
  picked_by_user_id: NullableStr,
  picked_by_user_name: NullableStr,
  picked_quantity: Type.Integer({ description: 'units scanned into its tote (pick scans)' }),
  short_picked: Type.Boolean({ description: 'a picker reported units missing for it (short pick)' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const PickingEntryListSchema = listOf(PickingEntrySchema);

export const PickingSessionSchema = Type.Object({
  id: Type.String(),
  team_id: Type.String(),
  name: Type.String(),
  fulfillment_order_count: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ToteSchema = Type.Object({
  id: Type.String(),
  team_id: Type.String(),
  name: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const Name = Type.String({ minLength: 1, maxLength: 200 });
export const NameBody = Type.Object({ name: Name }, { additionalProperties: false });

/** A wave rule (issue 28, docs/floor.md): which open fulfillment orders a new session takes. */
export const WaveRule = Type.Object(
  {
    warehouse_id: Id,
    max_orders: Type.Integer({ minimum: 1, maximum: 200, description: 'At most this many fulfillment orders' }),
    carrier_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Only orders whose carrier selection names this carrier' }),
    ),
    shipping_method: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only orders with this shipping method' })),
    single_item_only: Type.Optional(Type.Boolean({ description: 'Only fulfillment orders with exactly one unit to ship' })),
  },
  { additionalProperties: false },
);

export const CreateSessionBody = Type.Object(
  {
    name: Type.Optional(Name),
    fulfillment_order_ids: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 200, uniqueItems: true })),
    wave: Type.Optional(WaveRule),
  },
  { additionalProperties: false },
);

export const AssignBody = Type.Object(
  {
    fulfillment_order_ids: Type.Array(Id, { minItems: 1, maxItems: 200, uniqueItems: true }),
    tote_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);

export const AssignResponse = Type.Object({ data: Type.Array(PickingEntrySchema) });

export const SessionFoQuery = Type.Object({
  status: Type.Optional(StringEnum(PICKING_FILTER_STATUSES)),
  ...pageQuery({ defaultLimit: 10, maxLimit: 50 }),
  order_by: Type.Optional(StringEnum(['order_number', 'created_at', 'updated_at'] as const, { default: 'order_number' })),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'asc' })),
});

export const SessionListQuery = Type.Object({ ...pageQuery(), order: sortOrder });
export const ToteListQuery = Type.Object({ ...pageQuery() });

// ---- Pick scans (issue 28; docs/floor.md) ----

const Code = Type.String({ minLength: 1, maxLength: 200 });

export const PickScanBody = Type.Object(
  {
    location: Type.String({ minLength: 1, maxLength: 200, description: 'the bin scanned: its name or barcode' }),
    barcode: Type.String({ minLength: 1, maxLength: 200, description: "the item scanned: the product's barcode or SKU" }),
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1, description: 'units (short: units NOT found)' })),
    tote: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'the tote they go into: its name or id' })),
    lot_code: Type.Optional(Code),
    short: Type.Optional(Type.Boolean({ description: 'report a short pick: `quantity` units are not in the bin' })),
    allow_expired: Type.Optional(Type.Boolean({ description: 'take units of an expired lot (refused otherwise)' })),
  },
  { additionalProperties: false },
);

export const PickScanSchema = Type.Object({
  id: Type.String(),
  location_id: Type.String(),
  location_name: Type.String(),
  product_id: Type.String(),
  sku: NullableStr,
  lot_code: NullableStr,
  quantity: Type.Integer(),
  tote_name: NullableStr,
  fulfillment_order_id: Type.String(),
  short: Type.Boolean(),
  created_at: Timestamp,
});

export const PickScanResponse = Type.Object({
  scan: PickScanSchema,
  next: Type.Union([PickRowSchema, Type.Null()], { description: 'the next row with units to pick, null when complete' }),
  complete: Type.Boolean(),
});
