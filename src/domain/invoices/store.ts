import { newId } from '../../db/ids.js';
import { portableStatementsOf } from '../../db/statements.js';
import type { Db, Invoice, Prisma, TxClient } from '../../db/types.js';
import { txNow } from '../clock.js';

// The invoices area's data access (issue 38): the statements Prisma does not say in one (rows
// made on first sight without a read-then-insert race, INSERT … ON CONFLICT DO NOTHING on both
// databases; the per-category sums of an invoice's charges; a period's charges claimed or
// released in one UPDATE), and the invoices, terms, profiles and charges read and written
// through Prisma's client. The rules (statuses, periods, totals) stay in the area's other files.

type Client = Db['prisma'] | TxClient;

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

/** Claims the merchant's free charges created in [from, to) for the invoice (one UPDATE); how many. */
export function claimCharges(
  tx: TxClient,
  inv: Pick<Invoice, 'id' | 'fulfiller_team_id' | 'merchant_team_id'>,
  from: Date,
  to: Date,
  now: Date,
) {
  return portableStatementsOf(tx).run(
    `UPDATE "charges" SET "invoice_id" = ?, "updated_at" = ?
      WHERE "fulfiller_team_id" = ? AND "merchant_team_id" = ? AND "invoice_id" IS NULL AND "created_at" >= ? AND "created_at" < ?`,
    [inv.id, now, inv.fulfiller_team_id, inv.merchant_team_id, from, to],
  );
}

/** Lets every charge of the invoice go (a void): they are free for the period's next invoice. */
export async function releaseCharges(tx: TxClient, invoiceId: string, now: Date) {
  await portableStatementsOf(tx).run(`UPDATE "charges" SET "invoice_id" = NULL, "updated_at" = ? WHERE "invoice_id" = ?`, [now, invoiceId]);
}

/** One page of invoices (pageArgs' window). */
export function findInvoicePage(client: Client, window: { where: Prisma.InvoiceWhereInput; orderBy: never; skip: number; take: number }) {
  return client.invoice.findMany(window);
}

/** The invoice within `scope` (the fulfiller's, or a merchant's without drafts). */
export function findScopedInvoice(client: Client, scope: Prisma.InvoiceWhereInput, id: string) {
  return client.invoice.findFirst({ where: { AND: [{ id }, scope] } });
}

/** An invoice the fulfiller team issued. */
export function findFulfillerInvoice(tx: TxClient, teamId: string, id: string) {
  return tx.invoice.findFirst({ where: { id, fulfiller_team_id: teamId } });
}

/** The live invoice of a delegation's period (its open_key), if any. */
export function findOpenInvoice(tx: TxClient, openKey: string) {
  return tx.invoice.findUnique({ where: { open_key: openKey } });
}

export function insertInvoice(tx: TxClient, data: Prisma.InvoiceUncheckedCreateInput) {
  return tx.invoice.create({ data });
}

export function updateInvoice(tx: TxClient, id: string, data: Prisma.InvoiceUncheckedUpdateInput) {
  return tx.invoice.update({ where: { id }, data });
}

/** Marks the invoice generated at `at` if it is still a DRAFT; how many rows changed (0 or 1). */
export function touchDraft(tx: TxClient, id: string, at: Date) {
  return tx.invoice.updateMany({ where: { id, status: 'DRAFT' }, data: { generated_at: at } });
}

/** Moves the invoice from status `from` to `to` if it still has `from`; how many rows changed (0 or 1). */
export function moveStatus(tx: TxClient, id: string, from: string, to: string) {
  return tx.invoice.updateMany({ where: { id, status: from }, data: { status: to } });
}

/** Every delegation, in id order (the period close walks them). */
export function findAllDelegations(client: Client) {
  return client.fulfillmentDelegation.findMany({ orderBy: { id: 'asc' } });
}

export function findDelegation(tx: TxClient, id: string) {
  return tx.fulfillmentDelegation.findUniqueOrThrow({ where: { id } });
}

/** The delegation between a merchant and a fulfiller team (the pair is unique). */
export function findDelegationBetween(tx: TxClient, merchantTeamId: string, fulfillerTeamId: string) {
  return tx.fulfillmentDelegation.findUnique({
    where: { merchant_team_id_fulfiller_team_id: { merchant_team_id: merchantTeamId, fulfiller_team_id: fulfillerTeamId } },
  });
}

/** A delegation of the fulfiller team, by id. */
export function findFulfillerDelegation(client: Client, teamId: string, id: string) {
  return client.fulfillmentDelegation.findFirst({ where: { id, fulfiller_team_id: teamId } });
}

export function updateTermsRow(tx: TxClient, delegationId: string, data: Prisma.InvoiceTermsUpdateInput) {
  return tx.invoiceTerms.update({ where: { fulfillment_delegation_id: delegationId }, data });
}

/** Sets where the period close starts, unless it has started already. */
export function startClosing(client: Client, termsId: string, start: string) {
  return client.invoiceTerms.updateMany({ where: { id: termsId, closed_through: null }, data: { closed_through: start } });
}

/** Moves the closed-through day from `from` to `to` if no one moved it; how many rows changed (0 or 1). */
export function moveClosedThrough(tx: TxClient, termsId: string, from: string, to: string) {
  return tx.invoiceTerms.updateMany({ where: { id: termsId, closed_through: from }, data: { closed_through: to } });
}

/** When the oldest charge of the merchant not on an invoice was made (null: none). */
export function findOldestFreeCharge(client: Client, fulfillerTeamId: string, merchantTeamId: string) {
  return client.charge.findFirst({
    where: { fulfiller_team_id: fulfillerTeamId, merchant_team_id: merchantTeamId, invoice_id: null },
    orderBy: { created_at: 'asc' },
    select: { created_at: true },
  });
}

/** A charge of the merchant made in [from, to) and not on an invoice, if any. */
export function findFreeChargeIn(tx: TxClient, fulfillerTeamId: string, merchantTeamId: string, from: Date, to: Date) {
  return tx.charge.findFirst({
    where: { fulfiller_team_id: fulfillerTeamId, merchant_team_id: merchantTeamId, invoice_id: null, created_at: { gte: from, lt: to } },
    select: { id: true },
  });
}

/** A page of the invoice's charges after `after` (id order), for its CSV. */
export function findInvoiceCharges(client: Client, invoiceId: string, after: string | undefined, take: number) {
  return client.charge.findMany({
    where: { invoice_id: invoiceId, ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: 'asc' },
    take,
  });
}

/** The invoice's charges a card priced by its billing key (the re-rate's), in id order. */
export function findKeyedCharges(tx: TxClient, invoiceId: string) {
  return tx.charge.findMany({ where: { invoice_id: invoiceId, billing_key: { not: null } }, orderBy: { id: 'asc' } });
}

export function updateCharge(tx: TxClient, id: string, data: Prisma.ChargeUncheckedUpdateInput) {
  return tx.charge.update({ where: { id }, data });
}

/** What an invoice's documents print of its parties: both teams' names, the issuer's profile, the terms. */
export function findParties(client: Client, inv: Invoice) {
  return Promise.all([
    client.team.findUnique({ where: { id: inv.fulfiller_team_id }, select: { name: true } }),
    client.team.findUnique({ where: { id: inv.merchant_team_id }, select: { name: true } }),
    client.billingProfile.findUnique({ where: { team_id: inv.fulfiller_team_id } }),
    client.invoiceTerms.findUnique({ where: { fulfillment_delegation_id: inv.fulfillment_delegation_id } }),
  ]);
}

export function findProfile(client: Client, teamId: string) {
  return client.billingProfile.findUnique({ where: { team_id: teamId } });
}

/** The profile of the team, made with `data` when it has none, else changed by it. */
export function upsertProfile(tx: TxClient, teamId: string, data: Omit<Prisma.BillingProfileUncheckedCreateInput, 'team_id'>) {
  return tx.billingProfile.upsert({ where: { team_id: teamId }, create: { team_id: teamId, ...data }, update: data });
}

export function findFile(client: Client, id: string) {
  return client.file.findUnique({ where: { id } });
}

/** A file of the team (a logo). */
export function findTeamFile(client: Client, teamId: string, id: string) {
  return client.file.findFirst({ where: { id, team_id: teamId } });
}
