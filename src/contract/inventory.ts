import { Type, type TProperties } from 'typebox';
import { ADJUSTMENT_REASONS, BUCKETS, MOVEMENT_KINDS, PUTAWAY_REASONS, RECEIPT_CONDITIONS, TRANSFER_STATUSES } from './inventory-enums.js';
import { Id, listOf, Nullable, pageQuery, StringEnum, Timestamp } from './common.js';

// Inventory levels, the movement ledger and adjustments (issue 10; docs/inventory.md).

export const MAX_LINES = 1000;
const Quantity = Type.Integer({ minimum: -1_000_000_000, maximum: 1_000_000_000 });

/** product_id or sku: exactly one (checked by the domain, which names the line). */
export const ProductRefFields = {
  product_id: Type.Optional(Id),
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
};

const figures = {
  on_hand: Type.Integer(),
  committed: Type.Integer(),
  unavailable: Type.Integer(),
  on_order: Type.Integer(),
  available: Type.Integer({ description: 'on_hand - committed - unavailable' }),
};

export const InventoryLevelSchema = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  sku: Nullable(Type.String()),
  product_name: Type.String(),
  product_team_id: Type.String({ description: 'the team owning the product (a delegated merchant, or this team)' }),
  warehouse_id: Type.String(),
  warehouse_name: Type.String(),
  ...figures,
  minimum_level: Nullable(Type.Number()),
  maximum_level: Nullable(Type.Number()),
  increment_level: Nullable(Type.Number()),
  below_minimum: Type.Boolean({ description: 'available + on_order < minimum_level' }),
  reorder_quantity: Nullable(
    Type.Integer({
      description:
        'units that fill available + on_order up to maximum_level (rounded up to increment_level); 0 when enough; null without levels',
    }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const InventoryListQuery = Type.Object(
  {
    ...pageQuery({ maxLimit: 1000 }),
    product_id: Type.Optional(Type.String({ maxLength: 4000, description: 'product ids, comma-separated' })),
    sku: Type.Optional(Type.String({ maxLength: 255 })),
    warehouse_id: Type.Optional(Type.String({ maxLength: 4000, description: 'warehouse ids, comma-separated' })),
    below_minimum: Type.Optional(
      Type.Boolean({ description: "only levels whose available + on_order is below the product's minimum_level" }),
    ),
  },
  { additionalProperties: false },
);

export const MovementSchema = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  sku: Nullable(Type.String()),
  warehouse_id: Type.String(),
  warehouse_name: Type.String(),
  bucket: StringEnum(BUCKETS),
  delta: Type.Integer(),
  kind: StringEnum(MOVEMENT_KINDS),
  reason: Nullable(Type.String()),
  note: Nullable(Type.String()),
  reference_type: Nullable(Type.String({ description: 'order, draft_order, package, purchase_order, adjustment, demo' })),
  reference_id: Nullable(Type.String()),
  actor_key_id: Nullable(
    Type.String({
      description: "the API key, or the agent (MCP) connection, whose request made the change (null for the server's own work)",
    }),
  ),
  lot_code: Nullable(Type.String()),
  expiration_date: Nullable(Type.String()),
  location_id: Nullable(
    Type.String({ description: 'on_hand rows: the bin the units entered or left (null: no bin, before locations or unplaced)' }),
  ),
  location_stock_id: Nullable(Type.String({ description: 'on_hand rows: the stock row (product, bin, lot) changed' })),
  work_order_id: Nullable(Type.String({ description: 'the work order (kit build) that consumed or built these units' })),
  created_at: Timestamp,
});

export const MovementListQuery = Type.Object(
  {
    ...pageQuery({ maxLimit: 1000 }),
    product_id: Type.Optional(Type.String({ maxLength: 4000, description: 'product ids, comma-separated' })),
    sku: Type.Optional(Type.String({ maxLength: 255 })),
    warehouse_id: Type.Optional(Type.String({ maxLength: 4000, description: 'warehouse ids, comma-separated' })),
    kind: Type.Optional(Type.String({ maxLength: 400, description: `comma-separated: ${MOVEMENT_KINDS.join(', ')}` })),
    reference_id: Type.Optional(Type.String({ maxLength: 64 })),
    location_id: Type.Optional(Type.String({ maxLength: 64, description: 'movements of one bin' })),
    work_order_id: Type.Optional(Type.String({ maxLength: 64, description: 'movements of one work order' })),
    created_at_min: Type.Optional(Timestamp),
    created_at_max: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);

export const AdjustmentBody = Type.Object(
  {
    warehouse_id: Id,
    reason: StringEnum(ADJUSTMENT_REASONS, { description: 'what the lines mean: see docs/inventory.md' }),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    force: Type.Optional(Type.Boolean({ description: 'allow on_hand below committed + unavailable (never below zero)' })),
    dry_run: Type.Optional(
      Type.Boolean({
        description: 'check every line and answer what the adjustment would do, changing nothing (the answer has dry_run: true)',
      }),
    ),
    location: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'a bin of the warehouse (id, name or barcode): counts and deltas apply there (see docs/floor.md)',
      }),
    ),
    lines: Type.Array(
      Type.Object(
        {
          ...ProductRefFields,
          lot_code: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'with location: the lot counted or adjusted' })),
          expiration_date: Type.Optional(
            Type.String({
              format: 'date',
              maxLength: 10,
              description: "with location and lot_code: the lot's expiry when units are added",
            }),
          ),
          delta: Type.Optional(Quantity),
          counted: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 1_000_000_000,
              description: 'the on_hand counted: on_hand is set to it (CYCLE_COUNT, CORRECTION)',
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

export const AdjustmentSchema = Type.Object({
  id: Type.String({ description: 'reference_id of the movements it wrote' }),
  warehouse_id: Type.String(),
  warehouse_name: Type.String(),
  reason: StringEnum(ADJUSTMENT_REASONS),
  note: Nullable(Type.String()),
  force: Type.Boolean(),
  actor_key_id: Type.String(),
  created_at: Timestamp,
  lines: Type.Array(
    Type.Object({
      product_id: Type.String(),
      sku: Nullable(Type.String()),
      delta: Type.Integer({ description: 'the change the line made (for a count: counted - on_hand before)' }),
      counted: Nullable(Type.Integer()),
      location_id: Nullable(
        Type.String({ description: 'the bin the units went to or were counted in; null when they left by the pick order' }),
      ),
      location_name: Nullable(Type.String()),
      putaway: Nullable(
        StringEnum(PUTAWAY_REASONS, { description: 'how the bin was chosen for units added without a location (docs/floor.md)' }),
      ),
      ...figures,
      before: Type.Object(figures, { description: "the level's figures before this adjustment (the others are after it)" }),
    }),
  ),
  dry_run: Type.Optional(Type.Literal(true, { description: 'present on a dry run: nothing was changed' })),
});

export const InventoryListSchema = listOf(InventoryLevelSchema);
export const MovementListSchema = listOf(MovementSchema);

// ---- Transfers ----

const TransferLineRef = { ...ProductRefFields, quantity: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }) };

export const CreateTransferBody = Type.Object(
  {
    from_warehouse_id: Id,
    to_warehouse_id: Id,
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    lines: Type.Array(Type.Object(TransferLineRef, { additionalProperties: false }), { minItems: 1, maxItems: MAX_LINES }),
  },
  { additionalProperties: false },
);

/** A receipt body (purchase orders, transfers, returns): lines with a condition; DAMAGED units are set aside. */
export const receiptBody = <L extends TProperties, E extends TProperties = {}>(line: L, extra: E = {} as E) =>
  Type.Object(
    {
      ...extra,
      note: Type.Optional(Type.String({ maxLength: 2000 })),
      lines: Type.Array(
        Type.Object(
          {
            ...line,
            condition: Type.Optional(
              StringEnum(RECEIPT_CONDITIONS, {
                default: 'SELLABLE',
                description:
                  'SELLABLE goes on hand; DAMAGED goes on hand and is set aside (unavailable), in a DAMAGED location (docs/warehouses.md)',
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

export const ReceiveTransferBody = receiptBody(TransferLineRef);

export const TransferSchema = Type.Object({
  id: Type.String(),
  status: StringEnum(TRANSFER_STATUSES),
  from_warehouse_id: Type.String(),
  from_warehouse_name: Nullable(Type.String()),
  to_warehouse_id: Type.String(),
  to_warehouse_name: Nullable(Type.String()),
  reference: Nullable(Type.String()),
  note: Nullable(Type.String()),
  created_by_key_id: Nullable(Type.String()),
  received_at: Nullable(Timestamp),
  cancelled_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  total_quantity: Type.Integer(),
  total_received: Type.Integer(),
  lines: Type.Array(
    Type.Object({
      id: Type.String(),
      product_id: Type.String(),
      sku: Nullable(Type.String()),
      quantity: Type.Integer({ description: 'shipped' }),
      quantity_received: Type.Integer(),
      quantity_damaged: Type.Integer(),
      quantity_in_transit: Type.Integer(),
    }),
  ),
});

export const TransferListQuery = Type.Object(
  {
    ...pageQuery(),
    status: Type.Optional(Type.String({ maxLength: 200, description: `comma-separated: ${TRANSFER_STATUSES.join(', ')}` })),
    warehouse_id: Type.Optional(Type.String({ maxLength: 4000, description: 'from or to these warehouses, comma-separated' })),
  },
  { additionalProperties: false },
);

export const TransferParams = Type.Object({ transfer_id: Id });
export const TransferListSchema = listOf(TransferSchema);
