import { LABEL_FORMATS } from '../domain/documents/urls.js';
import { RATE_PERIODS } from '../domain/charges/rate-card.js';
import { EVENT_KINDS } from '../domain/events/outbox.js';
import {
  CANCEL_REASONS, DRAFT_STATUSES, FULFILLMENT_STATUSES, HOLD_REASONS, ORDER_STATUSES, PAYMENT_STATUSES, PRIORITIES,
} from '../contract/orders-enums.js';
import { PERMISSIONS } from '../contract/permissions.js';
import { CONNECTION_STATES } from '../domain/oauth/presets.js';
import {
  ADJUSTMENT_REASONS, MOVEMENT_KINDS, PURCHASE_ORDER_STATUSES, RECEIPT_CONDITIONS, RETURN_REASONS, RETURN_STATUSES,
  TRANSFER_STATUSES, LOCATION_TYPES,
} from '../contract/inventory-enums.js';
import {
  MEASUREMENT_UNITS, PRODUCT_TYPES, REPLENISHMENT_STRATEGIES, WEIGHT_UNITS,
} from '../domain/products/fields.js';
import { UsageError } from './errors.js';

/**
 * Enumerations the CLI checks before sending, so a typo fails at once with the allowed values.
 * Imported from the domain's constant modules (import-free at runtime, so `fos --help` stays
 * light) where they live there; the few below that only the route schemas define are mirrored
 * here and must follow src/contract/* .
 */
export const ENUMS = {
  priority: PRIORITIES,
  cancel_reason: CANCEL_REASONS,
  hold_reason: HOLD_REASONS,
  product_type: PRODUCT_TYPES,
  measurement_unit: MEASUREMENT_UNITS,
  weight_unit: WEIGHT_UNITS,
  replenishment_source_strategy: REPLENISHMENT_STRATEGIES,
  order_status: ORDER_STATUSES,
  payment_status: PAYMENT_STATUSES,
  fulfillment_status: FULFILLMENT_STATUSES,
  draft_status: DRAFT_STATUSES,
  rate_period: RATE_PERIODS,
  permission: PERMISSIONS,
  webhook_event: ['*', ...EVENT_KINDS],
  power_role: ['ADMIN', 'MEMBER'],
  tier: ['1', '2', '3', '4'],
  mcp_connection_status: CONNECTION_STATES,
  sort_order: ['asc', 'desc'],
  adjustment_reason: ADJUSTMENT_REASONS,
  movement_kind: MOVEMENT_KINDS,
  purchase_order_status: PURCHASE_ORDER_STATUSES,
  receipt_condition: RECEIPT_CONDITIONS,
  transfer_status: TRANSFER_STATUSES,
  return_status: RETURN_STATUSES,
  return_reason: RETURN_REASONS,
  location_type: LOCATION_TYPES,
  /** contract/packages.ts */
  rate_strategy: ['CHEAPEST', 'FASTEST'],
  /** contract/carrier-integrations.ts (`fos carriers connect <platform>`) */
  carrier_integration_platform: ['easypost', 'shippo', 'table'],
  label_format: LABEL_FORMATS,
  package_status: ['PENDING', 'FULFILLED', 'CANCELLED'],
  /** contract/fulfillment.ts */
  fulfillment_order_status: ['PENDING', 'ACCEPTED', 'IN_PROGRESS', 'FULFILLED', 'CANCELLED'],
  carrier_weight_unit: ['G', 'KG', 'LB', 'OZ'],
  /** contract/charges.ts */
  charge_category: ['STORAGE', 'RECEIVING', 'SHIPPING'],
  /** contract/picking.ts, webhooks.ts */
  picking_status: ['PENDING', 'FULFILLED'],
  delivery_status: ['PENDING', 'DELIVERED', 'FAILED'],
} as const satisfies Record<string, readonly string[]>;

/**
 * The allowed member matching `value` (case-insensitively), or a usage error listing the
 * allowed values: `invalid priority "urgent": allowed values are LOW, NORMAL, HIGH, CRITICAL`.
 */
export function canonicalEnum(label: string, value: string, allowed: readonly string[]): string {
  const found = allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
  if (found === undefined) {
    throw new UsageError(`invalid ${label} "${value}": allowed values are ${allowed.join(', ')}`);
  }
  return found;
}
