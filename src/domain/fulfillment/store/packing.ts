import type { Statements } from '../../../db/statements.js';
import { nameColumnsText, type NameColumns } from '../lookups.js';
import { CLOSED_STATUSES, NO_ACTIVE_HOLD } from './common.js';

// The packing statements (packing.ts): the fulfillment order's row lock with what a package copies
// from its order, and the order's lines with what other open packages hold of each.

export interface PackingClaimRow extends NameColumns {
  id: string;
  order_id: string;
  picking_session_id: string | null;
  o_shipping_address: unknown;
  o_customer_email: string | null;
  o_customer_name: string | null;
  o_config: unknown;
  o_carrier_selection: unknown;
  o_shop_id: string | null;
  s_name: string | null;
  s_shop_type: string | null;
}

const order = (col: string) => `(SELECT o."${col}" FROM "orders" o WHERE o."id" = "fulfillment_orders"."order_id")`;
const shop = (col: string) =>
  `(SELECT s."${col}" FROM "shops" s JOIN "orders" o ON s."id" = o."shop_id" WHERE o."id" = "fulfillment_orders"."order_id")`;

const CLAIM = `
  UPDATE "fulfillment_orders" SET "updated_at" = ?
  WHERE "id" = ? AND "fulfiller_team_id" = ? AND "status" NOT IN (${CLOSED_STATUSES.map(() => '?').join(', ')}) AND ${NO_ACTIVE_HOLD}
  RETURNING "id", "order_id", "warehouse_id", "fulfiller_team_id", "merchant_team_id", "picking_session_id",
    ${order('shipping_address')} AS "o_shipping_address", ${order('customer_email')} AS "o_customer_email",
    ${order('customer_name')} AS "o_customer_name", ${order('config')} AS "o_config", ${order('carrier_selection')} AS "o_carrier_selection", ${order('shop_id')} AS "o_shop_id",
    ${shop('name')} AS "s_name", CAST(${shop('shop_type')} AS TEXT) AS "s_shop_type",
    ${nameColumnsText('fulfillment_orders')}`;

/**
 * The fulfillment order's row lock (the packing transaction's first statement, a compare-and-set
 * that refuses closed orders and orders on hold), returning the row with what the package copies
 * from its order (its Json columns parsed) and the names its response shows. Null: no match.
 */
export async function claimForPackingRow(st: Statements, teamId: string, foId: string): Promise<PackingClaimRow | null> {
  const [row] = await st.all<PackingClaimRow>(CLAIM, [new Date(), foId, teamId, ...CLOSED_STATUSES, true]);
  if (!row) return null;
  return {
    ...row,
    o_shipping_address: st.dialect.json(row.o_shipping_address),
    o_config: st.dialect.json(row.o_config),
    o_carrier_selection: st.dialect.json(row.o_carrier_selection),
  };
}

/** The fulfillment order's lines in created order, each with its product's fields (`p_<field>`) and what other open packages hold. */
export async function packingLineRows(
  st: Statements,
  foId: string,
  productFields: readonly string[],
  excludePackageId?: string,
): Promise<Array<Record<string, unknown>>> {
  const rows = await st.all<Record<string, unknown>>(
    `SELECT l."id", l."product_id", l."sku", l."name", l."image_url", l."remaining_quantity", l."short_quantity",
      COALESCE((SELECT SUM(pl."quantity") FROM "package_line_items" pl JOIN "packages" pk ON pk."id" = pl."package_id"
        WHERE pl."core_fulfillment_order_line_item_id" = l."id" AND pk."fulfillment_order_id" = l."fulfillment_order_id"
          AND pk."status" = 'PENDING' AND pk."id" <> ?), 0) AS "in_other_packages",
      p."id" AS "has_product", ${productFields.map((f) => `p."${f}" AS "p_${f}"`).join(', ')}
    FROM "fulfillment_order_line_items" l LEFT JOIN "products" p ON p."id" = l."product_id"
    WHERE l."fulfillment_order_id" = ?
    ORDER BY l."created_at", l."id"`,
    [excludePackageId ?? '', foId],
  );
  return rows;
}

/** The package an idempotency key of the team created, with the hash of the request that created it. */
export async function packageByIdempotencyKey(
  st: Pick<Statements, 'all'>,
  teamId: string,
  key: string,
): Promise<{ id: string; request_hash: string | null } | null> {
  const [row] = await st.all<{ id: string; request_hash: string | null }>(
    `SELECT "id", "request_hash" FROM "packages" WHERE "fulfiller_team_id" = ? AND "idempotency_key" = ?`,
    [teamId, key],
  );
  return row ?? null;
}
