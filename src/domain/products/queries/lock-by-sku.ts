import { join } from '@prisma/client/runtime/client';
import type { Provider, TxClient } from '../../../db/types.js';

// The products area's provider-specific locking read, for the bulk upsert (bulk-write.ts).

export interface LockedProduct {
  id: string;
  sku: string;
  name: string;
  barcode: string | null;
  config: unknown;
}

/**
 * The owner's products with these SKUs, locked until commit, so a concurrent PATCH or bulk of one
 * of them waits (as PATCH locks its row by writing it first). PostgreSQL: row locks in id order
 * (two bulks never wait on each other in a cycle). SQLite: a write statement, which takes the
 * database's write lock before anything is read.
 */
export async function lockBySku(tx: TxClient, provider: Provider, teamId: string, skus: string[]): Promise<LockedProduct[]> {
  const rows =
    provider === 'postgresql'
      ? await tx.$queryRaw<LockedProduct[]>`
        SELECT "id", "sku", "name", "barcode", "config" FROM "products"
        WHERE "team_id" = ${teamId} AND "sku" IN (${join(skus)}) ORDER BY "id" FOR UPDATE`
      : await tx.$queryRaw<LockedProduct[]>`
        UPDATE "products" SET "updated_at" = "updated_at"
        WHERE "team_id" = ${teamId} AND "sku" IN (${join(skus)})
        RETURNING "id", "sku", "name", "barcode", "config"`;
  return rows.map((r) => ({ ...r, config: typeof r.config === 'string' ? JSON.parse(r.config) : r.config }));
}
