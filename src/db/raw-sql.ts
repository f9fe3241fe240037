import { join, sqltag as sql, type Sql } from '@prisma/client/runtime/client';

/**
 * `CASE "id" WHEN $1 THEN $2 … END`: a number per row id, for one UPDATE that moves several rows
 * each by its own amount (the fulfil's decrements, inventory levels). Ids not listed give NULL,
 * so the UPDATE's WHERE must keep to the listed ids. The cast types the values on PostgreSQL.
 */
export function integerById(values: ReadonlyArray<readonly [id: string, n: number]>): Sql {
  return sql`CASE "id" ${join(values.map(([id, n]) => sql`WHEN ${id} THEN CAST(${n} AS INTEGER)`), ' ')} END`;
}
