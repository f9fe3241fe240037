import type { Charge, Db, Invoice, Prisma, TxClient } from '../../db/types.js';
import type { BillableEvent } from '../../contract/rate-cards.js';
import { enqueueEvents } from '../events/index.js';
import { chargePayload, chargeRow, priceBillable, versionAt, type Billable } from '../charges/index.js';
import { storagePricedAt } from '../billing/index.js';
import { regenerateInvoice } from './generate.js';
import { findDelegation, findKeyedCharges, updateCharge } from './store.js';

// Re-rating a DRAFT invoice on request (POST /v1/ops/invoices/{id}/rerate, docs/billing.md): each
// charge priced by a versioned card is priced again by the version of its card in force at its
// event's time (created_at; a storage day's: its last instant, as it was billed), from the event's inputs its pricing_trace kept, then the draft's lines
// and totals are summed again, all in one transaction. Finalized, sent, paid or void invoices are
// never re-rated (409): publishing a version never changes what a merchant was invoiced.

interface Trace {
  rate_card_id?: string;
  pricing_step_id?: string | null;
  event?: BillableEvent;
  pricing_config?: { origination?: 'ORDER' | 'MANUAL'; shipping_label?: unknown; order?: unknown };
}

/** A storage charge's config (billing/storage-charges.ts): the day it bills and the zone of that day. */
interface Config {
  origination?: string;
  storage?: { date?: string; time_zone?: string };
}

/** The time of a charge's event: the version in force then prices it. */
function eventTime(c: Charge): Date {
  const day = (c.pricing_config as Config | null)?.storage;
  return day?.date && day.time_zone ? storagePricedAt(day.date, day.time_zone) : c.created_at;
}

/** What a storage charge's config says beyond the pricing (its day, origination SCHEDULE): kept when re-rated. */
function kept(c: Charge): Config {
  const config = c.pricing_config as Config | null;
  return config?.storage ? { origination: config.origination, storage: config.storage } : {};
}

async function rerateCharges(tx: TxClient, inv: Invoice) {
  const charges = await findKeyedCharges(tx, inv.id);
  const d = await findDelegation(tx, inv.fulfillment_delegation_id);
  const changed = [];
  for (const c of charges) {
    const trace = (c.pricing_trace ?? {}) as Trace;
    // Amounts a person entered (ad-hoc unit_amount) are not the card's to change.
    if (!trace.event || !trace.rate_card_id || trace.pricing_step_id === 'manual') continue;
    const version = await versionAt(tx, trace.rate_card_id, eventTime(c));
    if (!version) continue;
    const b: Billable = {
      key: c.billing_key!,
      event: trace.event,
      name: c.name,
      description: c.description,
      origination: trace.pricing_config?.origination ?? 'MANUAL',
      shipping_label: (trace.pricing_config?.shipping_label ?? null) as Billable['shipping_label'],
      order: (trace.pricing_config?.order ?? null) as Billable['order'],
      currency: c.currency,
    };
    const pricing = priceBillable(version, b);
    // A fee the new version no longer has leaves the charge at zero, with the trace saying so.
    const row = pricing
      ? chargeRow({ ...d, rate_card_id: trace.rate_card_id }, b, pricing)
      : {
          calculated_amount: 0,
          pricing_trace: { ...trace, calculated_amount: 0, calculation_note: 'No fee of the version in force applies.' },
        };
    if (
      row.calculated_amount === c.calculated_amount &&
      (pricing?.version.id ?? null) === (c.pricing_trace as { version_id?: string })?.version_id
    )
      continue;
    const updated = await updateCharge(tx, c.id, {
      calculated_amount: row.calculated_amount,
      ...(pricing ? { quantity: pricing.quantity, original_amount: pricing.original_amount } : {}),
      pricing_trace: row.pricing_trace as Prisma.InputJsonValue,
      ...('pricing_config' in row ? { pricing_config: { ...(row.pricing_config as object), ...kept(c) } } : {}),
    });
    changed.push(updated);
  }
  const events = changed.flatMap((c) => {
    const payload = chargePayload(c);
    return [
      { teamId: c.fulfiller_team_id, kind: 'charge.updated' as const, payload },
      { teamId: c.merchant_team_id, kind: 'charge.updated' as const, payload },
    ];
  });
  if (events.length) await enqueueEvents(tx, events);
}

export function rerateInvoice(db: Db, teamId: string, invoiceId: string) {
  return regenerateInvoice(db, teamId, invoiceId, rerateCharges);
}
