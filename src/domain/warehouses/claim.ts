import type { TxClient } from '../../db/types.js';
import { notFound } from '../errors.js';
import { findClaimedWarehouse, insertDefaultLocation, touchWarehouse } from './store.js';

/**
 * The warehouse (of `teamId` when given; another team's is 404, never 403), claimed with a no-op
 * UPDATE as the transaction's first statement: on SQLite that takes the write lock at once (a
 * read-first transaction could fail to upgrade with SQLITE_BUSY when another process writes), on
 * PostgreSQL it serialises stock writes of one warehouse that start here (adjustments, new
 * purchase orders) while fulfills, which lock levels only, run alongside.
 */
export async function claimWarehouse(tx: TxClient, warehouseId: string, teamId?: string) {
  const claimed = await touchWarehouse(tx, warehouseId, teamId);
  const w = claimed === 1 ? await findClaimedWarehouse(tx, warehouseId) : null;
  if (!w) throw notFound('Warehouse', warehouseId);
  return w;
}

export const defaultLocationId = (warehouseId: string) => `default-${warehouseId}`;
/** Default locations made sure of in a transaction (dies with it, so a rollback leaves nothing cached). */
const ensuredIn = new WeakMap<TxClient, Set<string>>();

/** The warehouse's default location, created when missing (race-free: insert-or-nothing on its fixed id). */
export async function ensureDefaultLocation(tx: TxClient, warehouseId: string): Promise<string> {
  const id = defaultLocationId(warehouseId);
  // Cached per transaction only: a transaction that inserted it may still roll back.
  const seen = ensuredIn.get(tx) ?? new Set<string>();
  if (seen.has(id)) return id;
  const now = new Date();
  await insertDefaultLocation(tx, id, warehouseId, now);
  seen.add(id);
  ensuredIn.set(tx, seen);
  return id;
}
