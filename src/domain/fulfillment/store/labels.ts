import { readsOf } from '../../../db/reads.js';
import type { Statements } from '../../../db/statements.js';
import type { Db, Package, ShippingLabel } from '../../../db/types.js';
import { insertRows } from './common.js';

// The label's statements (label-attach.ts): the package's compare-and-set and the label row; and
// the package read that rating a label starts with (labels.ts).

export interface LabelClaim {
  id: string;
  teamId: string;
  /** Only a package never labelled (carrier_id null: no label row to replace). */
  fresh: boolean;
  /** Refused while the package's order has an active hold (not for a label a platform already sold). */
  notHeld: boolean;
  /** The package's label columns (carrier, service, integration, deliver_by). */
  set: Record<string, unknown>;
  now: Date;
}

/**
 * PENDING and not labelled -> labelled (shipment_status LABEL_PRINTED, rate error cleared),
 * returned whole; null when nothing matched. The hold condition reads the order through the
 * package's fulfillment order, as the Prisma relation filter did.
 */
export async function claimPackageForLabel(st: Statements, c: LabelClaim): Promise<Package | null> {
  const cols = Object.keys(c.set);
  const [row] = await st.all<Package>(
    `UPDATE "packages" SET "shipment_status" = 'LABEL_PRINTED', ${cols.map((k) => `"${k}" = ?`).join(', ')},
      "rate_error_data" = NULL, "error_message" = NULL, "updated_at" = ?
    WHERE "id" = ? AND "fulfiller_team_id" = ? AND "status" = 'PENDING' AND "shipment_status" IS NULL${c.fresh ? ' AND "carrier_id" IS NULL' : ''}${
      c.notHeld
        ? ` AND EXISTS (SELECT 1 FROM "fulfillment_orders" fo WHERE fo."id" = "packages"."fulfillment_order_id"
        AND NOT EXISTS (SELECT 1 FROM "order_fulfillment_holds" h WHERE h."order_id" = fo."order_id" AND h."active" = ?))`
        : ''
    }
    RETURNING *`,
    [...cols.map((k) => c.set[k]), c.now, c.id, c.teamId, ...(c.notHeld ? [true] : [])],
  );
  return row ?? null;
}

/** The label row, returned whole. */
export async function insertLabel(st: Statements, label: Record<string, unknown>, now: Date): Promise<ShippingLabel> {
  const [row] = await insertRows<ShippingLabel>(st, 'shipping_labels', [label], now);
  return row;
}

/** What rating a package reads of it (labels.ts), and the purchase still open for it, if any. */
export interface PackageToRate {
  id: string;
  status: string;
  shipment_status: string | null;
  rate_strategy: string | null;
  rate_within_days: number | null;
  rate_exclude_carrier_ids: unknown;
  label_format: string | null;
  warehouse_id: string | null;
  from_address: unknown;
  to_address: unknown;
  config: unknown;
  weight: number | null;
  weight_unit: string | null;
  length: number | null;
  width: number | null;
  height: number | null;
  measurement_unit: string | null;
  open_purchase_id: string | null;
}

const TO_RATE = `SELECT p."id", p."status", p."shipment_status", p."rate_strategy", p."rate_within_days", p."rate_exclude_carrier_ids",
    p."label_format", p."warehouse_id",     p."from_address", p."to_address", p."config", p."weight", p."weight_unit", p."length", p."width", p."height",
    p."measurement_unit", lp."id" AS "open_purchase_id"
  FROM "packages" p LEFT JOIN "label_purchases" lp ON lp."active_package_id" = p."id"
  WHERE p."id" = ? AND p."fulfiller_team_id" = ?`;

/** The package to rate (a read outside any transaction, src/db/reads.ts); null when the team has none by that id. */
export async function packageToRate(db: Db, teamId: string, id: string): Promise<PackageToRate | null> {
  const r = readsOf(db);
  const [row] = await r.all<PackageToRate>(TO_RATE, [id, teamId]);
  if (!row) return null;
  for (const c of ['from_address', 'to_address', 'config', 'rate_exclude_carrier_ids'] as const)
    row[c] = typeof row[c] === 'string' ? r.dialect.json(row[c]) : (row[c] ?? null);
  return row;
}
