import { newId } from '../../../db/ids.js';
import type { Statements } from '../../../db/statements.js';
import type { StorageRun, StorageSnapshot } from '../../../db/types.js';

// Daily storage's statements (docs/billing.md "Storage"). The snapshot of a warehouse's day is
// ONE INSERT … SELECT: every bin's stock at the end of the day (today's on hand less the ledger's
// movements since the cutoff), summed per merchant and location type in the database, so 100,000
// occupied locations cost one statement, not 100,000 rows in the server.

/** A new row's id in SQL: PostgreSQL's UUID, or the same form from SQLite's random bytes. */
function idExpr(st: Statements): string {
  if (st.dialect.provider === 'postgresql') return 'CAST(gen_random_uuid() AS TEXT)';
  return `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
}

/** Typed parameters where PostgreSQL cannot infer them (a SELECT list); SQLite takes them as they are. */
const typed = (st: Statements, sqlType: string) => (st.dialect.provider === 'postgresql' ? `CAST(? AS ${sqlType})` : '?');

export interface RunInput {
  team_id: string;
  warehouse_id: string;
  date: string;
  time_zone: string;
  cutoff_at: Date;
  source: 'SCHEDULE' | 'API';
}

/**
 * Claims the warehouse's day: the run row, or null when it exists (another replica, an earlier
 * run). ON CONFLICT DO NOTHING waits for a racing insert to commit, then does nothing.
 */
export async function claimRun(st: Statements, run: RunInput, now: Date): Promise<string | null> {
  const id = newId();
  const made = await st.run(
    `INSERT INTO "storage_runs" ("id", "team_id", "warehouse_id", "date", "time_zone", "cutoff_at", "source", "created_at")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("warehouse_id", "date") DO NOTHING`,
    [id, run.team_id, run.warehouse_id, run.date, run.time_zone, run.cutoff_at, run.source, now],
  );
  return made === 1 ? id : null;
}

/** Each merchant's occupied locations and units per location type at `cutoff`, inserted as the run's snapshots. */
export async function insertSnapshots(st: Statements, runId: string, run: RunInput, now: Date): Promise<StorageSnapshot[]> {
  const text = typed(st, 'TEXT');
  const rows = await st.all<StorageSnapshot>(
    `INSERT INTO "storage_snapshots"
       ("id", "team_id", "warehouse_id", "merchant_team_id", "date", "location_type_id", "locations", "units", "run_id", "created_at")
     SELECT ${idExpr(st)}, ${text}, ${text}, s."merchant_team_id", ${text}, s."location_type_id",
            COUNT(DISTINCT s."location_id"), SUM(s."units"), ${text}, ${typed(st, 'TIMESTAMP(3)')}
       FROM (SELECT p."merchant_team_id" AS "merchant_team_id", COALESCE(l."location_type_id", '') AS "location_type_id",
                    ls."location_id" AS "location_id", ls."on_hand" - COALESCE(m."since", 0) AS "units"
               FROM "location_stock" ls
               JOIN "products" p ON p."id" = ls."product_id"
               JOIN "locations" l ON l."id" = ls."location_id"
               LEFT JOIN (SELECT "location_stock_id" AS "id", SUM("delta") AS "since" FROM "inventory_movements"
                           WHERE "warehouse_id" = ? AND "location_stock_id" IS NOT NULL AND "created_at" >= ?
                           GROUP BY "location_stock_id") m ON m."id" = ls."id"
              WHERE ls."warehouse_id" = ? AND p."merchant_team_id" IS NOT NULL) s
      WHERE s."units" > 0
      GROUP BY s."merchant_team_id", s."location_type_id"
     ON CONFLICT ("warehouse_id", "merchant_team_id", "date", "location_type_id") DO NOTHING
     RETURNING *`,
    [run.team_id, run.warehouse_id, run.date, runId, now, run.warehouse_id, run.cutoff_at, run.warehouse_id],
  );
  return rows.map((r) => ({ ...r, locations: Number(r.locations), units: Number(r.units), created_at: st.dialect.date(r.created_at) }));
}

/** Links a snapshot to its STORAGE charge (charge_id is unique: one charge per snapshot). */
export async function linkCharge(st: Statements, snapshotId: string, chargeId: string): Promise<void> {
  await st.run(`UPDATE "storage_snapshots" SET "charge_id" = ? WHERE "id" = ? AND "charge_id" IS NULL`, [chargeId, snapshotId]);
}

export async function recordCounts(st: Statements, runId: string, snapshots: number, charges: number): Promise<void> {
  await st.run(`UPDATE "storage_runs" SET "snapshot_count" = ?, "charge_count" = ? WHERE "id" = ?`, [snapshots, charges, runId]);
}

export type { StorageRun };
