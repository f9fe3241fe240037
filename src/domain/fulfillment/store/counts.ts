import type { Db } from '../../../db/types.js';

// How many fulfillment orders a team has, per warehouse and status, from the counts that the
// triggers of migration fulfillment_order_counts keep: the list's `total` without a COUNT over
// every fulfillment order of the team. On SQLite the triggers update the counts themselves; on
// PostgreSQL they append deltas, which a reader adds in the same statement and each server folds
// into the counts every few seconds (foldFulfillmentOrderCounts).

export interface CountFilter {
  status?: string[];
  warehouse_id?: string;
}

/** The number of the team's fulfillment orders matching the filter, exact at the reader's snapshot. */
export async function countFulfillmentOrders(db: Db, teamId: string, filter: CountFilter): Promise<number> {
  const params: unknown[] = [teamId];
  const p = (v: unknown) => {
    params.push(v);
    return db.provider === 'sqlite' ? '?' : `$${params.length}`;
  };
  // Each placeholder is numbered once; the delta branch reuses the same numbers on PostgreSQL.
  let where = `"fulfiller_team_id" = ${db.provider === 'sqlite' ? '?' : '$1'}`;
  if (filter.warehouse_id) where += ` AND "warehouse_id" = ${p(filter.warehouse_id)}`;
  if (filter.status) where += ` AND "status" IN (${filter.status.map(p).join(', ')})`;
  const sql =
    db.provider === 'sqlite'
      ? `SELECT COALESCE(SUM("n"), 0) AS n FROM "fulfillment_order_counts" WHERE ${where}`
      : `SELECT COALESCE(SUM(n), 0)::bigint AS n FROM (SELECT "n" FROM "fulfillment_order_counts" WHERE ${where}
       UNION ALL SELECT "n" FROM "fulfillment_order_count_deltas" WHERE ${where}) AS c`;
  const rows = await db.prisma.$queryRawUnsafe<{ n: number | bigint }[]>(sql, ...params);
  return Number(rows[0]?.n ?? 0);
}

const FOLD = `
    WITH d AS (DELETE FROM "fulfillment_order_count_deltas" RETURNING "fulfiller_team_id", "warehouse_id", "status", "n"),
    s AS (SELECT "fulfiller_team_id", "warehouse_id", "status", SUM("n") AS n, COUNT(*) AS rows FROM d GROUP BY 1, 2, 3),
    u AS (
      INSERT INTO "fulfillment_order_counts" ("fulfiller_team_id", "warehouse_id", "status", "n")
      SELECT "fulfiller_team_id", "warehouse_id", "status", n FROM s
      ON CONFLICT ("fulfiller_team_id", "warehouse_id", "status")
      DO UPDATE SET "n" = "fulfillment_order_counts"."n" + EXCLUDED."n"
    )
    SELECT COALESCE(SUM(rows), 0)::bigint AS folded FROM s`;

/**
 * PostgreSQL: moves the pending deltas into the counts in one statement, so a reader sees them
 * either all as deltas or all as counts. Rows a concurrent fold already took are skipped; deltas
 * of uncommitted transactions wait for the next fold. Returns how many deltas it folded. On the raw
 * pool (Db#pgQuery, as readsOf reads), not through Prisma's client: every replica runs it every
 * few seconds.
 */
export async function foldFulfillmentOrderCounts(db: Db): Promise<number> {
  if (db.provider !== 'postgresql') return 0;
  type Folded = { folded: number | bigint };
  const rows = db.pgQuery ? await db.pgQuery<Folded>(FOLD, []) : await db.prisma.$queryRawUnsafe<Folded[]>(FOLD);
  return Number(rows[0]?.folded ?? 0);
}
