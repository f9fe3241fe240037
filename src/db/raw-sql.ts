import { join, raw, sqltag as sql, type Sql } from '@prisma/client/runtime/client';

/**
 * `CASE "id" WHEN $1 THEN $2 … END`: a number per row id, for one UPDATE that moves several rows
 * each by its own amount (the fulfill's decrements, inventory levels). Ids not listed give NULL,
 * so the UPDATE's WHERE must keep to the listed ids. The cast types the values on PostgreSQL.
 */
export function integerById(values: ReadonlyArray<readonly [id: string, n: number]>): Sql {
  return integerBy('id', values);
}

/** integerById keyed by another column (unique within the UPDATE's WHERE), e.g. "product_id". */
export function integerBy(column: string, values: ReadonlyArray<readonly [key: string, n: number]>): Sql {
  return sql`CASE ${raw(`"${column}"`)} ${join(
    values.map(([k, n]) => sql`WHEN ${k} THEN CAST(${n} AS INTEGER)`),
    ' ',
  )} END`;
}
