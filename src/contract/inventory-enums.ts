// Inventory enumerations, import-free so the CLI (src/cli/enums.ts) and the route schemas share them.

export const BUCKETS = ['on_hand', 'committed', 'unavailable', 'on_order'] as const;
export type Bucket = (typeof BUCKETS)[number];

export const MOVEMENT_KINDS = [
  'RECEIVED',
  'ADJUSTED',
  'COUNTED',
  'COMMITTED',
  'RELEASED',
  'FULFILLED',
  'TRANSFER_OUT',
  'TRANSFER_IN',
  'RETURNED',
  'ORDERED',
  'MOVED',
  'CONSUMED',
  'ASSEMBLED',
] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/** How putaway chose a bin for units that arrived naming none (issue 28; docs/floor.md). */
export const PUTAWAY_REASONS = ['EXISTING_BIN', 'EMPTY_BIN', 'DEFAULT_LOCATION', 'DAMAGED_LOCATION'] as const;
export type PutawayReason = (typeof PUTAWAY_REASONS)[number];

export const ADJUSTMENT_REASONS = ['CYCLE_COUNT', 'CORRECTION', 'FOUND', 'LOST', 'DAMAGED', 'QUARANTINE', 'RELEASE_QUARANTINE'] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];

export const PURCHASE_ORDER_STATUSES = ['OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CLOSED', 'CANCELLED'] as const;
export const RECEIPT_CONDITIONS = ['SELLABLE', 'DAMAGED'] as const;

export const TRANSFER_STATUSES = ['IN_TRANSIT', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED'] as const;
export const RETURN_STATUSES = ['OPEN', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED'] as const;
export const RETURN_REASONS = [
  'DAMAGED',
  'DEFECTIVE',
  'WRONG_ITEM',
  'NOT_AS_DESCRIBED',
  'NO_LONGER_NEEDED',
  'UNDELIVERABLE',
  'OTHER',
] as const;

// Bins (issue 28): the kinds of location, in the order picking takes from them.
export const LOCATION_TYPES = ['PICKABLE', 'OVERSTOCK', 'STAGING', 'RECEIVING', 'DAMAGED', 'QUARANTINE'] as const;
export type LocationKind = (typeof LOCATION_TYPES)[number];
/** Bins whose units are held (issue 34): damaged or on hold. Nothing picks, plans or packs from them. */
export const HELD_LOCATION_TYPES = ['DAMAGED', 'QUARANTINE'] as const satisfies readonly LocationKind[];
export const isHeldLocation = (type: string) => (HELD_LOCATION_TYPES as readonly string[]).includes(type);
