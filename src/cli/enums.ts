import {
  ADJUSTMENT_REASONS,
  CANCEL_REASONS,
  CARRIER_PLATFORMS,
  CARRIER_WEIGHT_UNITS,
  HOLD_REASONS,
  LOCATION_TYPES,
  CHARGE_CATEGORIES,
  CONNECTION_STATES,
  DELIVERY_STATUSES,
  DRAFT_STATUSES,
  EVENT_KINDS,
  FO_STATUSES,
  FULFILLMENT_STATUSES,
  LABEL_BATCH_STATUSES,
  LABEL_FORMATS,
  MEASUREMENT_UNITS,
  MOVEMENT_KINDS,
  ORDER_STATUSES,
  PACKAGE_STATUSES,
  PAYMENT_STATUSES,
  PERMISSIONS,
  PICKING_FILTER_STATUSES,
  POWER_ROLES,
  PRIORITIES,
  PRODUCT_TYPES,
  PURCHASE_ORDER_STATUSES,
  RATE_PERIODS,
  RATE_STRATEGIES,
  RATE_TIERS,
  RECEIPT_CONDITIONS,
  REPLENISHMENT_STRATEGIES,
  RETURN_REASONS,
  RETURN_STATUSES,
  SORT_ORDERS,
  TRANSFER_STATUSES,
  WEIGHT_UNITS,
  SHOP_TYPES,
  INVOICE_STATUSES,
  INVOICE_EXPORT_FORMATS,
  CHANNEL_DELIVERY_STATUSES,
  DRAFT_PAYMENT_STATUSES,
} from '../contract/enums.js';
import { UsageError } from './errors.js';

/**
 * Enumerations the CLI checks before sending, so a typo fails at once with the allowed values.
 * Every list is the API contract's own (src/contract/enums.ts, import-free so `fos --help` stays
 * light), which the route schemas validate with too: nothing here is copied.
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
  power_role: POWER_ROLES,
  tier: RATE_TIERS,
  mcp_connection_status: CONNECTION_STATES,
  sort_order: SORT_ORDERS,
  adjustment_reason: ADJUSTMENT_REASONS,
  movement_kind: MOVEMENT_KINDS,
  purchase_order_status: PURCHASE_ORDER_STATUSES,
  receipt_condition: RECEIPT_CONDITIONS,
  transfer_status: TRANSFER_STATUSES,
  return_status: RETURN_STATUSES,
  return_reason: RETURN_REASONS,
  location_type: LOCATION_TYPES,
  carrier_integration_platform: CARRIER_PLATFORMS,
  rate_strategy: RATE_STRATEGIES,
  label_format: LABEL_FORMATS,
  label_batch_status: LABEL_BATCH_STATUSES,
  package_status: PACKAGE_STATUSES,
  fulfillment_order_status: FO_STATUSES,
  carrier_weight_unit: CARRIER_WEIGHT_UNITS,
  charge_category: CHARGE_CATEGORIES,
  picking_status: PICKING_FILTER_STATUSES,
  delivery_status: DELIVERY_STATUSES,
  shop_type: SHOP_TYPES,
  invoice_status: INVOICE_STATUSES,
  invoice_export_format: INVOICE_EXPORT_FORMATS,
  channel_delivery_status: CHANNEL_DELIVERY_STATUSES,
  draft_payment_status: DRAFT_PAYMENT_STATUSES,
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
