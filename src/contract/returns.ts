import { Type } from 'typebox';
import { RETURN_REASONS, RETURN_STATUSES } from './inventory-enums.js';
import { Id, listOf, Nullable, pageQuery, StringEnum, Timestamp } from './common.js';
import { MAX_LINES, receiptBody } from './inventory.js';

// Returns (issue 10 item 6; docs/inventory.md).

const LineRef = {
  order_line_item_id: Type.Optional(Id),
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  product_id: Type.Optional(Id),
  quantity: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
};

export const CreateReturnBody = Type.Object(
  {
    order_id: Id,
    warehouse_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'where the units come back to (default: the warehouse the order shipped from)',
      }),
    ),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'an RMA number' })),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    lines: Type.Array(Type.Object({ ...LineRef, reason: Type.Optional(StringEnum(RETURN_REASONS)) }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: MAX_LINES,
    }),
  },
  { additionalProperties: false },
);

const BinRef = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 100, description }));

export const ReceiveReturnBody = receiptBody(
  {
    ...LineRef,
    location: BinRef("the bin this line goes back to (id, name or barcode); default the receipt's location"),
    lot_code: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'the lot the units go back to (default: the lot they shipped from, the most recent when several)',
      }),
    ),
  },
  {
    location: BinRef(
      "the bin the units go back to (id, name or barcode; default the warehouse's default location); DAMAGED units go to a DAMAGED location unless this is a DAMAGED or QUARANTINE one",
    ),
  },
);

export const ReturnSchema = Type.Object({
  id: Type.String(),
  status: StringEnum(RETURN_STATUSES),
  order_id: Type.String(),
  fulfiller_team_id: Type.String(),
  merchant_team_id: Type.String(),
  fulfillment_delegation_id: Nullable(Type.String()),
  warehouse_id: Type.String(),
  reference: Nullable(Type.String()),
  note: Nullable(Type.String()),
  created_by_key_id: Nullable(Type.String()),
  received_at: Nullable(Timestamp),
  cancelled_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  charge_id: Type.Optional(
    Nullable(
      Type.String({ description: 'receive only: the RECEIVING charge billed with return_id (null without a rate card that prices it)' }),
    ),
  ),
  lines: Type.Array(
    Type.Object({
      id: Type.String(),
      order_line_item_id: Type.String(),
      product_id: Type.String(),
      sku: Nullable(Type.String()),
      quantity: Type.Integer(),
      quantity_received: Type.Integer(),
      quantity_restocked: Type.Integer(),
      quantity_damaged: Type.Integer(),
      reason: Nullable(Type.String()),
    }),
  ),
});

export const ReturnListQuery = Type.Object(
  {
    ...pageQuery(),
    status: Type.Optional(Type.String({ maxLength: 200, description: `comma-separated: ${RETURN_STATUSES.join(', ')}` })),
    order_id: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const ReturnParams = Type.Object({ return_id: Id });
export const ReturnListSchema = listOf(ReturnSchema);
