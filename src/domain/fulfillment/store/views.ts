import type { Statements } from '../../../db/statements.js';
import { nameColumnsText, type NameColumns } from '../lookups.js';
import type { PackageRow } from '../package-view.js';

// The statement that presents a package a write has in hand (package-view.ts,
// presentWrittenPackage), on the write's prepared statements (src/db/statements.ts).

type LineRow = PackageRow['line_items'][number];

// Every column of a package line, checked against the model by the compiler (a column added to
// the schema and not here fails to build), read as "l_<column>" beside other tables' columns.
export const LINE_COLUMNS = Object.keys({
  id: 1,
  package_id: 1,
  product_id: 1,
  core_fulfillment_order_line_item_id: 1,
  work_order_line_item_id: 1,
  sku: 1,
  name: 1,
  image_url: 1,
  quantity: 1,
  weight: 1,
  weight_unit: 1,
  lot_code: 1,
  expiration_date: 1,
  location_id: 1,
  uom_label: 1,
  uom_multiplier_to_eaches: 1,
  uom_profile_id: 1,
  customs_value: 1,
  customs_value_currency: 1,
  customs_description: 1,
  hs_code: 1,
  country_of_origin: 1,
  printed_commodity_identifier: 1,
  eccn: 1,
  manufacturer: 1,
  created_at: 1,
  updated_at: 1,
} satisfies Record<keyof LineRow, 1>) as Array<keyof LineRow>;
const LINE_SELECT = LINE_COLUMNS.map((c) => `pl."${c}" AS "l_${c}"`).join(', ');

export type WrittenPackageRow = NameColumns & {
  order_id: string | null;
  shop_id: string | null;
  s_name: string | null;
  s_shop_type: string | null;
} & Record<string, unknown>;

/**
 * One row per line of the package (one with null "l_" columns for a package without any), each
 * with the names, the fulfillment order's order and its shop; lines oldest first.
 */
export async function writtenPackageRows(st: Statements, packageId: string): Promise<WrittenPackageRow[]> {
  return st.all<WrittenPackageRow>(
    `SELECT "packages"."warehouse_id", "packages"."merchant_team_id", "packages"."fulfiller_team_id", ${nameColumnsText('packages')},
      fo."order_id", o."shop_id", s."name" AS "s_name", CAST(s."shop_type" AS TEXT) AS "s_shop_type", ${LINE_SELECT}
    FROM "packages" LEFT JOIN "fulfillment_orders" fo ON fo."id" = "packages"."fulfillment_order_id"
      LEFT JOIN "orders" o ON o."id" = fo."order_id" LEFT JOIN "shops" s ON s."id" = o."shop_id"
      LEFT JOIN "package_line_items" pl ON pl."package_id" = "packages"."id"
    WHERE "packages"."id" = ?
    ORDER BY pl."created_at", pl."id"`,
    [packageId],
  );
}
