import { Type } from 'typebox';
import { PURCHASE_ORDER_STATUSES, PUTAWAY_REASONS, RECEIPT_CONDITIONS } from './inventory-enums.js';
import { Day, Id, listOf, Nullable, pageQuery, StringEnum, Timestamp } from './common.js';
import { MAX_LINES, ProductRefFields, receiptBody } from './inventory.js';

// Purchase orders / inbound receipts (issue 10 item 3; docs/inventory.md).

const Units = Type.Integer({ minimum: 1, maximum: 1_000_000_000 });

export const PurchaseOrderSchema = Type.Object({
  id: Type.String(),
  status: StringEnum(PURCHASE_ORDER_STATUSES),
  fulfiller_team_id: Type.String(),
  warehouse_id: Type.String(),
  warehouse_name: Nullable(Type.String()),
  merchant_team_id: Nullable(Type.String()),
  fulfillment_delegation_id: Nullable(Type.String({ description: 'whose rate card bills the receiving' })),
  vendor_id: Nullable(Type.String()),
  reference: Nullable(Type.String()),
  expected_at: Nullable(Timestamp),
  created_by_key_id: Nullable(Type.String()),
  received_at: Nullable(Timestamp),
  closed_at: Nullable(Timestamp),
  cancelled_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
  total_quantity: Type.Integer(),
  total_received: Type.Integer(),
  total_open: Type.Integer(),
  lines: Type.Array(
    Type.Object({
      id: Type.String(),
      product_id: Type.String(),
      sku: Nullable(Type.String()),
      quantity: Type.Integer({ description: 'ordered' }),
      quantity_received: Type.Integer({ description: 'received so far, sellable and damaged' }),
      quantity_damaged: Type.Integer(),
      quantity_open: Type.Integer({ description: 'still expected (0 once closed or cancelled)' }),
    }),
  ),
});

const createFields = {
  warehouse_id: Id,
  vendor_id: Type.Optional(Id),
  reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "your PO number or the carrier's reference" })),
  expected_at: Type.Optional(Timestamp),
  lines: Type.Array(Type.Object({ ...ProductRefFields, quantity: Units }, { additionalProperties: false }), {
    minItems: 1,
    maxItems: MAX_LINES,
  }),
};

export const CreatePurchaseOrderBody = Type.Object(
  {
    ...createFields,
    merchant_team_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'a delegated merchant: its products, billed on its rate card' }),
    ),
  },
  { additionalProperties: false },
);

export const CreateMerchantPurchaseOrderBody = Type.Object(createFields, { additionalProperties: false });

export const ReceiveBody = receiptBody(
  {
    ...ProductRefFields,
    quantity: Units,
    lot_code: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    expiration_date: Type.Optional(Day('lot expiry, YYYY-MM-DD')),
    location: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "the bin this line goes to (id, name or barcode); default the receipt's location",
      }),
    ),
  },
  {
    allow_over_receipt: Type.Optional(Type.Boolean({ description: 'accept more units than are still open' })),
    location: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "the bin received into (id, name or barcode; e.g. a RECEIVING location); default the warehouse's default location",
      }),
    ),
  },
);

export const ReceiptSchema = Type.Object({
  id: Type.String(),
  purchase_order_id: Type.String(),
  received_at: Timestamp,
  units: Type.Integer(),
  charge_id: Nullable(Type.String({ description: 'the RECEIVING charge billed (null without a delegation rate card that prices it)' })),
  lines: Type.Array(
    Type.Object({
      product_id: Type.String(),
      sku: Nullable(Type.String()),
      quantity: Type.Integer(),
      condition: StringEnum(RECEIPT_CONDITIONS),
      lot_code: Nullable(Type.String()),
      expiration_date: Nullable(Type.String()),
      location_id: Type.String({ description: 'the bin the units went to' }),
      location_name: Type.String(),
      putaway: Nullable(
        StringEnum(PUTAWAY_REASONS, { description: 'how the bin was chosen when the line named none (docs/floor.md); null when named' }),
      ),
    }),
  ),
  purchase_order: PurchaseOrderSchema,
});

export const PurchaseOrderListQuery = Type.Object(
  {
    ...pageQuery(),
    status: Type.Optional(Type.String({ maxLength: 200, description: `comma-separated: ${PURCHASE_ORDER_STATUSES.join(', ')}` })),
    warehouse_id: Type.Optional(Type.String({ maxLength: 4000, description: 'warehouse ids, comma-separated' })),
    merchant_team_id: Type.Optional(Type.String({ maxLength: 64 })),
    reference: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const PurchaseOrderParams = Type.Object({ purchase_order_id: Id });
export const PurchaseOrderListSchema = listOf(PurchaseOrderSchema);
