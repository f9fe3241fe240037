import { assertNoActiveHold } from '../orders/index.js';
import { statementsOf } from '../../db/statements.js';
import type { Provider, TxClient } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { namedFulfillmentOrder } from '../names/index.js';
import { CLOSED_FO } from './fulfillment-orders.js';
import { namesOfRow, type Names } from './lookups.js';
import { claimForPackingRow, packingLineRows } from './store/packing.js';
import { findTeamFulfillmentOrder } from './store/fo-state.js';

// What a package is made from, read in two statements inside the packing transaction:
//  - claimForPacking: the fulfillment order's row lock (the transaction's first statement, a
//    compare-and-set UPDATE that refuses closed orders), returning the row with what the package
//    copies from its order and the names its response shows;
//  - packingLines: the fulfillment order's lines, each with what other open packages already
//    hold of it and the product fields a package line copies.
// The lock serialises packers of one fulfillment order, so the quantities read after it are
// current (packages.ts, package-lines.ts).

export interface PackingFo {
  id: string;
  order_id: string;
  warehouse_id: string;
  fulfiller_team_id: string;
  merchant_team_id: string;
  picking_session_id: string | null;
  order: {
    shipping_address: unknown;
    customer_email: string | null;
    customer_name: string | null;
    config: unknown;
    /** carrier selection (rules' or a person's): what a new package starts with */
    carrier_selection: unknown;
    shop_id: string | null;
  };
  names: Names;
}

export async function claimForPacking(tx: TxClient, provider: Provider, teamId: string, foId: string): Promise<PackingFo> {
  const row = await claimForPackingRow(statementsOf(tx, provider), teamId, foId);
  if (!row) {
    const now = await findTeamFulfillmentOrder(tx, teamId, foId, { status: true, order_id: true });
    if (!now) throw notFound('Fulfillment order', foId);
    if (!CLOSED_FO.includes(now.status)) await assertNoActiveHold(tx, now.order_id); // no packing while on hold: 409 naming the hold
    const named = await namedFulfillmentOrder(tx, foId);
    throw conflict(`${named} is ${now.status}; no packages can be added or changed.`, {
      fulfillment_order_status: now.status,
    });
  }
  const shopOf = row.o_shop_id && row.s_name !== null ? { id: row.o_shop_id, name: row.s_name, shop_type: row.s_shop_type! } : undefined;
  return {
    id: row.id,
    order_id: row.order_id,
    warehouse_id: row.warehouse_id,
    fulfiller_team_id: row.fulfiller_team_id,
    merchant_team_id: row.merchant_team_id,
    picking_session_id: row.picking_session_id,
    order: {
      shipping_address: row.o_shipping_address,
      customer_email: row.o_customer_email,
      customer_name: row.o_customer_name,
      config: row.o_config,
      carrier_selection: row.o_carrier_selection,
      shop_id: row.o_shop_id,
    },
    names: namesOfRow(row, shopOf),
  };
}

/** A fulfillment-order line as packing sees it. */
export interface PackingLine {
  id: string;
  product_id: string | null;
  sku: string | null;
  name: string;
  image_url: string | null;
  remaining_quantity: number;
  /** Units of this line in the fulfillment order's other open (PENDING) packages. */
  in_other_packages: number;
  /** Units recorded short (a short pick or pack): never packed, never shipped on this fulfillment order. */
  short_quantity: number;
  /** The product's fields a package line copies (null without a product). */
  product: PackingProduct | null;
}

export interface PackingProduct {
  image_url: string | null;
  weight: number | null;
  weight_unit: string | null;
  customs_value: number | null;
  customs_value_currency: string | null;
  customs_description: string | null;
  hs_code: string | null;
  country_of_origin: string | null;
  printed_commodity_identifier: string | null;
  eccn: string | null;
  manufacturer: string | null;
}

const PRODUCT_FIELDS = [
  'image_url',
  'weight',
  'weight_unit',
  'customs_value',
  'customs_value_currency',
  'customs_description',
  'hs_code',
  'country_of_origin',
  'printed_commodity_identifier',
  'eccn',
  'manufacturer',
] as const satisfies ReadonlyArray<keyof PackingProduct>;

/** What a line without a product copies: nothing. */
export const NO_PRODUCT = Object.fromEntries(PRODUCT_FIELDS.map((f) => [f, null])) as unknown as PackingProduct;

/** Each product field beside its column in packingLineRows' rows, made once (not a key per row and field). */
const PRODUCT_KEYS = PRODUCT_FIELDS.map((f) => [f, `p_${f}`] as const);

function productOf(r: Record<string, unknown>): PackingProduct {
  const product: Record<string, unknown> = {};
  for (const [f, k] of PRODUCT_KEYS) product[f] = r[k] ?? null;
  return product as unknown as PackingProduct;
}

/**
 * The lines of a (claimed) fulfillment order in created order; `excludePackageId`: a package being
 * edited. `provider` only for a read outside transaction() (GET of an open box).
 */
export async function packingLines(tx: TxClient, foId: string, excludePackageId?: string, provider?: Provider): Promise<PackingLine[]> {
  const rows = await packingLineRows(statementsOf(tx, provider), foId, PRODUCT_FIELDS, excludePackageId);
  return rows.map((r) => ({
    id: r.id as string,
    product_id: r.product_id as string | null,
    sku: r.sku as string | null,
    name: r.name as string,
    image_url: r.image_url as string | null,
    remaining_quantity: Number(r.remaining_quantity),
    in_other_packages: Number(r.in_other_packages),
    short_quantity: Number(r.short_quantity ?? 0),
    product: r.has_product ? productOf(r) : null,
  }));
}
