import { isUniqueViolation } from '../../db/client.js';
import { transaction } from '../../db/tx.js';
import type { Db, Invoice, InvoiceTerms, Prisma, TxClient } from '../../db/types.js';
import { txNow, txStamps } from '../clock.js';
import { conflict, invalid, notFound } from '../errors.js';
import { enqueueEvent } from '../events/index.js';
import {
  addDays,
  day,
  dayStart,
  isDay,
  nextPeriodFrom,
  periodEndsAt,
  periodOf,
  type InvoicePeriod,
  type Period,
} from '../charges/index.js';
import {
  claimCharges,
  ensureTerms,
  findAllDelegations,
  findDelegation,
  findDelegationBetween,
  findFreeChargeIn,
  findFulfillerInvoice,
  findOldestFreeCharge,
  findOpenInvoice,
  insertInvoice,
  moveClosedThrough,
  startClosing,
  sumsOf,
  touchDraft,
  updateInvoice,
} from './store.js';
import { invoicePayload, teamNamesOf } from './views.js';

// Drafts (docs/invoices.md): a merchant's unbilled charges of one period claimed by one invoice.
// The claim is one UPDATE … WHERE invoice_id IS NULL inside the invoice's transaction: a charge
// is on at most one invoice, whoever races, and a crash before commit leaves every charge free.

interface DelegationRow {
  id: string;
  fulfiller_team_id: string;
  merchant_team_id: string;
}

/** Test seam: runs inside the generating transaction after the claim (a crash there must roll everything back). */
export const generationHooks: { afterClaim?: (invoiceId: string) => void | Promise<void> } = {};

const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;
const openKey = (delegationId: string, p: Period) => `${delegationId}|${p.start}|${p.end}`;

export const CATEGORY_LABELS: Record<string, string> = {
  STORAGE: 'Storage',
  RECEIVING: 'Receiving',
  SHIPPING: 'Shipping',
  PICK: 'Pick fees',
  PACK: 'Pack fees',
  PACKAGING: 'Packaging',
  RETURNS: 'Returns processing',
  KITTING: 'Kitting',
  AD_HOC: 'Special projects',
};
export const categoryLabel = (c: string) => CATEGORY_LABELS[c] ?? c.charAt(0) + c.slice(1).toLowerCase().replaceAll('_', ' ');

/** Claims the merchant's free charges of the period for the invoice (one UPDATE); returns how many. */
function claim(tx: TxClient, inv: Pick<Invoice, 'id' | 'fulfiller_team_id' | 'merchant_team_id' | 'period_start' | 'period_end'>) {
  const period = { start: inv.period_start, end: inv.period_end };
  return claimCharges(tx, inv, dayStart(inv.period_start), periodEndsAt(period), txNow(tx));
}

/** Lines (one per category), subtotal, tax and total from the invoice's charges and the terms' tax. */
async function totals(tx: TxClient, invoiceId: string, terms: Pick<InvoiceTerms, 'tax_rate' | 'tax_label'>) {
  const sums = await sumsOf(tx, invoiceId);
  const currencies = [...new Set(sums.map((s) => s.currency))];
  if (currencies.length > 1)
    throw conflict(`The period's charges are in several currencies (${currencies.join(', ')}); an invoice has one.`);
  const lines = sums.map((s) => ({
    category: s.category,
    description: categoryLabel(s.category),
    quantity: round2(s.quantity),
    charge_count: s.charge_count,
    amount: round2(s.amount),
  }));
  const subtotal = round2(lines.reduce((a, l) => a + l.amount, 0));
  const tax_amount = round2((subtotal * terms.tax_rate) / 100);
  return {
    ...(currencies[0] ? { currency: currencies[0] } : {}),
    lines: lines as unknown as Prisma.InputJsonValue,
    subtotal,
    tax_rate: terms.tax_rate,
    tax_label: terms.tax_label,
    tax_amount,
    total: round2(subtotal + tax_amount),
    charge_count: sums.reduce((a, s) => a + s.charge_count, 0),
  };
}

async function fill(tx: TxClient, inv: Invoice, terms: InvoiceTerms): Promise<Invoice> {
  await claim(tx, inv);
  await generationHooks.afterClaim?.(inv.id);
  return updateInvoice(tx, inv.id, { ...(await totals(tx, inv.id, terms)), generated_at: txNow(tx) });
}

/**
 * The draft of the delegation's period, inside the caller's transaction: made and filled, or,
 * when a DRAFT of that period is live, regenerated; a live FINALIZED/SENT/PAID one is a 409.
 */
async function generateInTx(tx: TxClient, d: DelegationRow, p: Period, kind: string, source: 'SCHEDULE' | 'API') {
  const terms = await ensureTerms(tx, d);
  const key = openKey(d.id, p);
  const live = await findOpenInvoice(tx, key);
  if (live) {
    if (live.status !== 'DRAFT')
      throw conflict(`Invoice ${live.number ?? live.id} (${live.status}) already bills this period; void it first.`);
    return { invoice: await regenerateInTx(tx, live, terms), created: false };
  }
  const inv = await insertInvoice(tx, {
    fulfiller_team_id: d.fulfiller_team_id,
    merchant_team_id: d.merchant_team_id,
    fulfillment_delegation_id: d.id,
    period_kind: kind,
    period_start: p.start,
    period_end: p.end,
    lines: [],
    source,
    open_key: key,
    generated_at: txNow(tx),
    ...txStamps(tx),
  });
  const filled = await fill(tx, inv, terms);
  await enqueueEvent(tx, filled.fulfiller_team_id, 'invoice.created', invoicePayload(filled, await teamNamesOf(tx, [filled])));
  return { invoice: filled, created: true };
}

async function regenerateInTx(tx: TxClient, inv: Invoice, terms: InvoiceTerms) {
  // Compare-and-set: only a DRAFT gives its charges back and claims again.
  const { count } = await touchDraft(tx, inv.id, txNow(tx));
  if (count !== 1) throw conflict(`Invoice ${inv.id} is no longer a draft.`);
  // Its charges all lie in its period (that is how they were claimed), so they stay; the period's
  // charges made or released since are claimed, and the totals are summed again from the charges
  // as they are now (re-rated amounts included). Rewriting 100,000 links would double the cost.
  return fill(tx, inv, terms);
}

export interface GenerateInput {
  merchant_team_id: string;
  period_start: string;
  period_end: string;
}

/** POST /v1/ops/invoices: the draft of a merchant and period, on demand (idempotent while it is a draft). */
export function generateInvoice(db: Db, teamId: string, input: GenerateInput) {
  if (!isDay(input.period_start)) throw invalid('body.period_start', 'must be a date YYYY-MM-DD');
  if (!isDay(input.period_end)) throw invalid('body.period_end', 'must be a date YYYY-MM-DD');
  if (input.period_end < input.period_start) throw invalid('body.period_end', 'must not be before period_start');
  return transaction(
    db,
    async (tx) => {
      const d = await findDelegationBetween(tx, input.merchant_team_id, teamId);
      if (!d) throw notFound('Merchant team delegated to this team', input.merchant_team_id);
      const terms = await ensureTerms(tx, d);
      const p = { start: input.period_start, end: input.period_end };
      const kind = periodOf(terms.period as InvoicePeriod, p.start);
      const sameAsSchedule = kind.start === p.start && kind.end === p.end;
      return generateInTx(tx, d, p, sameAsSchedule ? terms.period : 'CUSTOM', 'API');
    },
    // Two requests for the same period: the loser's INSERT hits open_key and its retry regenerates.
    { retryOn: isUniqueViolation },
  );
}

/**
 * POST /v1/ops/invoices/{id}/regenerate: the period's free charges claimed, lines and totals summed
 * again. `first` runs in the same transaction before (the re-rate of its charges, rerate.ts).
 */
export function regenerateInvoice(db: Db, teamId: string, id: string, first?: (tx: TxClient, inv: Invoice) => Promise<unknown>) {
  return transaction(db, async (tx) => {
    const inv = await findFulfillerInvoice(tx, teamId, id);
    if (!inv) throw notFound('Invoice', id);
    if (inv.status !== 'DRAFT') throw conflict(`Invoice ${inv.number ?? inv.id} is ${inv.status}; only a DRAFT is regenerated.`);
    if (first) await first(tx, inv);
    const d = await findDelegation(tx, inv.fulfillment_delegation_id);
    return regenerateInTx(tx, inv, await ensureTerms(tx, d));
  });
}

/**
 * The period close (src/server/workers/invoices.ts): for every delegation, each period that has
 * ended by `now` and is not closed yet becomes a draft (when it has unbilled charges). Exactly
 * once across replicas and restarts: closing a period moves the terms' closed_through by
 * compare-and-set in the same transaction as the draft, so a racer finds it moved and skips, and
 * a crash rolls both back for the next run. Missed periods (a server that was down) are caught up.
 */
export async function closeDuePeriods(db: Db, now: Date): Promise<Invoice[]> {
  const created: Invoice[] = [];
  const delegations = await findAllDelegations(db.prisma);
  for (const d of delegations) {
    for (let guard = 0; guard < 1000; guard++) {
      const terms = await transaction(db, (tx) => ensureTerms(tx, d));
      const kind = terms.period as InvoicePeriod;
      const open = terms.closed_through;
      if (!open) {
        // First sight: start at the period of the oldest unbilled charge (or the current one).
        const first = await findOldestFreeCharge(db.prisma, d.fulfiller_team_id, d.merchant_team_id);
        const start = periodOf(kind, day(first && first.created_at < now ? first.created_at : now)).start;
        await startClosing(db.prisma, terms.id, start);
        continue;
      }
      const p = nextPeriodFrom(kind, open);
      if (periodEndsAt(p) > now) break;
      const made = await transaction(db, async (tx) => {
        const moved = await moveClosedThrough(tx, terms.id, open, addDays(p.end, 1));
        if (moved.count !== 1) return null; // another replica closed it
        if (await findOpenInvoice(tx, openKey(d.id, p))) return null; // billed on demand already
        const free = await findFreeChargeIn(tx, d.fulfiller_team_id, d.merchant_team_id, dayStart(p.start), periodEndsAt(p));
        if (!free) return null;
        return (await generateInTx(tx, d, p, terms.period, 'SCHEDULE')).invoice;
      });
      if (made) created.push(made);
    }
  }
  return created;
}
