import { newId } from '../../db/ids.js';
import type { Provider, TxClient } from '../../db/types.js';
import { unitsOf } from '../teams/index.js';
import { columnsOf, mergeConfig, searchColumns, type ProductInput, type ProductType } from './fields.js';
import type { Owner } from './write.js';
import { anyStatementsOf } from '../../db/statements.js';
import { insertProductRows, lockBySku, updateProductRows, type LockedProduct } from './store/write.js';

export { lockBySku, type LockedProduct };

// The statements of a bulk upsert (bulk.ts decides which rows create, update or fail). Each write
// is what POST/PATCH of one product writes (units, config merge, search columns), for every row
// at once: the locking read, one multi-row INSERT per ~30,000 parameters, one UPDATE … FROM (VALUES …) per ~30,000
// parameters.

/** Creates the rows (all new SKUs of the owner) with one multi-row INSERT; returns their ids in order. */
export async function insertProducts(tx: TxClient, owner: Owner, rows: (ProductInput & { sku: string })[]): Promise<string[]> {
  if (!rows.length) return [];
  const ids = rows.map(() => newId());
  await insertProductRows(
    anyStatementsOf(tx),
    rows.map((row, i) => ({
      ...unitsOf(owner.measurement_system),
      ...columnsOf(row),
      id: ids[i],
      name: row.name!,
      type: row.type as ProductType,
      config: mergeConfig(row.config ?? {}, null),
      team_id: owner.team_id,
      merchant_team_id: owner.merchant_team_id,
      fulfiller_team_id: owner.fulfiller_team_id,
      ...searchColumns({ name: row.name!, sku: row.sku, barcode: row.barcode ?? null }),
    })),
    new Date(),
  );
  return ids;
}

/**
 * Updates locked products, each with its own fields (as PATCH: the fields given, config merged
 * into the stored one, search columns from the merged name, SKU and barcode). A column a row does
 * not give keeps its value (store/write.ts).
 */
export async function updateProducts(
  tx: TxClient,
  provider: Provider,
  updates: { locked: LockedProduct; row: ProductInput & { sku: string } }[],
): Promise<void> {
  if (!updates.length) return;
  const written = updates.map(({ locked, row }) => {
    const cols = columnsOf(row);
    if (row.config !== undefined) cols.config = JSON.stringify(mergeConfig(row.config, locked.config));
    const name = row.name ?? locked.name;
    const barcode = row.barcode !== undefined ? row.barcode : locked.barcode;
    const all: Record<string, unknown> = { ...cols, ...searchColumns({ name, sku: row.sku, barcode }) };
    return { id: locked.id, cols: all };
  });
  const names = [...new Set(written.flatMap((w) => Object.keys(w.cols)))];
  await updateProductRows(tx, provider, names, written);
}
