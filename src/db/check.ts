import { openReader, type DbReader } from './db-reader.js';
import { planMigrations } from './migrate-plan.js';

// `fos db check`: whether a database (a restored backup, an upgraded one, a suspect one) holds
// what fos promises, read-only, on SQLite and PostgreSQL:
//  - migrations: every migration of this build applied, none failed, none from a newer fos
//    (the last refuses with DatabaseNewer, like a start does);
//  - the ledger: every inventory level equals, bucket by bucket, the sum of its movements, and
//    no movements exist for a level that does not; every bin's stock (location_stock) equals
//    the sum of the on_hand movements naming it;
//  - charges: no fulfillment billed twice in a category, and the order, fulfillment and shipping
//    label a charge names exist. (A charge names one invoice in one column, so it cannot sit on
//    two; fos has no invoice table to check invoice_id against.)
//  - SQLite: PRAGMA integrity_check and foreign_key_check.
// Each check reports at most SAMPLE offending rows and their total count.

export interface CheckResult {
  name: string;
  ok: boolean;
  /** Offending rows (or migrations) in all. */
  count: number;
  /** The first few of them. */
  sample: unknown[];
}

export interface CheckReport {
  provider: string;
  ok: boolean;
  checks: CheckResult[];
}

const SAMPLE = 5;
const BUCKETS = ['on_hand', 'committed', 'unavailable', 'on_order'] as const;

/** Every level's bucket with the sum of its movements, where they differ. */
const levelBuckets = BUCKETS.map(
  (b) => `SELECT l."product_id", l."warehouse_id", '${b}' AS bucket, l."${b}" AS level FROM "inventory_levels" l`,
).join(' UNION ALL ');
const movementSums = `SELECT "product_id", "warehouse_id", CAST("bucket" AS TEXT) AS bucket, SUM("delta") AS total
  FROM "inventory_movements" GROUP BY "product_id", "warehouse_id", CAST("bucket" AS TEXT)`;

const LEDGER_SQL: Record<string, string> = {
  'ledger: every level equals the sum of its movements per bucket': `SELECT b.product_id, b.warehouse_id, b.bucket, b.level, COALESCE(m.total, 0) AS movements
    FROM (${levelBuckets}) b LEFT JOIN (${movementSums}) m
      ON m."product_id" = b."product_id" AND m."warehouse_id" = b."warehouse_id" AND m.bucket = b.bucket
    WHERE b.level <> COALESCE(m.total, 0)`,
  'ledger: no movements without their level': `SELECT m."product_id", m."warehouse_id", m.bucket, m.total AS movements FROM (${movementSums}) m
    WHERE m.total <> 0 AND NOT EXISTS (SELECT 1 FROM "inventory_levels" l
      WHERE l."product_id" = m."product_id" AND l."warehouse_id" = m."warehouse_id")`,
  "ledger: every bin's stock equals the sum of its on_hand movements": `SELECT s."id", s."product_id", s."location_id", s."lot_code", s."on_hand", COALESCE(m.total, 0) AS movements
    FROM "location_stock" s LEFT JOIN (SELECT "location_stock_id", SUM("delta") AS total FROM "inventory_movements"
      WHERE "location_stock_id" IS NOT NULL AND CAST("bucket" AS TEXT) = 'on_hand' GROUP BY "location_stock_id") m
      ON m."location_stock_id" = s."id"
    WHERE s."on_hand" <> COALESCE(m.total, 0)`,
  'charges: no fulfillment billed twice in a category': `SELECT "fulfillment_id", "category", COUNT(*) AS charges FROM "charges"
    WHERE "fulfillment_id" IS NOT NULL GROUP BY "fulfillment_id", "category" HAVING COUNT(*) > 1`,
  'charges: the order, fulfillment and label a charge names exist': `SELECT c."id", c."order_id", c."fulfillment_id", c."shipping_label_id" FROM "charges" c
    WHERE (c."order_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "orders" o WHERE o."id" = c."order_id"))
       OR (c."fulfillment_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "fulfillments" f WHERE f."id" = c."fulfillment_id"))
       OR (c."shipping_label_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "shipping_labels" s WHERE s."id" = c."shipping_label_id"))`,
};

const COUNTS = new Set(['level', 'movements', 'charges', 'on_hand']);
/** Counts as JSON numbers (PostgreSQL's SUM and COUNT arrive as strings, SQLite's as BigInt when large). */
const plain = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' || (COUNTS.has(k) && typeof v === 'string') ? Number(v) : v]),
  );

async function rowsCheck(reader: DbReader, name: string, sql: string): Promise<CheckResult> {
  const rows = (await reader.all<Record<string, unknown>>(sql)).map(plain);
  return { name, ok: rows.length === 0, count: rows.length, sample: rows.slice(0, SAMPLE) };
}

async function migrationsCheck(url: string): Promise<CheckResult> {
  const plan = await planMigrations(url); // throws DatabaseNewer for a newer fos's database
  const names = plan.pending.map((m) => m.name);
  return {
    name: 'migrations: every migration of this fos applied',
    ok: !names.length,
    count: names.length,
    sample: names.slice(0, SAMPLE),
  };
}

async function sqliteChecks(reader: DbReader): Promise<CheckResult[]> {
  const integrity = (await reader.all<{ integrity_check: string }>('PRAGMA integrity_check')).map((r) => r.integrity_check);
  const bad = integrity.filter((line) => line !== 'ok');
  const keys = await reader.all<Record<string, unknown>>('PRAGMA foreign_key_check');
  return [
    { name: 'sqlite: integrity_check', ok: !bad.length, count: bad.length, sample: bad.slice(0, SAMPLE) },
    { name: 'sqlite: foreign_key_check', ok: !keys.length, count: keys.length, sample: keys.slice(0, SAMPLE).map(plain) },
  ];
}

/** Runs every check on the database at `url`. The migrations are checked first: the rest needs the current schema. */
export async function checkDatabase(url: string): Promise<CheckReport> {
  const migrations = await migrationsCheck(url);
  const reader = await openReader(url);
  try {
    const checks = [migrations];
    if (reader.target.provider === 'sqlite') checks.push(...(await sqliteChecks(reader)));
    if (migrations.ok) for (const [name, sql] of Object.entries(LEDGER_SQL)) checks.push(await rowsCheck(reader, name, sql));
    return { provider: reader.target.provider, ok: checks.every((c) => c.ok), checks };
  } finally {
    await reader.close();
  }
}
