// Every enumeration of the API in one import-free module: the route schemas (src/contract/*.ts)
// build their StringEnums from these lists, the domain checks against them, and the CLI's enums
// (src/cli/enums.ts) are derived from them. Import-free so `fos --help` loads no schema code.

export * from './orders-enums.js';
export * from './inventory-enums.js';
export { PERMISSIONS, type Permission } from './permissions.js';

// products
/** The seven storefront platforms (spec's platform_a..g, MANUAL fourth), as the ShopType enum. */
export { SHOP_TYPES as PLATFORMS } from './orders-enums.js';
export const PRODUCT_TYPES = ['STANDARD', 'VIRTUAL_BUNDLE', 'ASSEMBLY'] as const;
export const MEASUREMENT_UNITS = ['MM', 'IN'] as const;
export const WEIGHT_UNITS = ['G', 'LB'] as const;
export const REPLENISHMENT_STRATEGIES = ['FIFO'] as const;

// fulfillment orders, packages, labels, picking
export const FO_STATUSES = ['PENDING', 'ACCEPTED', 'IN_PROGRESS', 'FULFILLED', 'CANCELLED'] as const;
// CANCELLED: an unshipped package closed by a cancel of its fulfillment order (docs/orders.md).
export const PACKAGE_STATUSES = ['PENDING', 'FULFILLED', 'CANCELLED'] as const;
/** CHEAPEST_WITHIN_DAYS: the cheapest rate whose estimate is at most rate_within_days (src/contract/rate-strategy.ts). */
export const RATE_STRATEGIES = ['CHEAPEST', 'FASTEST', 'CHEAPEST_WITHIN_DAYS'] as const;
/** The most rate_within_days a strategy takes. */
export const RATE_WITHIN_DAYS_MAX = 60;
/** Formats of a bought label's document. */
export const LABEL_FORMATS = ['PDF', 'ZPL'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];
/** Label batches (docs/label-batches.md): the batch, and each package's outcome in it. */
export const LABEL_BATCH_STATUSES = ['RUNNING', 'COMPLETED'] as const;
export const LABEL_BATCH_ITEM_STATUSES = ['PENDING', 'BOUGHT', 'FAILED', 'SKIPPED'] as const;
/** Units of the carrier rate table's weight brackets (wider than a product's). */
export const CARRIER_WEIGHT_UNITS = ['G', 'KG', 'LB', 'OZ'] as const;
/** A picking session's status as its list filter takes it. */
export const PICKING_FILTER_STATUSES = ['PENDING', 'FULFILLED'] as const;

// charges
export const CHARGE_CATEGORIES = ['STORAGE', 'RECEIVING', 'SHIPPING', 'PICK', 'PACK', 'PACKAGING', 'RETURNS', 'KITTING', 'AD_HOC'] as const;
export const RATE_PERIODS = ['DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type RatePeriod = (typeof RATE_PERIODS)[number];

// keys, agents, webhooks
export const POWER_ROLES = ['ADMIN', 'MEMBER'] as const;
/** Rate tiers of a key, as the CLI takes them (1-4). */
export const RATE_TIERS = ['1', '2', '3', '4'] as const;
/** States of an agent connection, as its list filter takes them. */
export const CONNECTION_STATES = ['ACTIVE', 'REVOKED'] as const;
export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export const SORT_ORDERS = ['asc', 'desc'] as const;

/** Every event kind; webhook endpoints subscribe to a list of these, or to '*'. */
export const EVENT_KINDS = [
  'tracking.push', // sales-channel tracking update after a fulfill, or a carrier's later shipment_status; payload names the order (TrackingPushPayload)
  'order.created',
  'order.priority_changed',
  'order.updated',
  'order.cancelled',
  'order.hold_placed',
  'order.hold_released',
  'order.backorder_allocated',
  'fulfillment_order.cancelled',
  'fulfillment_order.moved',
  'fulfillment_order.split',
  'fulfillment_order.locked',
  'package.created',
  'package.labelled',
  'package.label_voided',
  'shipment.status_changed', // a carrier platform's tracking moved a label (both teams; sales channels may push it)
  'shipping_label.refund_updated',
  'package.fulfilled',
  'scan_form.created',
  'label_batch.completed',
  'shipping_label.corrected',
  'file.processed',
  'charge.created',
  'charge.updated',
  'inventory.adjusted',
  'purchase_order.created',
  'purchase_order.received',
  'purchase_order.closed',
  'purchase_order.cancelled',
  'inventory.transfer_shipped',
  'inventory.transfer_received',
  'inventory.transfer_cancelled',
  'return.created',
  'return.received',
  'return.cancelled',
  'invoice.created', // a draft, to the fulfiller only (docs/invoices.md)
  'invoice.finalized',
  'invoice.sent',
  'invoice.paid',
  'invoice.voided',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** `fos carriers connect <platform>` (contract/carrier-integrations.ts). */
export const CARRIER_PLATFORMS = ['easypost', 'shippo', 'table'] as const;

// files
export const FILE_CATEGORIES = ['DOCUMENT', 'IMAGE', 'LABEL', 'PACKING_SLIP', 'INVOICE', 'OTHER'] as const;
/** Lengths of a file's metadata: what the schemas allow and the domain checks. */
export const FILE_LIMITS = { name: 255, description: 2000, tags: 50, tag: 64 } as const;

// carrier integrations
export const INTEGRATION_TYPES = ['EASYPOST', 'SHIPPO', 'TABLE'] as const;
/** The types that take no credentials (the CLI sends no FOS_CARRIER_API_KEY); their connectors have no credential fields. */
export const KEYLESS_INTEGRATION_TYPES: readonly string[] = ['TABLE'];

// agent connections
export const PRESETS = ['READ_ONLY', 'READ_AND_OPERATE', 'FULL_OPERATIONAL', 'CUSTOM'] as const;

// users
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 1024;

// keys: requests per 60-second window by rate tier
export const TIER_LIMITS: Record<number, number> = { 1: 30, 2: 120, 3: 600, 4: 3000 };

// addresses: the fields of a shipping address (spec 2.6), in the order they print
export const ADDRESS_FIELDS = ['name', 'company', 'address1', 'address2', 'city', 'state', 'country', 'zip', 'phone'] as const;

// invoices (docs/invoices.md)
export const INVOICE_STATUSES = ['DRAFT', 'FINALIZED', 'SENT', 'PAID', 'VOID'] as const;
export const INVOICE_PERIODS = ['WEEKLY', 'SEMI_MONTHLY', 'MONTHLY'] as const;
export const INVOICE_EXPORT_FORMATS = ['charges', 'quickbooks', 'xero'] as const;

// sales channels: what became of a platform's webhook delivery (docs/sales-channels.md)
export const CHANNEL_DELIVERY_STATUSES = ['RECEIVED', 'PROCESSED', 'IGNORED', 'FAILED'] as const;

/** The billable events a rate card's fee rule names (docs/billing.md); each bills one category. */
export const FEE_EVENTS = [
  'STORAGE',
  'RECEIVING',
  'RECEIVING_PO',
  'RECEIVING_HOURS',
  'PICK',
  'PACK',
  'PACKAGING',
  'SHIPPING',
  'RETURN',
  'KITTING',
  'AD_HOC',
] as const;
export type FeeEvent = (typeof FEE_EVENTS)[number];
/** How a fee rule prices its event (docs/billing.md). */
export const FEE_PRICE_TYPES = [
  'FLAT',
  'PER_UNIT',
  'PER_ORDER',
  'PER_LINE',
  'FIRST_ADDITIONAL',
  'TIERED',
  'LABEL_PERCENT',
  'LABEL_MARKUP',
  'PER_LOCATION',
] as const;
