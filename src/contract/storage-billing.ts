import { Type } from 'typebox';
import { Day, Id, Nullable, StringEnum, Timestamp, pageQuery, sortOrder } from './common.js';

// Daily storage billing (docs/billing.md "Storage"): an operator's run for a day and the
// snapshots the runs (scheduled or not) took.

export const StorageRunBody = Type.Object(
  {
    date: Day("the warehouse's local day to take; it must have ended in the warehouse's time zone"),
    warehouse_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);

export const StorageRunSchema = Type.Object({
  warehouse_id: Type.String(),
  warehouse_name: Type.String(),
  date: Day(),
  time_zone: Type.String({ description: "the warehouse's IANA time zone when the day was taken" }),
  created: Type.Boolean({ description: 'true: taken now; false: it had been taken before, and this is what exists' }),
  run_id: Type.String(),
  source: StringEnum(['SCHEDULE', 'API'] as const),
  cutoff_at: Timestamp,
  taken_at: Timestamp,
  snapshot_count: Type.Integer(),
  charge_count: Type.Integer(),
  amount: Type.Number({ description: "sum of the run's STORAGE charges" }),
});

export const StorageRunResultSchema = Type.Object({
  date: Day(),
  runs: Type.Array(StorageRunSchema),
});

export const StorageSnapshotSchema = Type.Object({
  id: Type.String(),
  warehouse_id: Type.String(),
  warehouse_name: Nullable(Type.String()),
  merchant_team_id: Type.String(),
  merchant_team_name: Nullable(Type.String()),
  date: Day("the warehouse's local day"),
  location_type_id: Nullable(Type.String({ description: 'null: locations without a location type' })),
  location_type_name: Nullable(Type.String()),
  locations: Type.Integer({ description: 'locations holding units of the merchant at the end of the day' }),
  units: Type.Integer({ description: 'units of the merchant on hand in them' }),
  run_id: Type.String(),
  charge_id: Nullable(Type.String({ description: 'its STORAGE charge; null when the rate card bills no storage for it' })),
  created_at: Timestamp,
});

export const StorageSnapshotListQuery = Type.Object({
  ...pageQuery(),
  warehouse_id: Type.Optional(Id),
  merchant_team_id: Type.Optional(Id),
  location_type_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'none: locations without a type' })),
  date_from: Type.Optional(Day('snapshots of this day or later')),
  date_to: Type.Optional(Day('snapshots of this day or earlier')),
  billed: Type.Optional(Type.Boolean({ description: 'true: with a charge; false: without' })),
  order: sortOrder,
});
