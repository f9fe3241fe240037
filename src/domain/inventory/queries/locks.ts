import { join } from '@prisma/client/runtime/client';
import type { Provider, TxClient } from '../../../db/types.js';

// The inventory area's provider-specific lock statement, for the bulk ledger (ledger-bulk.ts).

/** PostgreSQL: the levels' row locks, in id order (SQLite: the transaction's first write holds the database). */
export async function lockLevels(tx: TxClient, provider: Provider, ids: string[]) {
  if (provider !== 'postgresql' || !ids.length) return;
  await tx.$queryRaw`SELECT "id" FROM "inventory_levels" WHERE "id" IN (${join([...ids].sort())}) ORDER BY "id" FOR UPDATE`;
}
