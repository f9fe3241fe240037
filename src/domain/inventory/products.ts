import { readsOf } from '../../db/reads.js';
import { boundStatements } from '../../db/statements.js';
import type { Db, TxClient } from '../../db/types.js';
import { DomainError, notFound } from '../errors.js';
import { findProductsByKey, findWarehouseNames, productsByKey } from './store/products.js';

// Request lines name a product by product_id or by sku. A fulfiller reaches its own products and
// those of the merchants delegated to it (`teamIds`); a SKU found in two of those teams is
// ambiguous and must be given as product_id. Unknown ids and SKUs answer 404 naming the line.

export interface ProductRef {
  product_id?: string;
  sku?: string;
}

export interface ResolvedProduct {
  id: string;
  sku: string | null;
  name: string;
  team_id: string;
}

/** Products by id or sku: on a transaction() through its prepared statements (one text however many lines), else Prisma. */
async function productsBy(tx: TxClient, key: 'id' | 'sku', values: string[], teamIds: string[]): Promise<ResolvedProduct[]> {
  if (!values.length) return [];
  const st = boundStatements(tx);
  if (st) return productsByKey(st, key, values, teamIds);
  return findProductsByKey(tx, key, values, teamIds);
}

/** The product of every line, in line order (two queries however many lines). */
export function resolveProducts(tx: TxClient, teamIds: string[], lines: ProductRef[], path = 'lines'): Promise<ResolvedProduct[]> {
  return resolveWith((key, values) => productsBy(tx, key, values, teamIds), lines, path);
}

/** resolveProducts outside a transaction, on the read connection (src/db/reads.ts). */
export function resolveProductsRead(db: Db, teamIds: string[], lines: ProductRef[], path = 'lines'): Promise<ResolvedProduct[]> {
  return resolveWith(
    (key, values) => (values.length ? productsByKey(readsOf(db), key, values, teamIds) : Promise.resolve([])),
    lines,
    path,
  );
}

type ProductsBy = (key: 'id' | 'sku', values: string[]) => Promise<ResolvedProduct[]>;

async function resolveWith(productsBy: ProductsBy, lines: ProductRef[], path: string): Promise<ResolvedProduct[]> {
  lines.forEach((l, i) => {
    if (Boolean(l.product_id) === Boolean(l.sku)) {
      throw new DomainError('validation-failed', `${path}[${i}]: give exactly one of product_id and sku.`, {
        errors: [{ path: `${path}[${i}]`, message: 'exactly one of product_id and sku is required' }],
      });
    }
  });
  const ids = [...new Set(lines.flatMap((l) => (l.product_id ? [l.product_id] : [])))];
  const skus = [...new Set(lines.flatMap((l) => (l.sku ? [l.sku] : [])))];
  const byId = new Map((await productsBy('id', ids)).map((p) => [p.id, p]));
  const bySku = new Map<string, ResolvedProduct[]>();
  for (const p of await productsBy('sku', skus)) {
    const same = bySku.get(p.sku!);
    if (same) same.push(p);
    else bySku.set(p.sku!, [p]);
  }
  return lines.map((l, i) => {
    if (l.product_id) {
      const p = byId.get(l.product_id);
      if (!p) throw notFound(`Product (${path}[${i}].product_id)`, l.product_id);
      return p;
    }
    const found = bySku.get(l.sku!) ?? [];
    if (!found.length) throw notFound(`Product with SKU (${path}[${i}].sku)`, JSON.stringify(l.sku));
    if (found.length > 1) {
      throw new DomainError(
        'conflict',
        `${path}[${i}]: SKU ${JSON.stringify(l.sku)} names ${found.length} products (of different merchants); give product_id instead.`,
        {
          product_ids: found.map((p) => p.id),
        },
      );
    }
    return found[0];
  });
}

/** Refuses a product named twice in one request (its lines would be ambiguous). */
export function uniqueProducts(products: ResolvedProduct[], path = 'lines'): void {
  const seen = new Map<string, number>();
  products.forEach((p, i) => {
    const first = seen.get(p.id);
    if (first !== undefined) {
      throw new DomainError(
        'validation-failed',
        `${path}[${i}]: product ${p.sku ?? p.id} is already on line ${first}; give each product once.`,
        {
          errors: [{ path: `${path}[${i}]`, message: `same product as ${path}[${first}]` }],
        },
      );
    }
    seen.set(p.id, i);
  });
}

/** Names of the given warehouses by id (one query; none for no ids). */
export async function warehouseNames(client: TxClient, ids: string[]): Promise<Map<string, string>> {
  const rows = ids.length ? await findWarehouseNames(client, [...new Set(ids)]) : [];
  return new Map(rows.map((w) => [w.id, w.name]));
}
