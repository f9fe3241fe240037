import type { Product, ProductComponent, ProductListingVariant } from '../../db/types.js';
import { configOf, PLATFORMS, type Platform } from './fields.js';
import { MERCHANT_PRODUCT_COLUMNS, OPS_PRODUCT_COLUMNS } from '../../contract/products.js';
import { inventoryFor, visibleWarehouses, type InventoryTotals, type Stock } from './inventory.js';
import { teamNames } from '../names/index.js';
import { type Caller, type Client } from './reach.js';
import * as records from './store/records.js';

// Shapes product rows into the ops (spec 2.3) and merchant (spec 2.4) records. presentOps loads
// everything the records need (team names, stock levels, listing variants, shops) for all its rows
// at once: a constant number of queries, whatever the number of rows. It serves the detail views;
// the ops list reads its rows and those parts in one SQL statement (products/store/list.ts), and both build
// the record with opsRecord.

type Component = ProductComponent & { component: Pick<Product, 'id' | 'sku' | 'name' | 'image_url'> };

/** A product row as loaders fetch it (without the search columns), with its components on detail views. */
export type ProductRow = Omit<Product, 'search_text' | 'name_sku_search_text'> & {
  components?: Component[];
};

export interface PresentOptions {
  /** Include virtual_bundle_products, assembly_products, product_listing_variants. */
  children: boolean;
  /** Include supported_actions (list and get-one only). */
  actions: boolean;
  /** warehouse_id filter of the list: restricts inventory_by_warehouse and the totals. */
  warehouseIds?: string[];
}

/** Virtual bundle components per product: counted from the rows' components when loaded, else in one query for the page. */
async function bundleCounts(client: Client, rows: ProductRow[]): Promise<Map<string, number>> {
  if (rows.every((r) => r.components)) {
    return new Map(rows.map((r) => [r.id, r.components!.filter((c) => c.kind === 'VIRTUAL_BUNDLE').length]));
  }
  const groups = await records.countBundleComponents(
    client,
    rows.map((r) => r.id),
  );
  return new Map(groups.map((g) => [g.parent_product_id, g._count._all]));
}

/** A product's team names (null for a missing team). */
export interface TeamNames {
  team_name: string | null;
  fulfiller_team_name: string | null;
  merchant_team_name: string | null;
}

const teamNamesOf = (p: Pick<Product, 'team_id' | 'fulfiller_team_id' | 'merchant_team_id'>, names: Map<string, string>): TeamNames => ({
  team_name: names.get(p.team_id) ?? null,
  fulfiller_team_name: p.fulfiller_team_id ? (names.get(p.fulfiller_team_id) ?? null) : null,
  merchant_team_name: p.merchant_team_id ? (names.get(p.merchant_team_id) ?? null) : null,
});

const teamFields = (p: Pick<Product, 'team_id' | 'fulfiller_team_id' | 'merchant_team_id'>, names: TeamNames) => ({
  team_id: p.team_id,
  team_name: names.team_name,
  fulfiller_team_id: p.fulfiller_team_id,
  fulfiller_team_name: names.fulfiller_team_name,
  merchant_team_id: p.merchant_team_id,
  merchant_team_name: names.merchant_team_name,
});

function componentEntry(c: Component, parentKey: 'virtual_bundle_product_id' | 'assembly_product_id') {
  return {
    id: c.id,
    [parentKey]: c.parent_product_id,
    component_product_id: c.component_product_id,
    component_product_sku: c.component.sku,
    component_product_name: c.component.name,
    component_product_image_url: c.component.image_url,
    component_quantity: c.component_quantity,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

type ShopInfo = { id: string; name: string; slug: string; shop_type: Platform };

// A variant without a shop is a manual listing.
export const platformOf = (v: { shop_id: string | null }, shops: Map<string, ShopInfo>): Platform =>
  (v.shop_id && shops.get(v.shop_id)?.shop_type) || 'MANUAL';

async function shopsById(client: Client, ids: (string | null)[]) {
  const unique = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  const shops = unique.length ? await records.findShops(client, unique) : [];
  return new Map(shops.map((s) => [s.id, s as ShopInfo]));
}

/** Ops records (spec 2.3) for rows already known to be in the caller's reach. */
export async function presentOps(client: Client, caller: Caller, rows: ProductRow[], opts: PresentOptions) {
  const ids = rows.map((r) => r.id);
  if (!ids.length) return [];
  const [names, warehouses, variants, variantGroups, bundles] = await Promise.all([
    teamNames(
      client,
      rows.flatMap((r) => [r.team_id, r.merchant_team_id, r.fulfiller_team_id]),
    ),
    visibleWarehouses(client, caller.teamId, opts.warehouseIds),
    opts.children ? records.findListingVariants(client, ids) : ([] as ProductListingVariant[]),
    !opts.children ? records.countListingVariants(client, ids) : [],
    bundleCounts(client, rows),
  ]);
  const counted = opts.children
    ? variants.map((v) => ({ product_id: v.product_id, shop_id: v.shop_id, n: 1 }))
    : variantGroups.map((g) => ({ product_id: g.product_id, shop_id: g.shop_id, n: g._count._all }));
  const [shops, inventory] = await Promise.all([
    shopsById(
      client,
      counted.map((c) => c.shop_id),
    ),
    inventoryFor(client, ids, warehouses),
  ]);
  const variantCounts = new Map(ids.map((id) => [id, Object.fromEntries(PLATFORMS.map((k) => [k, 0])) as Record<Platform, number>]));
  for (const c of counted) variantCounts.get(c.product_id)![platformOf(c, shops)] += c.n;

  return rows.map((p) => {
    const own = teamNamesOf(p, names);
    const children = opts.children ? childrenOf(p, teamFields(p, own), variants, shops) : undefined;
    return opsRecord(
      p,
      { names: own, stock: inventory.get(p.id)!, bundles: bundles.get(p.id) ?? 0, variantCount: variantCounts.get(p.id)! },
      opts.actions,
      children,
    );
  });
}

/** What an ops record shows beside the product's own columns. */
export interface OpsParts {
  names: TeamNames;
  stock: Stock;
  bundles: number;
  variantCount: Record<Platform, number>;
}

/**
 * The ops record (spec 2.3) of a product row: the one description of it, for presentOps and for
 * the list's SQL path (products/store/list.ts), which loads the same parts in one statement.
 */
export function opsRecord(p: ProductRow, parts: OpsParts, actions: boolean, children?: Record<string, unknown>) {
  const record = makeOpsRecord(p, parts.names, parts.stock.totals, parts, configOf(p.config));
  if (children) Object.assign(record, children);
  if (actions) record.supported_actions = [{ action: 'VIEW_PRODUCT' }];
  return record;
}

type RecordMaker = (
  p: ProductRow,
  names: TeamNames,
  totals: InventoryTotals,
  parts: OpsParts,
  config: ReturnType<typeof configOf>,
) => Record<string, unknown>;

/** The fields opsRecord sets itself, after the row's columns. */
const OWN_FIELDS = {
  team_id: 'p.team_id',
  team_name: 'names.team_name',
  fulfiller_team_id: 'p.fulfiller_team_id',
  fulfiller_team_name: 'names.fulfiller_team_name',
  merchant_team_id: 'p.merchant_team_id',
  merchant_team_name: 'names.merchant_team_name',
  lot_tracked: 'p.lot_tracked === true', // NULL for products made before the flag existed
  config: 'config',
  available: 'totals.available',
  on_hand: 'totals.on_hand',
  committed: 'totals.committed',
  unavailable: 'totals.unavailable',
  on_order: 'totals.on_order',
  inventory_by_warehouse: 'parts.stock.inventory_by_warehouse',
  virtual_bundle_component_count: 'parts.bundles',
  product_listing_variant_count: 'parts.variantCount',
  created_at: 'p.created_at',
  updated_at: 'p.updated_at',
};

/**
 * opsRecord's object as one object literal, written once from OPS_PRODUCT_COLUMNS: V8 gives every
 * record the same fast shape. Copying ~40 columns by computed name (and spreading the parts in)
 * made each record a dictionary, slow to build and to serialize: ~20% of a list page's CPU.
 */
function recordMaker(): RecordMaker {
  const columns = OPS_PRODUCT_COLUMNS.filter((k) => !(k in OWN_FIELDS)).map((k) => [k, `p.${k}`]);
  const fields = [...columns, ...Object.entries(OWN_FIELDS)];
  // The names come from the contract, not from input; still, only plain identifiers are written into code.
  const bad = fields.find(([k]) => !/^[a-z_][a-z0-9_]*$/.test(k));
  if (bad) throw new Error(`opsRecord: ${bad[0]} is not a plain field name`);
  return new Function(
    'p',
    'names',
    'totals',
    'parts',
    'config',
    `return { ${fields.map(([k, v]) => `${k}: ${v}`).join(', ')} };`,
  ) as RecordMaker;
}
const makeOpsRecord = recordMaker();

/** Detail views: both component lists and the listing variants. */
function childrenOf(p: ProductRow, teams: ReturnType<typeof teamFields>, variants: ProductListingVariant[], shops: Map<string, ShopInfo>) {
  const components = p.components ?? [];
  return {
    virtual_bundle_products: components
      .filter((c) => c.kind === 'VIRTUAL_BUNDLE')
      .map((c) => componentEntry(c, 'virtual_bundle_product_id')),
    assembly_products: components.filter((c) => c.kind === 'ASSEMBLY').map((c) => componentEntry(c, 'assembly_product_id')),
    product_listing_variants: variants
      .filter((v) => v.product_id === p.id)
      .map((v) => {
        const shop = v.shop_id ? shops.get(v.shop_id) : undefined;
        return {
          id: v.id,
          product_id: v.product_id,
          product_type: p.type,
          product_listing_id: v.product_listing_id,
          product_listing_name: v.product_listing_name,
          shop_id: v.shop_id,
          shop_name: shop?.name ?? null,
          shop_slug: shop?.slug ?? null,
          shop_type: platformOf(v, shops),
          remote_id: v.remote_id,
          remote_shopify_inventory_item_id: v.remote_inventory_item_id,
          sku: v.sku,
          barcode: v.barcode,
          name: v.name,
          image_url: v.image_url,
          price: v.price,
          currency: v.currency,
          hs_code: v.hs_code,
          country_of_origin: v.country_of_origin,
          weight: v.weight,
          weight_unit: v.weight_unit,
          synced_at: v.synced_at,
          created_at: v.created_at,
          updated_at: v.updated_at,
          ...teams,
        };
      }),
  };
}

/** Merchant record (spec 2.4): exactly these fields. */
export function presentMerchant(p: Product) {
  return { ...columnsOfRow(p, MERCHANT_PRODUCT_COLUMNS), config: configOf(p.config) };
}

/** The named columns of a row, as stored (the record's schema orders and serializes them). */
function columnsOfRow(p: object, keys: readonly string[]): Record<string, unknown> {
  const row = p as Record<string, unknown>;
  return Object.fromEntries(keys.map((k) => [k, row[k]]));
}
