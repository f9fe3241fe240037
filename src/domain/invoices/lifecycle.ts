import { transaction } from '../../db/tx.js';
import type { Db, Invoice, Prisma, TxClient } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { enqueueEvent, enqueueEvents, type EventKind } from '../events/index.js';
import {
  ensureTerms,
  findDelegation,
  findFulfillerInvoice,
  findProfile,
  moveStatus,
  releaseCharges,
  takeNumber,
  updateInvoice,
} from './store.js';
import { invoicePayload, teamNamesOf } from './views.js';
import { periodEndsAt } from '../charges/index.js';

// DRAFT -> FINALIZED -> SENT -> PAID, and VOID from any state before PAID (docs/invoices.md).
// Every step is a compare-and-set on the expected status, so two racing steps give one 409.

type Status = 'DRAFT' | 'FINALIZED' | 'SENT' | 'PAID' | 'VOID';

async function step(
  db: Db,
  teamId: string,
  id: string,
  from: readonly Status[],
  to: Status,
  data: (tx: TxClient, inv: Invoice) => Promise<Prisma.InvoiceUpdateManyMutationInput>,
  after?: (tx: TxClient, inv: Invoice) => Promise<void>,
) {
  return transaction(db, async (tx) => {
    const inv = await findFulfillerInvoice(tx, teamId, id);
    if (!inv) throw notFound('Invoice', id);
    if (!from.includes(inv.status as Status)) {
      throw conflict(`Invoice ${inv.number ?? inv.id} is ${inv.status}; it can become ${to} only from ${from.join(' or ')}.`);
    }
    const { count } = await moveStatus(tx, id, inv.status, to);
    if (count !== 1) throw conflict(`Invoice ${inv.number ?? inv.id} was changed concurrently; retry.`);
    const updated = await updateInvoice(tx, id, await data(tx, inv));
    await after?.(tx, updated);
    const kind = `invoice.${to === 'VOID' ? 'voided' : to.toLowerCase()}` as EventKind;
    const payload = invoicePayload(updated, await teamNamesOf(tx, [updated]));
    // A merchant hears of its invoices from finalize on; a draft is the fulfiller's own business.
    if (inv.status === 'DRAFT' && to === 'VOID') await enqueueEvent(tx, teamId, kind, payload);
    else
      await enqueueEvents(tx, [
        { teamId, kind, payload },
        { teamId: updated.merchant_team_id, kind, payload },
      ]);
    return updated;
  });
}

export function finalizeInvoice(db: Db, teamId: string, id: string, now: Date) {
  return step(db, teamId, id, ['DRAFT'], 'FINALIZED', async (tx, inv) => {
    // A period still running gets charges until it ends; a finalized invoice takes none, and its
    // period's later charges would be on no invoice (the step's transaction rolls back: still a DRAFT).
    const ends = periodEndsAt({ start: inv.period_start, end: inv.period_end });
    if (now < ends)
      throw conflict(
        `The period of this draft runs to ${inv.period_end} (until ${ends.toISOString()}); charges made until then belong on it. ` +
          'Finalize it once the period has ended, or bill a shorter period that has (a period_end before today).',
        { period_end: inv.period_end, period_ends_at: ends.toISOString() },
      );
    // The number is taken after the status moved: a racing finalize of this invoice failed above
    // and took none; a rollback from here on gives the number back.
    const sequence = await takeNumber(tx, teamId);
    const profile = await findProfile(tx, teamId);
    const d = await findDelegation(tx, inv.fulfillment_delegation_id);
    const terms = await ensureTerms(tx, d);
    return {
      sequence,
      number: `${profile?.number_prefix ?? 'INV-'}${String(sequence).padStart(6, '0')}`,
      finalized_at: now,
      due_at: new Date(now.getTime() + terms.payment_terms_days * 86_400_000),
    };
  });
}

export function sendInvoice(db: Db, teamId: string, id: string, now: Date) {
  return step(db, teamId, id, ['FINALIZED'], 'SENT', async () => ({ sent_at: now }));
}

export function payInvoice(db: Db, teamId: string, id: string, now: Date, input: { payment_reference?: string; paid_at?: string }) {
  return step(db, teamId, id, ['FINALIZED', 'SENT'], 'PAID', async () => ({
    paid_at: input.paid_at ? new Date(input.paid_at) : now,
    payment_reference: input.payment_reference ?? null,
  }));
}

/** Void: the invoice keeps its number (no gap) and lets its charges go to the next invoice of the period. */
export function voidInvoice(db: Db, teamId: string, id: string, now: Date, input: { reason?: string }) {
  return step(
    db,
    teamId,
    id,
    ['DRAFT', 'FINALIZED', 'SENT'],
    'VOID',
    async () => ({ voided_at: now, void_reason: input.reason ?? null, open_key: null }),
    (tx, inv) => releaseCharges(tx, inv.id, now),
  );
}
