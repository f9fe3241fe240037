import { Type } from 'typebox';
import { PICKING_FILTER_STATUSES } from './enums.js';
import { Id, Nullable, StringEnum, Timestamp, listOf, pageQuery, sortOrder } from './common.js';

const NullableTs = Nullable(Timestamp);
const NullableStr = Nullable(Type.String());

/** Spec 2.10: exactly these fields. */
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
