import { anyStatementsOf } from '../../db/statements.js';
import type { TxClient } from '../../db/types.js';
import { conflict } from '../errors.js';
import { skuOwnerRows } from './store/write.js';

// SKUs are unique per owning team, ignoring case (issue 25): "abc-1" and "ABC-1" of one team
// would make every match by SKU (imports, channel orders, scans) ambiguous. The database holds
// the rule (unique index on team_id, lower(sku): migration 20261125044800_products_sku_unique_per_team);
// this is the one check every write path calls first, so a duplicate is a clear 409 (or row
// error) naming the product that has the SKU rather than a constraint failure. Case folding is
// the database's lower() on both sides, so the check and the index agree (SQLite folds ASCII
// letters only; PostgreSQL every letter).

export interface SkuOwner {
  id: string;
  sku: string;
  /** lower(sku) as the database folds it. */
  key: string;
}

/**
 * Products of `teamId` whose SKU equals one of `skus` ignoring case, other than `exceptId`.
 * One query for any number of SKUs (bound as one JSON parameter); the result is keyed by the
 * folded SKU.
 */
export async function skuOwners(tx: TxClient, teamId: string, skus: string[], exceptId?: string): Promise<Map<string, SkuOwner>> {
  const out = new Map<string, SkuOwner>();
  const wanted = [...new Set(skus.filter((s) => s !== ''))];
  if (!wanted.length) return out;
  for (const r of await skuOwnerRows(anyStatementsOf(tx), teamId, wanted)) if (r.id !== exceptId && !out.has(r.key)) out.set(r.key, r);
  return out;
}

/** The 409 for a SKU another product of the team has (perhaps in another case). */
export const skuTaken = (sku: string, owner: SkuOwner) =>
  conflict(
    `SKU ${JSON.stringify(sku)} is already used by product ${owner.id}` +
      (owner.sku === sku ? '' : ` as ${JSON.stringify(owner.sku)}`) +
      ' of the same team (SKUs are unique per team, ignoring case).',
    { product_id: owner.id, sku: owner.sku },
  );

/** 409 when another product of the team has this SKU in any case. */
export async function assertSkuFree(tx: TxClient, teamId: string, sku: string | null | undefined, exceptId?: string) {
  if (!sku) return;
  const [owner] = (await skuOwners(tx, teamId, [sku], exceptId)).values();
  if (owner) throw skuTaken(sku, owner);
}
