import { newId } from '../../db/ids.js';
import type { Prisma, TxClient } from '../../db/types.js';
import { txNow } from '../clock.js';

// The invoices area's few statements that Prisma does not say in one: rows made on first sight
// without a read-then-insert race (INSERT … ON CONFLICT DO NOTHING, on both databases) and the
// per-category sums of an invoice's charges.

/** The delegation's terms row, made with the defaults if it does not exist yet; returns it. */
export async function ensureTerms(tx: TxClient, d: { id: string; fulfiller_team_id: string; merchant_team_id: string }) {
  const now = txNow(tx);
  await tx.$executeRawUnsafe(
    `INSERT INTO "invoice_terms" ("id", "fulfillment_delegation_id", "fulfiller_team_id", "merchant_team_id", "created_at", "updated_at")
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT ("fulfillment_delegation_id") DO NOTHING`,
    newId(),
    d.id,
    d.fulfiller_team_id,
    d.merchant_team_id,
    now,
    now,
  );
  return tx.invoiceTerms.findUniqueOrThrow({ where: { fulfillment_delegation_id: d.id } });
}

/**
 * The next invoice number of a fulfiller team, taken inside the finalize's transaction: the
 * counter row's UPDATE holds its lock until commit (PostgreSQL) or the write lock serializes it
 * (SQLite), and a rollback gives the number back, so finalized invoices are numbered without gaps.
 */
export async function takeNumber(tx: TxClient, teamId: string): Promise<number> {
  const now = txNow(tx);
  await tx.$executeRawUnsafe(
    `INSERT INTO "invoice_counters" ("team_id", "last_number", "updated_at") VALUES ($1, 0, $2) ON CONFLICT ("team_id") DO NOTHING`,
    teamId,
    now,
  );
  const row = await tx.invoiceCounter.update({ where: { team_id: teamId }, data: { last_number: { increment: 1 } } });
  return row.last_number;
}

export interface CategorySum {
  category: string;
  currency: string;
  quantity: number;
  amount: number;
  charge_count: number;
}

/** Sums of an invoice's charges per category and currency (one GROUP BY over the invoice_id index). */
export async function sumsOf(tx: TxClient | Prisma.TransactionClient, invoiceId: string): Promise<CategorySum[]> {
  const rows = await (tx as TxClient).charge.groupBy({
    by: ['category', 'currency'],
    where: { invoice_id: invoiceId },
    _sum: { quantity: true, calculated_amount: true },
    _count: { _all: true },
    orderBy: [{ category: 'asc' }, { currency: 'asc' }],
  });
  return rows.map((r) => ({
    category: r.category,
    currency: r.currency,
    quantity: r._sum.quantity ?? 0,
    amount: r._sum.calculated_amount ?? 0,
    charge_count: r._count._all,
  }));
}
