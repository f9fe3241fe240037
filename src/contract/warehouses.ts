import { Type } from 'typebox';
import { Opt, pageQuery, StringEnum, Timestamp, Uuid } from './common.js';

// Warehouses of the caller's fulfiller team (created with `fos admin warehouse create`; the API sets their time zone).

export const WarehouseListQuery = Type.Object(
  {
    ...pageQuery(),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: 'only the warehouses with exactly this name (case-sensitive); the CLI resolves `--warehouse <name>` with it',
      }),
    ),
  },
  { additionalProperties: false },
);

export const WarehouseParams = Type.Object({ warehouse_id: Uuid });

export const WarehouseSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  address1: Opt(Type.String()),
  city: Opt(Type.String()),
  state: Opt(Type.String()),
  zip: Opt(Type.String()),
  country: Opt(Type.String()),
  label_format: StringEnum(['PDF', 'ZPL'] as const, { description: 'document of bought labels unless a label request says otherwise' }),
  time_zone: Type.String({ description: "IANA time zone name (default UTC): where the warehouse's day ends, for daily storage billing" }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const WarehouseUpdateBody = Type.Object(
  {
    time_zone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name, e.g. America/Los_Angeles' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
