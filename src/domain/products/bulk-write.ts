import { join, raw, sqltag as sql } from '@prisma/client/runtime/client';
import { v7 as uuidv7 } from 'uuid';
import type { Provider, TxClient } from '../../db/types.js';
import { chunkByParams, flag, valuesTable, type ValuesColumn } from '../../db/values.js';
import { unitsOf } from '../teams/teams.js';
import { columnsOf, mergeConfig, searchColumns, type ProductInput, type ProductType } from './fields.js';
import type { Owner } from './write.js';
import { lockBySku, type LockedProduct } from './queries/lock-by-sku.js';

export { lockBySku, type LockedProduct };

// The statements of a bulk upsert (bulk.ts decides which rows create, update or fail). Each write
// is what POST/PATCH of one product writes (units, config merge, search columns), for every row
// at once: the locking read, one multi-row INSERT, one UPDATE … FROM (VALUES …) per ~30,000
// parameters.

/** Creates the rows (all new SKUs of the owner) with one multi-row INSERT; returns their ids in order. */
export async function insertProducts(tx: TxClient, owner: Owner, rows: (ProductInput & { sku: string })[]): Promise<string[]> {
  if (!rows.length) return [];
  const ids = rows.map(() => uuidv7());
  await tx.product.createMany({
    data: rows.map((row, i) => ({
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
    })) as never,
  });
  return ids;
}

const PG_TYPES: Record<string, string> = {
  type: '"ProductType"',
  is_hazmat: 'BOOLEAN',
  lot_tracked: 'BOOLEAN',
  first_article_inspection_completed_at: 'TIMESTAMP(3)',
  config: 'JSONB',
  length: 'DOUBLE PRECISION',
  width: 'DOUBLE PRECISION',
  height: 'DOUBLE PRECISION',
  weight: 'DOUBLE PRECISION',
  cost_price: 'DOUBLE PRECISION',
  customs_value: 'DOUBLE PRECISION',
  pick_fee_override: 'DOUBLE PRECISION',
  increment_level: 'DOUBLE PRECISION',
  maximum_level: 'DOUBLE PRECISION',
  minimum_level: 'DOUBLE PRECISION',
};

/**
 * Updates locked products, each with its own fields (as PATCH: the fields given, config merged
 * into the stored one, search columns from the merged name, SKU and barcode). A column a row does
 * not give keeps its value (a per-row flag in the VALUES list says which columns the row sets).
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
  const columns: ValuesColumn[] = [
    { name: 'id', pg: 'TEXT' },
    ...names.flatMap((n) => [
      { name: `set_${n}`, pg: 'BOOLEAN' },
      { name: n, pg: PG_TYPES[n] ?? 'TEXT' },
    ]),
  ];
  const set = join(
    names.map((n) => sql`${raw(`"${n}" = CASE WHEN v."set_${n}" THEN v."${n}" ELSE "products"."${n}" END`)}`),
    ', ',
  );
  const now = new Date();
  for (const chunk of chunkByParams(written, () => 1 + names.length)) {
    const values = chunk.map((w) => [
      w.id,
      ...names.flatMap((n) => (n in w.cols ? [flag(provider, true), w.cols[n]] : [flag(provider, false), null])),
    ]);
    await tx.$executeRaw`WITH ${valuesTable(provider, 'v', columns, values)}
      UPDATE "products" SET ${set}, "updated_at" = ${now} FROM "v" WHERE "products"."id" = v."id"`;
  }
}
