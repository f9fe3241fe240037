import { insertRows } from '../../db/insert-rows.js';
import type { Statements } from '../../db/statements.js';
import type { Charge } from '../../db/types.js';

// The charges area's statements on a write's prepared statements (src/db/statements.ts): what a
// SHIPPING charge is priced from, read in one statement, and the charge row (issue 36: the fulfill's
// billing was eight Prisma calls, a third of the fulfillment's server CPU).

/** Everything billShipping reads, each table's columns prefixed by its letter; null where there is no row. */
export interface ShippingRow {
  d_id: string | null;
  d_active: unknown;
  d_rate_card: unknown;
  existing_id: string | null;
  l_id: string | null;
  l_from_address: unknown;
  l_to_address: unknown;
  l_zone: string | null;
  l_price: number | null;
  l_currency: string | null;
  l_formatted_service: string | null;
  l_carrier_integration_name: string | null;
  l_carrier_integration_type: string | null;
  l_tracking_code: string | null;
  l_service_id: string | null;
  l_carrier_integration_id: string | null;
  l_carrier_id: string | null;
  l_carrier_correction: unknown;
  p_id: string | null;
  p_from_address: unknown;
  p_to_address: unknown;
  p_carrier_id: string | null;
  p_carrier_integration_id: string | null;
  p_carrier_integration_name: string | null;
  p_carrier_integration_type: string | null;
  p_service_id: string | null;
  p_carton_id: string | null;
  p_carton_name: string | null;
  o_id: string | null;
  o_order_number: string | null;
  o_address_residential: string | null;
  o_priority: string | null;
  o_is_fragile: unknown;
  o_tags: unknown;
  o_unique_core_line_item_count: number | null;
  s_shop_type: string | null;
  w_id: string | null;
  w_name: string | null;
}

const LABEL = ['id', 'from_address', 'to_address', 'zone', 'price', 'currency', 'formatted_service', 'carrier_integration_name']
  .concat(['carrier_integration_type', 'tracking_code', 'service_id', 'carrier_integration_id', 'carrier_id', 'carrier_correction'])
  .map((c) => `l."${c}" AS "l_${c}"`);
const PACKAGE = ['id', 'from_address', 'to_address', 'carrier_id', 'carrier_integration_id', 'carrier_integration_name']
  .concat(['carrier_integration_type', 'service_id', 'carton_id', 'carton_name'])
  .map((c) => `p."${c}" AS "p_${c}"`);
const ORDER = ['id', 'order_number', 'address_residential', 'is_fragile', 'tags', 'unique_core_line_item_count'].map(
  (c) => `o."${c}" AS "o_${c}"`,
);

// Every join is a LEFT JOIN from one row, so a missing row leaves its columns null, as each
// findUnique gave null. The warehouse is the package's, else its fulfillment order's.
const SHIPPING_INPUTS = `SELECT d."id" AS "d_id", d."active" AS "d_active", d."rate_card" AS "d_rate_card",
    (SELECT c."id" FROM "charges" c WHERE c."fulfillment_id" = ? AND c."category" = 'SHIPPING') AS "existing_id",
    ${LABEL.join(', ')}, ${PACKAGE.join(', ')}, ${ORDER.join(', ')}, CAST(o."priority" AS TEXT) AS "o_priority",
    CAST(s."shop_type" AS TEXT) AS "s_shop_type", w."id" AS "w_id", w."name" AS "w_name"
  FROM (SELECT 1 AS "one") AS x
    LEFT JOIN "fulfillment_delegations" d ON d."merchant_team_id" = ? AND d."fulfiller_team_id" = ?
    LEFT JOIN "shipping_labels" l ON l."package_id" = ?
    LEFT JOIN "packages" p ON p."id" = ?
    LEFT JOIN "orders" o ON o."id" = ?
    LEFT JOIN "shops" s ON s."id" = o."shop_id"
    LEFT JOIN "fulfillment_orders" fo ON fo."id" = ?
    LEFT JOIN "warehouses" w ON w."id" = COALESCE(p."warehouse_id", fo."warehouse_id")`;

/** What a fulfilled package's SHIPPING charge is priced from (see ShippingRow). */
export async function shippingInputs(
  st: Statements,
  i: {
    fulfillmentId: string;
    merchantTeamId: string;
    fulfillerTeamId: string;
    packageId: string;
    orderId: string;
    fulfillmentOrderId: string;
  },
): Promise<ShippingRow> {
  const [row] = await st.all<ShippingRow>(SHIPPING_INPUTS, [
    i.fulfillmentId,
    i.merchantTeamId,
    i.fulfillerTeamId,
    i.packageId,
    i.packageId,
    i.orderId,
    i.fulfillmentOrderId,
  ]);
  return row;
}

/** A Json column as a value (SQLite's raw text, or the value the driver already parsed). */
export const jsonOf = (st: Statements, v: unknown) => (typeof v === 'string' ? st.dialect.json(v) : (v ?? null));
/** A Boolean column (SQLite's 0/1, or a boolean). */
export const boolOf = (v: unknown) => v === true || v === 1 || v === 1n;

const CHARGE_JSON = ['pricing_config', 'pricing_trace'] as const;

/** The charge row, returned whole and typed as Prisma types it. */
export async function insertCharge(st: Statements, data: Record<string, unknown>, now: Date): Promise<Charge> {
  const [row] = await insertRows<Charge>(st, 'charges', [data], now);
  for (const c of CHARGE_JSON) (row as Record<string, unknown>)[c] = jsonOf(st, row[c]);
  for (const c of ['created_at', 'updated_at'] as const) row[c] = st.dialect.date(row[c]);
  return row;
}
