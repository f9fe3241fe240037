import type { Db } from '../../db/types.js';
import { DomainError, type ProblemKind } from '../errors.js';
import type { ProductInput, ProductType } from './fields.js';
import { opsOwner } from './products.js';
import { reachableTeamIds, type Caller } from './reach.js';
import { createProduct, updateProduct } from './write.js';

// POST /v1/ops/products/bulk: up to 1,000 products upserted by SKU within one owner team (the
// caller's, or a delegated merchant's). A SKU that names an existing product of the team updates
// it with the fields given; an unknown SKU creates a product (name and type required). Each row
// is its own transaction through the same create/update as the single-product endpoints, so a
// bad row fails alone and is reported with its index; the others are applied.

export interface BulkRow extends ProductInput {
  sku: string;
}

export interface BulkResult {
  index: number;
  sku: string;
  status: 'created' | 'updated' | 'failed';
  id: string | null;
  error: { kind: ProblemKind; detail: string } | null;
}

export async function bulkUpsertProducts(db: Db, caller: Caller, input: { merchant_team_id?: string; products: BulkRow[] }) {
  const reach = await reachableTeamIds(db.prisma, caller);
  const owner = await opsOwner(db.prisma, caller, input.merchant_team_id);
  const skus = [...new Set(input.products.map((p) => p.sku))];
  const bySku = new Map<string, string[]>();
  for (const p of await db.prisma.product.findMany({
    where: { team_id: owner.team_id, sku: { in: skus } },
    select: { id: true, sku: true },
  })) {
    bySku.set(p.sku!, [...(bySku.get(p.sku!) ?? []), p.id]);
  }
  const firstRow = new Map<string, number>();
  const results: BulkResult[] = [];
  for (const [index, row] of input.products.entries()) {
    const fail = (kind: ProblemKind, detail: string) =>
      results.push({ index, sku: row.sku, status: 'failed', id: null, error: { kind, detail } });
    const seen = firstRow.get(row.sku);
    if (seen !== undefined) {
      fail('validation-failed', `SKU ${JSON.stringify(row.sku)} is already on products[${seen}]; give each SKU once.`);
      continue;
    }
    firstRow.set(row.sku, index);
    const ids = bySku.get(row.sku) ?? [];
    try {
      if (ids.length > 1) {
        fail('conflict', `SKU ${JSON.stringify(row.sku)} names ${ids.length} products of the team; update them one by one by id.`);
      } else if (ids.length === 1) {
        await updateProduct(db, reach, ids[0], row);
        results.push({ index, sku: row.sku, status: 'updated', id: ids[0], error: null });
      } else if (!row.name || !row.type) {
        fail('validation-failed', `SKU ${JSON.stringify(row.sku)} is new: name and type are required to create it.`);
      } else {
        const id = await createProduct(db, reach, { ...row, name: row.name, type: row.type as ProductType }, async () => owner);
        results.push({ index, sku: row.sku, status: 'created', id, error: null });
      }
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      fail(err.kind, err.message);
    }
  }
  const count = (s: BulkResult['status']) => results.filter((r) => r.status === s).length;
  return { created: count('created'), updated: count('updated'), failed: count('failed'), results };
}
