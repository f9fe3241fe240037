import type { Db, Prisma } from '../../db/types.js';
import { invalid, notFound } from '../errors.js';
import { pageArgs, toPage, type PageRequest } from '../pagination.js';
import { dayStart, isDay, periodEndsAt } from './periods.js';
import { findChargePage, findMerchantCharge } from './store/charges.js';

// The charge list filters billing adds (both families): a period of whole UTC days and the
// invoice a charge is on (or `none`: not invoiced yet).

export interface ChargeBillingFilters {
  period_start?: string;
  period_end?: string;
  invoice_id?: string;
}

export function chargeBillingWhere(q: ChargeBillingFilters): Prisma.ChargeWhereInput {
  if (q.period_start && !isDay(q.period_start)) throw invalid('query.period_start', 'must be a date YYYY-MM-DD');
  if (q.period_end && !isDay(q.period_end)) throw invalid('query.period_end', 'must be a date YYYY-MM-DD');
  const where: Prisma.ChargeWhereInput = {};
  if (q.period_start || q.period_end) {
    where.created_at = {
      ...(q.period_start ? { gte: dayStart(q.period_start) } : {}),
      ...(q.period_end ? { lt: periodEndsAt({ start: q.period_end, end: q.period_end }) } : {}),
    };
  }
  if (q.invoice_id) where.invoice_id = q.invoice_id === 'none' ? null : q.invoice_id;
  return where;
}

export interface MerchantChargeQuery extends PageRequest, ChargeBillingFilters {
  category?: string;
  order?: 'asc' | 'desc';
}

/** GET /v1/merchant/charges: the charges billed to the merchant team, by any fulfiller. */
export async function listMerchantCharges(db: Db, merchantTeamId: string, q: MerchantChargeQuery) {
  const where: Prisma.ChargeWhereInput = { merchant_team_id: merchantTeamId, ...chargeBillingWhere(q) };
  if (q.category) where.category = q.category;
  const dir = q.order ?? 'desc';
  const orderBy = [{ created_at: dir }, { id: dir }];
  const rows = await findChargePage(db.prisma, pageArgs(q, where, orderBy));
  return toPage(rows, q, undefined, orderBy);
}

export async function getMerchantCharge(db: Db, merchantTeamId: string, id: string) {
  const charge = await findMerchantCharge(db.prisma, merchantTeamId, id);
  if (!charge) throw notFound('Charge', id);
  return charge;
}
