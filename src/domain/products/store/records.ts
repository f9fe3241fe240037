import type { Prisma, TxClient } from '../../../db/types.js';

// The products area's Prisma reads and writes (issue 38 item 4): product rows, the teams and
// delegations that decide reach and ownership, component lists, and what the records show of
// stock, listings and shops. The rules (reach, ownership, SKU and component checks) stay in the
// area's files; the list's SQL is in list.ts, the bulk and dedupe statements in write.ts, a
// merge's moves in merge.ts.

/** db.prisma or a transaction client. */
type Client = TxClient;

// The search columns are the lists' filters, never shown: not read. (The bundle count is not a
// Prisma _count either: on SQLite that aggregates every component of every product, and builds an
// automatic index, on each query; presentOps counts the page's own components instead.)
const SEARCH_COLUMNS = { search_text: true, name_sku_search_text: true } as const;

/** Prisma arguments for a row without its children (the list's rows come from list.ts). */
export const LIST_ROW = { omit: SEARCH_COLUMNS };

/** Prisma arguments for detail rows: both component lists with their products. */
export const DETAIL_ROW = {
  omit: SEARCH_COLUMNS,
  include: {
    components: {
      include: { component: { select: { id: true, sku: true, name: true, image_url: true } } },
      orderBy: [{ created_at: 'asc' as const }, { id: 'asc' as const }],
    },
  },
};

// Reach and ownership.

/** The merchant teams with an active delegation to the fulfiller. */
export function findDelegatedMerchantIds(client: Client, fulfillerTeamId: string) {
  return client.fulfillmentDelegation.findMany({
    where: { fulfiller_team_id: fulfillerTeamId, active: true },
    select: { merchant_team_id: true },
  });
}

/** The active delegation between the two teams with its merchant team's id and measurement system. */
export function findDelegationWithMerchant(client: Client, fulfillerTeamId: string, merchantTeamId: string) {
  return client.fulfillmentDelegation.findFirst({
    where: { fulfiller_team_id: fulfillerTeamId, merchant_team_id: merchantTeamId, active: true },
    include: { merchant_team: { select: { id: true, measurement_system: true } } },
  });
}

/** Up to two active delegations of the merchant (their fulfillers): enough to tell whether it has exactly one. */
export function findTwoFulfillersOf(client: Client, merchantTeamId: string) {
  return client.fulfillmentDelegation.findMany({
    where: { merchant_team_id: merchantTeamId, active: true },
    select: { fulfiller_team_id: true },
    take: 2,
  });
}

export function findTeamMeasurement(client: Client, teamId: string) {
  return client.team.findUniqueOrThrow({ where: { id: teamId }, select: { measurement_system: true } });
}

// Product rows.

/** The product in one of these teams, as a detail view reads it. */
export function findDetailRow(client: Client, teamIds: string[], id: string) {
  return client.product.findFirst({ where: { id, team_id: { in: teamIds } }, ...DETAIL_ROW });
}

export function findTeamProduct(client: Client, teamId: string, id: string) {
  return client.product.findFirst({ where: { id, team_id: teamId } });
}

/** One page of products (pageArgs' window). */
export function findProductPage(client: Client, window: { where: Prisma.ProductWhereInput; orderBy: never; skip: number; take: number }) {
  return client.product.findMany(window);
}

/** The sort keys (`select`) of the products a window or an id list names: what the ops list pages over. */
export function findProductKeys<S extends Prisma.ProductSelect>(
  client: Client,
  args: { where: Prisma.ProductWhereInput; orderBy: never; skip: number; take: number; select: S },
) {
  return client.product.findMany(args);
}

export function findProduct(client: Client, id: string) {
  return client.product.findUnique({ where: { id } });
}

export function findProductTeam(client: Client, id: string) {
  return client.product.findUnique({ where: { id }, select: { team_id: true } });
}

export function insertProduct(tx: TxClient, data: Prisma.ProductUncheckedCreateInput) {
  return tx.product.create({ data });
}

/** Writes the product if in one of these teams (its row lock, first); the count written. */
export function updateProductInTeams(tx: TxClient, teamIds: string[], id: string, data: Prisma.ProductUpdateManyMutationInput) {
  return tx.product.updateMany({ where: { id, team_id: { in: teamIds } }, data });
}

export function updateProductRow(tx: TxClient, id: string, data: Prisma.ProductUpdateInput) {
  return tx.product.update({ where: { id }, data });
}

// Components.

/** Products by id within these teams: id, team and SKU. */
export function findProductsById(client: Client, ids: string[], teamIds: string[]) {
  return client.product.findMany({ where: { id: { in: ids }, team_id: { in: teamIds } }, select: { id: true, team_id: true, sku: true } });
}

/** The team's products with these SKUs: id, team and SKU. */
export function findProductsBySku(client: Client, skus: string[], teamId: string) {
  return client.product.findMany({ where: { sku: { in: skus }, team_id: teamId }, select: { id: true, team_id: true, sku: true } });
}

/** The components of these parents (one level of the cycle check). */
export function findComponentEdges(client: Client, parentIds: string[]) {
  return client.productComponent.findMany({ where: { parent_product_id: { in: parentIds } }, select: { component_product_id: true } });
}

export function findComponentsOf(client: Client, parentId: string, kind: Prisma.ProductComponentWhereInput['kind']) {
  return client.productComponent.findMany({ where: { parent_product_id: parentId, kind } });
}

export function deleteComponentsIn(client: Client, ids: string[]) {
  return client.productComponent.deleteMany({ where: { id: { in: ids } } });
}

export function updateComponentQuantity(client: Client, id: string, quantity: number) {
  return client.productComponent.update({ where: { id }, data: { component_quantity: quantity } });
}

export function insertComponents(client: Client, data: Prisma.ProductComponentCreateManyInput[]) {
  return client.productComponent.createMany({ data });
}

/** VIRTUAL_BUNDLE components per parent, counted. */
export function countBundleComponents(client: Client, parentIds: string[]) {
  return client.productComponent.groupBy({
    by: ['parent_product_id'],
    where: { parent_product_id: { in: parentIds }, kind: 'VIRTUAL_BUNDLE' },
    _count: { _all: true },
  });
}

// What the records show.

/** The products' listing variants, oldest first. */
export function findListingVariants(client: Client, productIds: string[]) {
  return client.productListingVariant.findMany({
    where: { product_id: { in: productIds } },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
  });
}

/** The products' listing variants counted per product and shop. */
export function countListingVariants(client: Client, productIds: string[]) {
  return client.productListingVariant.groupBy({
    by: ['product_id', 'shop_id'],
    where: { product_id: { in: productIds } },
    _count: { _all: true },
  });
}

export function findShops(client: Client, ids: string[]) {
  return client.shop.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, slug: true, shop_type: true } });
}

/** The team's warehouses (only these ids, when given), by name: ids and names. */
export function findVisibleWarehouses(client: Client, teamId: string, only?: string[]) {
  return client.warehouse.findMany({
    where: { team_id: teamId, ...(only ? { id: { in: only } } : {}) },
    select: { id: true, name: true },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
}

/** The products' stock levels at these warehouses. */
export function findStockLevels(client: Client, productIds: string[], warehouseIds: string[]) {
  return client.inventoryLevel.findMany({
    where: { product_id: { in: productIds }, warehouse_id: { in: warehouseIds } },
    select: { product_id: true, warehouse_id: true, on_hand: true, committed: true, unavailable: true, on_order: true },
  });
}

/** unavailable and on_order movements of these products at these warehouses, summed by reason and reference type. */
export function sumHeldMovements(client: Client, productIds: string[], warehouseIds: string[]) {
  return client.inventoryMovement.groupBy({
    by: ['product_id', 'warehouse_id', 'bucket', 'reason', 'reference_type'],
    where: {
      product_id: { in: productIds },
      warehouse_id: { in: warehouseIds },
      bucket: { in: ['unavailable', 'on_order'] },
    },
    _sum: { delta: true },
  });
}
