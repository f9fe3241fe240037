import type { MigrationConnection } from './migrate-lock.js';

// Checks the migration runner (migrate.ts) makes before applying certain migrations. A SQL script
// alone cannot refuse with a readable message on both databases (SQLite has no RAISE outside
// triggers, and a failing CREATE UNIQUE INDEX names the index, not the rows), so a migration that
// depends on the data being clean has a check here: when it finds rows in the way, the runner
// refuses before recording anything (no failed row in _prisma_migrations: fix the data and start
// again) with one line saying what is in the way and how to resolve it.

/** A migration the data does not allow yet: its message is one line, for an operator. */
export class MigrationRefused extends Error {
  constructor(
    readonly migration: string,
    message: string,
  ) {
    super(message);
    this.name = 'MigrationRefused';
  }
}

interface DuplicateSku {
  team_id: string;
  id: string;
  sku: string;
}

/** Migration 20261125044800: the unique index on (team_id, lower(sku)) needs no duplicates. */
async function skuDuplicates(conn: MigrationConnection): Promise<string | null> {
  const rows = await conn.all<DuplicateSku>(`SELECT p."team_id", p."id", p."sku" FROM "products" p
    WHERE p."sku" IS NOT NULL AND EXISTS (SELECT 1 FROM "products" q
      WHERE q."team_id" = p."team_id" AND q."sku" IS NOT NULL AND lower(q."sku") = lower(p."sku") AND q."id" <> p."id")
    ORDER BY p."team_id", lower(p."sku"), p."id"`);
  if (!rows.length) return null;
  const groups = new Map<string, DuplicateSku[]>();
  for (const r of rows) {
    const key = `${r.team_id}\u0000${r.sku.toLowerCase()}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const shown = [...groups.values()]
    .slice(0, 5)
    .map((g) => `team ${g[0].team_id}: ${g.map((r) => `${JSON.stringify(r.sku)} (${r.id})`).join(', ')}`);
  const more = groups.size > 5 ? `; and ${groups.size - 5} more group(s)` : '';
  return (
    `${groups.size} SKU(s) are used by more than one product of a team, ignoring case — ${shown.join('; ')}${more}. ` +
    'SKUs must be unique per team: run `fos admin products dedupe` to list them and `fos admin products dedupe --merge` to merge them, then start again'
  );
}

const CHECKS: Record<string, (conn: MigrationConnection) => Promise<string | null>> = {
  '20261125044800_products_sku_unique_per_team': skuDuplicates,
};

/** Throws MigrationRefused when the data does not allow `migration` yet. */
export async function checkBeforeApplying(conn: MigrationConnection, migration: string): Promise<void> {
  const problem = await CHECKS[migration]?.(conn);
  if (problem) throw new MigrationRefused(migration, `migration ${migration} refused: ${problem}`);
}
