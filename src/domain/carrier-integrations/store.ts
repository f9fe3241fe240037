import { readsOf } from '../../db/reads.js';
import type { CarrierIntegration, CarrierRate, Db } from '../../db/types.js';

// The reads a label's rating makes (fulfillment/labels.ts, CHEAPEST / FASTEST): the team's
// integrations and its rate table, as hand-written reads on the prepared-statement path
// (src/db/reads.ts) rather than Prisma's client (issue 36: a rated label's reads and their garbage
// were a millisecond of the fulfillment's server CPU). Rows are typed here as Prisma types them.

const json = (db: Db, v: unknown) => (typeof v === 'string' ? readsOf(db).dialect.json(v) : (v ?? null));
const bool = (v: unknown) => v === true || v === 1 || v === 1n;
/** A DateTime column: SQLite's ISO text or PostgreSQL's Date. */
const date = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(v as string));

/** The team's carrier integrations, oldest first (every column). */
export async function teamIntegrations(db: Db, teamId: string): Promise<CarrierIntegration[]> {
  const rows = await readsOf(db).all<Record<string, unknown>>(
    `SELECT * FROM "carrier_integrations" WHERE "team_id" = ? ORDER BY "created_at", "id"`,
    [teamId],
  );
  return rows.map(
    (r) =>
      ({
        ...r,
        warehouse_ids: json(db, r.warehouse_ids),
        enabled_carriers: json(db, r.enabled_carriers),
        has_webhook_secret: bool(r.has_webhook_secret),
        enabled: bool(r.enabled),
        is_test: bool(r.is_test),
        disabled_at: date(r.disabled_at),
        created_at: date(r.created_at),
        updated_at: date(r.updated_at),
      }) as CarrierIntegration,
  );
}

/** The team's rate table (the built-in table carrier's rows), cheapest first. */
export async function teamCarrierRates(db: Db, teamId: string): Promise<CarrierRate[]> {
  const rows = await readsOf(db).all<Record<string, unknown>>(`SELECT * FROM "carrier_rates" WHERE "team_id" = ? ORDER BY "amount", "id"`, [
    teamId,
  ]);
  return rows.map(
    (r) =>
      ({
        ...r,
        countries: json(db, r.countries),
        delivery_date_guaranteed: bool(r.delivery_date_guaranteed),
        created_at: date(r.created_at),
        updated_at: date(r.updated_at),
      }) as CarrierRate,
  );
}
