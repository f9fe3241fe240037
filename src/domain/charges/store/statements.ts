import { newId } from '../../../db/ids.js';
import { insertRows } from '../../../db/insert-rows.js';
import { keptTexts, placeholders, type Dialect } from '../../../db/dialect.js';
import type { Statements } from '../../../db/statements.js';
import type { Charge } from '../../../db/types.js';

// The charges area's statements on a write's prepared statements (src/db/statements.ts): what a
// SHIPPING charge is priced from, read in one statement, and the charge row (issue 36: the fulfill's
// billing was eight Prisma calls, a third of the fulfillment's server CPU).

/**
 * What billShipping reads besides the package and its label (the fulfill has both in hand), each
 * table's columns prefixed by its letter; null where there is no row.
 */
export interface ShippingRow {
  d_id: string | null;
  d_active: unknown;
  d_rate_card: unknown;
  d_rate_card_id: string | null;
  /** The versioned card's version in force at the fulfill (docs/billing.md). */
  v_id: string | null;
  existing_id: string | null;
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

const ORDER = ['id', 'order_number', 'address_residential', 'is_fragile', 'tags', 'unique_core_line_item_count'].map(
  (c) => `o."${c}" AS "o_${c}"`,
);

// Every join is a LEFT JOIN from one row, so a missing row leaves its columns null, as each
// findUnique gave null. The warehouse is the package's (bound), else its fulfillment order's.
const SHIPPING_INPUTS = `SELECT d."id" AS "d_id", d."active" AS "d_active", d."rate_card" AS "d_rate_card",
    d."rate_card_id" AS "d_rate_card_id",
    (SELECT v."id" FROM "rate_card_versions" v WHERE v."rate_card_id" = d."rate_card_id" AND v."effective_at" <= ?
      ORDER BY v."effective_at" DESC, v."created_at" DESC LIMIT 1) AS "v_id",
    (SELECT c."id" FROM "charges" c WHERE c."billing_key" = ?) AS "existing_id",
    ${ORDER.join(', ')}, CAST(o."priority" AS TEXT) AS "o_priority",
    CAST(s."shop_type" AS TEXT) AS "s_shop_type", w."id" AS "w_id", w."name" AS "w_name"
  FROM (SELECT 1 AS "one") AS x
    LEFT JOIN "fulfillment_delegations" d ON d."merchant_team_id" = ? AND d."fulfiller_team_id" = ?
    LEFT JOIN "orders" o ON o."id" = ?
    LEFT JOIN "shops" s ON s."id" = o."shop_id"
    LEFT JOIN "warehouses" w ON w."id" = COALESCE(?, (SELECT fo."warehouse_id" FROM "fulfillment_orders" fo WHERE fo."id" = ?))`;

/** The billing key of a fulfillment's charge of an event (docs/billing.md): one charge per fulfillment and event. */
export const fulfillmentKey = (event: string, fulfillmentId: string) => `${event}:fulfillment:${fulfillmentId}`;

/** What a fulfilled package's charges are priced from besides the package and label (see ShippingRow). */
export async function shippingInputs(
  st: Statements,
  i: {
    fulfillmentId: string;
    merchantTeamId: string;
    fulfillerTeamId: string;
    orderId: string;
    fulfillmentOrderId: string;
    package: { warehouse_id: string | null };
  },
  at: Date,
): Promise<ShippingRow> {
  const [row] = await st.all<ShippingRow>(SHIPPING_INPUTS, [
    at,
    fulfillmentKey('SHIPPING', i.fulfillmentId),
    i.merchantTeamId,
    i.fulfillerTeamId,
    i.orderId,
    i.package.warehouse_id,
    i.fulfillmentOrderId,
  ]);
  return row;
}

/** A Json column as a value (SQLite's raw text, or the value the driver already parsed). */
export const jsonOf = (st: Statements, v: unknown) => st.dialect.json(v);

const CHARGE_JSON = ['pricing_config', 'pricing_trace'] as const;

/** The charge row, returned whole and typed as Prisma types it. */
export async function insertCharge(st: Statements, data: Record<string, unknown>, now: Date): Promise<Charge> {
  const [row] = await insertRows<Charge>(st, 'charges', [data], now);
  for (const c of CHARGE_JSON) (row as Record<string, unknown>)[c] = jsonOf(st, row[c]);
  for (const c of ['created_at', 'updated_at'] as const) row[c] = st.dialect.date(row[c]);
  return row;
}

export interface PackedProduct {
  product_id: string;
  units: number;
  pick_fee_override: number | null;
}

// The package's units per product with the product's pick_fee_override (pick fees), in the package's line order (ids are UUIDv7).
const PACKED_PRODUCTS = `SELECT pli."product_id" AS "product_id", CAST(SUM(pli."quantity") AS INTEGER) AS "units",
    MAX(pr."pick_fee_override") AS "pick_fee_override"
  FROM "package_line_items" pli LEFT JOIN "products" pr ON pr."id" = pli."product_id"
  WHERE pli."package_id" = ? AND pli."product_id" IS NOT NULL
  GROUP BY pli."product_id" ORDER BY MIN(pli."id")`;

export async function packedProducts(st: Statements, packageId: string): Promise<PackedProduct[]> {
  const rows = await st.all<PackedProduct>(PACKED_PRODUCTS, [packageId]);
  return rows.map((r) => ({ product_id: r.product_id, units: Number(r.units), pick_fee_override: r.pick_fee_override ?? null }));
}

// Every column of a charge, so a charge built here has each (null when not given), as a read would.
const CHARGE_COLUMNS = ['id', 'name', 'description', 'category', 'currency', 'quantity', 'calculated_amount', 'original_amount']
  .concat(['merchant_team_id', 'fulfiller_team_id', 'fulfillment_delegation_id', 'invoice_id', 'order_id', 'fulfillment_id'])
  .concat(['fulfillment_order_id', 'work_order_id', 'return_id', 'shipping_label_id', 'purchase_order_id', 'carrier_id'])
  .concat(['carrier_integration_id', 'carrier_integration_name', 'carrier_integration_type', 'service_id', 'carton_id', 'carton_name'])
  .concat(['warehouse_id', 'warehouse_name', 'location_type_id', 'location_type_name', 'rate_period', 'pricing_config', 'pricing_trace'])
  .concat(['created_at', 'updated_at', 'billing_key']);

const BLANK_CHARGE: Readonly<Record<string, null>> = Object.fromEntries(CHARGE_COLUMNS.map((c) => [c, null]));

/** A charge inserted, with its pricing_config and pricing_trace as the JSON text written (its event reuses them). */
export interface InsertedCharge {
  charge: Charge;
  json: { pricing_config: string; pricing_trace: string };
}

/**
 * Inserts charges in one statement, leaving out those whose billing key is already billed, and
 * returns the ones inserted as built here, so nothing is parsed again (issue 40 item 6: the
 * billing's CPU). The count of rows written tells whether all were: only when some key was billed
 * already (a retried or concurrent event) are the written ones read back by their ids (a
 * RETURNING made every insert hand back rows; SQLite buffers them first).
 */
export async function insertNewCharges(st: Statements, rows: ReadonlyArray<Record<string, unknown>>, at: Date): Promise<InsertedCharge[]> {
  if (!rows.length) return [];
  const params: unknown[] = [];
  const out: InsertedCharge[] = [];
  for (const r of rows) {
    // Every column from the blank row, in its order: one object shape for every charge, where
    // filling in the missing columns one by one made each a slow dictionary (issue 40 item 6).
    const row: Record<string, unknown> = { ...BLANK_CHARGE, ...r, id: newId(), created_at: at, updated_at: at };
    const json = {
      pricing_config: row.pricing_config == null ? 'null' : JSON.stringify(row.pricing_config),
      pricing_trace: row.pricing_trace == null ? 'null' : JSON.stringify(row.pricing_trace),
    };
    for (const c of CHARGE_COLUMNS) {
      const v = row[c] ?? (row[c] = null); // a column given as undefined is null, as a read gives it
      params.push(v !== null && (c === 'pricing_config' || c === 'pricing_trace') ? json[c] : v);
    }
    out.push({ charge: row as unknown as Charge, json });
  }
  const written = await st.run(insertChargesSql(st.dialect, rows.length), params);
  if (written === out.length) return out;
  const ids = out.map((r) => r.charge.id);
  const sql = `SELECT "id" FROM "charges" WHERE "id" IN (${placeholders(ids.length)})`;
  const inserted = new Set((await st.all<{ id: string }>(sql, ids)).map((r) => r.id));
  return out.filter((r) => inserted.has(r.charge.id));
}

// The INSERT's text per dialect and row count (a fulfillment's is ~2 KB).
const chargesSql = keptTexts(100);

function insertChargesSql(d: Dialect, n: number): string {
  return chargesSql(`${d.provider}:${n}`, () => {
    const marks = CHARGE_COLUMNS.map((c) => (c === 'pricing_config' || c === 'pricing_trace' ? d.jsonParam : '?'));
    return `INSERT INTO "charges" (${CHARGE_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${Array(n)
      .fill(`(${marks.join(', ')})`)
      .join(', ')}
    ON CONFLICT DO NOTHING`;
  });
}
