import { isUniqueViolation } from '../../db/client.js';
import { transaction } from '../../db/tx.js';
import type { Db, Prisma } from '../../db/types.js';
import { invalid, notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { isDay, type InvoicePeriod } from '../charges/index.js';
import {
  ensureTerms,
  findFulfillerDelegation,
  findInvoicePage,
  findProfile,
  findScopedInvoice,
  findTeamFile,
  updateTermsRow,
  upsertProfile,
} from './store.js';
import { presentInvoice, presentInvoices } from './views.js';

// Reading invoices (both families), and the settings they are made from: a delegation's terms
// and the issuing team's billing profile.

/** Whose invoices: the fulfiller's own (every status), or a merchant's (never a draft). */
export type InvoiceScope = { fulfillerTeamId: string } | { merchantTeamId: string };

const scopeWhere = (s: InvoiceScope): Prisma.InvoiceWhereInput =>
  'fulfillerTeamId' in s ? { fulfiller_team_id: s.fulfillerTeamId } : { merchant_team_id: s.merchantTeamId, status: { not: 'DRAFT' } };

export interface InvoiceListQuery extends PageRequest {
  status?: string;
  merchant_team_id?: string;
  period_from?: string;
  period_to?: string;
  order?: 'asc' | 'desc';
}

export async function listInvoices(db: Db, scope: InvoiceScope, q: InvoiceListQuery) {
  if (q.period_from && !isDay(q.period_from)) throw invalid('query.period_from', 'must be a date YYYY-MM-DD');
  if (q.period_to && !isDay(q.period_to)) throw invalid('query.period_to', 'must be a date YYYY-MM-DD');
  const where: Prisma.InvoiceWhereInput = { AND: [scopeWhere(scope)] };
  const and = where.AND as Prisma.InvoiceWhereInput[];
  if (q.status) and.push({ status: q.status });
  if (q.merchant_team_id) and.push({ merchant_team_id: q.merchant_team_id });
  // Invoices whose period overlaps [period_from, period_to].
  if (q.period_from) and.push({ period_end: { gte: q.period_from } });
  if (q.period_to) and.push({ period_start: { lte: q.period_to } });
  const dir = q.order ?? 'desc';
  const orderBy = [{ created_at: dir }, { id: dir }];
  const rows = await findInvoicePage(db.prisma, pageArgs(q, where, orderBy));
  return toPage(rows, q, undefined, orderBy);
}

export async function getInvoice(db: Db, scope: InvoiceScope, id: string) {
  const inv = await findScopedInvoice(db.prisma, scopeWhere(scope), id);
  if (!inv) throw notFound('Invoice', id);
  return inv;
}

/** A page of invoices as the API shows them (their teams named). */
export async function listInvoiceViews(db: Db, scope: InvoiceScope, q: InvoiceListQuery) {
  const page = await listInvoices(db, scope, q);
  return { data: await presentInvoices(db.prisma, page.data), meta: page.meta };
}

export const getInvoiceView = async (db: Db, scope: InvoiceScope, id: string) => presentInvoice(db.prisma, await getInvoice(db, scope, id));

export interface TermsInput {
  period?: InvoicePeriod;
  tax_rate?: number;
  tax_label?: string;
  payment_terms_days?: number;
  bill_to?: Record<string, string | null> | null;
}

async function delegationOf(db: Db, teamId: string, delegationId: string) {
  const d = await findFulfillerDelegation(db.prisma, teamId, delegationId);
  if (!d) throw notFound('Fulfillment delegation', delegationId);
  return d;
}

export async function getTerms(db: Db, teamId: string, delegationId: string) {
  const d = await delegationOf(db, teamId, delegationId);
  return transaction(db, (tx) => ensureTerms(tx, d));
}

/**
 * A changed period applies from the first day not yet closed: the close finishes the old
 * period's remainder as one invoice, then runs on the new period's boundaries.
 */
export async function updateTerms(db: Db, teamId: string, delegationId: string, input: TermsInput) {
  const d = await delegationOf(db, teamId, delegationId);
  return transaction(db, async (tx) => {
    await ensureTerms(tx, d);
    return updateTermsRow(tx, d.id, {
      ...(input.period !== undefined ? { period: input.period } : {}),
      ...(input.tax_rate !== undefined ? { tax_rate: input.tax_rate } : {}),
      ...(input.tax_label !== undefined ? { tax_label: input.tax_label } : {}),
      ...(input.payment_terms_days !== undefined ? { payment_terms_days: input.payment_terms_days } : {}),
      ...(input.bill_to !== undefined ? { bill_to: (input.bill_to ?? undefined) as Prisma.InputJsonValue | undefined } : {}),
    });
  });
}

export interface ProfileInput {
  legal_name?: string | null;
  address?: Record<string, string | null> | null;
  tax_id?: string | null;
  logo_file_id?: string | null;
  number_prefix?: string;
  footer?: string | null;
}

export async function getProfile(db: Db, teamId: string) {
  const p = await findProfile(db.prisma, teamId);
  return p ?? { team_id: teamId, legal_name: null, address: null, tax_id: null, logo_file_id: null, number_prefix: 'INV-', footer: null };
}

export async function updateProfile(db: Db, teamId: string, input: ProfileInput) {
  if (input.logo_file_id) {
    const file = await findTeamFile(db.prisma, teamId, input.logo_file_id);
    if (!file) throw notFound('File', input.logo_file_id);
    if (!['image/png', 'image/jpeg'].includes(file.mimetype)) throw invalid('body.logo_file_id', 'must be a PNG or JPEG file');
  }
  const data = {
    ...(input.legal_name !== undefined ? { legal_name: input.legal_name } : {}),
    ...(input.address !== undefined ? { address: (input.address ?? undefined) as Prisma.InputJsonValue | undefined } : {}),
    ...(input.tax_id !== undefined ? { tax_id: input.tax_id } : {}),
    ...(input.logo_file_id !== undefined ? { logo_file_id: input.logo_file_id } : {}),
    ...(input.number_prefix !== undefined ? { number_prefix: input.number_prefix } : {}),
    ...(input.footer !== undefined ? { footer: input.footer } : {}),
  };
  // Two first PATCHes racing: the loser's insert hits the primary key and its retry updates.
  return transaction(db, (tx) => upsertProfile(tx, teamId, data), { retryOn: isUniqueViolation });
}
