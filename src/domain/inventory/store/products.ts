import type { Statements } from '../../../db/statements.js';
import type { Db, TxClient } from '../../../db/types.js';

// The request lines' products read on the write paths' prepared statements (issue 29 item 3): a
// 1,000-line receipt or adjustment names its products in one statement whose keys and teams are
// two JSON parameters, so the text is prepared once and no Prisma query is built per request.

export interface ProductKeyRow {
  id: string;
  sku: string | null;
  name: string;
  team_id: string;
}

/** The products of these teams whose `key` (id or sku) is one of `values`. */
export function productsByKey(
  st: Pick<Statements, 'dialect' | 'all'>,
  key: 'id' | 'sku',
  values: string[],
  teamIds: string[],
): Promise<ProductKeyRow[]> {
  const list = st.dialect.jsonSql.values;
  return st.all<ProductKeyRow>(
    `SELECT "id", "sku", "name", "team_id" FROM "products"
     WHERE "${key}" IN (SELECT value FROM ${list}) AND "team_id" IN (SELECT value FROM ${list})`,
    [JSON.stringify(values), JSON.stringify(teamIds)],
  );
}

// Through Prisma: the products and warehouses the ledger and the lists name.

type Client = Db['prisma'] | TxClient;

/** The products of these teams whose `key` (id or sku) is one of `values` (productsByKey outside a transaction()). */
export function findProductsByKey(tx: TxClient, key: 'id' | 'sku', values: string[], teamIds: string[]): Promise<ProductKeyRow[]> {
  return tx.product.findMany({
    where: { [key]: { in: values }, team_id: { in: teamIds } },
    select: { id: true, sku: true, name: true, team_id: true },
  });
}

/** Whether the product is lot-tracked (false when it does not exist). */
export async function isLotTracked(tx: TxClient, productId: string): Promise<boolean> {
  return (await tx.product.findUnique({ where: { id: productId }, select: { lot_tracked: true } }))?.lot_tracked === true;
}

/** Which of these products are lot-tracked (ids). */
export async function lotTrackedIds(tx: TxClient, productIds: string[]): Promise<Set<string>> {
  const rows = await tx.product.findMany({ where: { id: { in: productIds }, lot_tracked: true }, select: { id: true } });
  return new Set(rows.map((p) => p.id));
}

/** The product's SKU (null without one, or without the product). */
export async function findProductSku(tx: TxClient, productId: string): Promise<string | null> {
  return (await tx.product.findUnique({ where: { id: productId }, select: { sku: true } }))?.sku ?? null;
}

/** What a replenishment task shows of these products, config included. */
export function findProductsWithConfig(client: Client, ids: string[]) {
  return client.product.findMany({ where: { id: { in: ids } }, select: { id: true, sku: true, name: true, config: true } });
}

/** The warehouses of these (distinct) ids, with their names. */
export function findWarehouseNames(client: Client, ids: string[]) {
  return client.warehouse.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}
