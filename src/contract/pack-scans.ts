import { Type } from 'typebox';
import { Id, Nullable, Timestamp, Uuid } from './common.js';
import { editable } from './packages.js';

// Packing that checks (issue 28 item 5; docs/floor.md "Packing that checks"): scans into the open
// box of a fulfillment order, then `pack` closes it into a package. The floor contract
// (the /floor page and `fos pack` use these) names these fields; extra ones are additive.

const Str = (max: number, description?: string) => Type.String({ minLength: 1, maxLength: max, ...(description ? { description } : {}) });
const LockOwner = Type.Optional(
  Str(200, 'who packs, when the fulfillment order is locked: a lock held by another owner refuses the scan (409 lock-held)'),
);

export const PackScanBody = Type.Object(
  {
    barcode: Str(200, "the product's barcode or SKU (case-insensitive)"),
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
    lot_code: Type.Optional(Str(200, 'the lot on the unit; for lot-tracked products it must be a lot the warehouse holds')),
    tote: Type.Optional(Str(200, "the tote the unit comes from (name or id): it must be the fulfillment order's tote")),
    short: Type.Optional(
      Type.Boolean({
        description:
          'true: `quantity` units of this product are missing (not in the tote): they are recorded short on the line, ' +
          'never packed, and the fulfillment order ships them only after they are split off (docs/fulfillment.md)',
      }),
    ),
    lock_owner: LockOwner,
  },
  { additionalProperties: false },
);

export const PackScanDeleteQuery = Type.Object({ lock_owner: LockOwner }, { additionalProperties: false });

export const PackBody = Type.Object({ ...editable, lock_owner: LockOwner }, { additionalProperties: false });

export const PackScanRecord = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  sku: Nullable(Type.String()),
  lot_code: Nullable(Type.String()),
  expiration_date: Nullable(Type.String({ description: 'YYYY-MM-DD of the lot' })),
  quantity: Type.Integer(),
  tote_id: Nullable(Type.String()),
  user_name: Nullable(Type.String()),
  created_at: Timestamp,
  short: Type.Optional(
    Type.Boolean({ description: 'a short scan: units recorded missing (id is then the line id; nothing is in the box)' }),
  ),
});

const Scanned = Type.Object({
  sku: Nullable(Type.String()),
  product_id: Type.String(),
  lot_code: Nullable(Type.String()),
  quantity: Type.Integer(),
});

const Remaining = Type.Object({
  sku: Nullable(Type.String()),
  product_id: Nullable(Type.String()),
  name: Type.String(),
  quantity: Type.Integer({ description: 'units still to scan into this box' }),
});

const Line = Type.Object({
  sku: Nullable(Type.String()),
  product_id: Nullable(Type.String()),
  name: Type.String(),
  needed: Type.Integer({ description: 'units this box can take: unfulfilled minus units in other open packages and units recorded short' }),
  scanned: Type.Integer(),
  remaining: Type.Integer(),
  short: Type.Integer({ description: 'units recorded missing (a short pick or a short pack scan): never packed or shipped on this order' }),
});

const boxFields = {
  fulfillment_order_id: Type.String(),
  order_id: Type.String(),
  order_number: Type.String(),
  tote_name: Nullable(Type.String()),
  packing_started_at: Nullable(Timestamp),
  scanned: Type.Array(Scanned, { description: 'units in the open box, by product and lot' }),
  remaining: Type.Array(Remaining, { description: 'what the box still needs (quantity > 0 only)' }),
  lines: Type.Array(Line, { description: 'every line of the fulfillment order: needed, scanned, remaining' }),
  scans: Type.Array(PackScanRecord, { description: 'the scans in the open box, oldest first (undo takes the last)' }),
  complete: Type.Boolean({ description: 'nothing left to scan' }),
};

export const PackBoxSchema = Type.Object(boxFields);
export const PackScanResponse = Type.Object({ scan: PackScanRecord, ...boxFields });

export const PackScanParams = Type.Object({ fulfillment_order_id: Uuid, scan_id: Id });
export const PackFoParams = Type.Object({ fulfillment_order_id: Uuid });
