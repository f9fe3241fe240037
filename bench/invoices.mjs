// A month's invoice for a merchant with 100,000 charges (issue 40 item 6: <= 5 s): the draft
// generated on demand (claim + per-category sums + totals, one transaction), regenerated (its
// charges given back and claimed again), finalized, and its PDF and QuickBooks export rendered.
// SQLite in a temp file, and PostgreSQL in a fresh schema of FOS_BENCH_PG_URL when set.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './lib.mjs';

export const INVOICE_TARGET_MS = 5000;
const dist = (p) => import(path.join(ROOT, 'dist', p));

async function seed(db, merchantTeamId, fulfillerTeamId, n) {
  const sqlite = db.provider === 'sqlite';
  const id = sqlite ? `printf('00000000-0000-7000-8000-%012d', i)` : `'00000000-0000-7000-8000-' || lpad(i::text, 12, '0')`;
  // Spread over January: one every 26 s fills 30 days.
  const at = sqlite
    ? `strftime('%Y-%m-%dT%H:%M:%f+00:00', '2026-01-01', '+' || (i * 26) || ' seconds')`
    : `TIMESTAMP '2026-01-01' + i * INTERVAL '26 second'`;
  await db.prisma.$executeRawUnsafe(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})
     INSERT INTO "charges" ("id", "name", "category", "currency", "quantity", "calculated_amount", "original_amount",
       "merchant_team_id", "fulfiller_team_id", "created_at", "updated_at")
     SELECT ${id}, 'charge', CASE i % 4 WHEN 0 THEN 'SHIPPING' WHEN 1 THEN 'STORAGE' WHEN 2 THEN 'RECEIVING' ELSE 'SHIPPING' END, 'USD',
       1, 1.25, 1.25, '${merchantTeamId}', '${fulfillerTeamId}', ${at}, ${at} FROM n`,
  );
  if (sqlite) await db.prisma.$queryRawUnsafe('PRAGMA wal_checkpoint(TRUNCATE)');
}

async function runOn(url, charges) {
  const [{ migrate }, { createDb }, { bootstrapIfEmpty }, teams, gen, life, docs] = await Promise.all([
    dist('db/migrate.js'),
    dist('db/client.js'),
    dist('domain/bootstrap.js'),
    dist('domain/teams/teams.js'),
    dist('domain/invoices/generate.js'),
    dist('domain/invoices/lifecycle.js'),
    dist('domain/invoices/documents.js'),
  ]);
  await migrate(url);
  const db = await createDb(url);
  try {
    const boot = await bootstrapIfEmpty(db);
    const merchant = await teams.createTeam(db, { name: 'Bench merchant', kind: 'MERCHANT', measurement_system: 'METRIC' });
    await teams.createDelegation(db, { merchant_team_id: merchant.id, fulfiller_team_id: boot.teamId });
    await seed(db, merchant.id, boot.teamId, charges);
    const period = { merchant_team_id: merchant.id, period_start: '2026-01-01', period_end: '2026-01-31' };
    let t0 = performance.now();
    const { invoice } = await gen.generateInvoice(db, boot.teamId, period);
    const generateMs = performance.now() - t0;
    if (invoice.charge_count !== charges) throw new Error(`invoice bills ${invoice.charge_count} charges, not ${charges}`);
    t0 = performance.now();
    await gen.regenerateInvoice(db, boot.teamId, invoice.id);
    const regenerateMs = performance.now() - t0;
    t0 = performance.now();
    const finalized = await life.finalizeInvoice(db, boot.teamId, invoice.id, new Date());
    const finalizeMs = performance.now() - t0;
    t0 = performance.now();
    await docs.invoicePdf(db, finalized);
    await docs.accountingCsv(db, finalized, 'quickbooks');
    const documentsMs = performance.now() - t0;
    return { provider: db.provider, charges, generateMs, regenerateMs, finalizeMs, documentsMs };
  } finally {
    await db.close();
  }
}

export async function invoiceBench({ charges = 100_000, pgUrl = process.env.FOS_BENCH_PG_URL } = {}) {
  const out = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'fos-bench-invoices-'));
  try {
    out.push(await runOn(`file:${path.join(dir, 'fos.db')}`, charges));
    if (pgUrl) {
      const schema = `bench_invoices_${randomUUID().slice(0, 8)}`;
      try {
        out.push(await runOn(`${pgUrl}${pgUrl.includes('?') ? '&' : '?'}schema=${schema}`, charges));
      } finally {
        const { default: pg } = await import('pg');
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await c.end();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return out;
}
