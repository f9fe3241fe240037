import { anyStatementsOf, type Statements } from '../../db/statements.js';
import type { Charge, Prisma, TxClient } from '../../db/types.js';
import type { BillableEvent } from '../../contract/rate-cards.js';
import { enqueueEvents } from '../events/index.js';
import { chargePayload, pricingRecord, type OrderConfig, type ShippingLabelConfig } from './pricing-record.js';
import { priceEvent, type CompiledVersion, type EventPricing } from './pricing.js';
import { findBillingDelegation } from './store/delegations.js';
import { insertNewCharges } from './store/statements.js';
import { versionAt } from './versions.js';

// Billing one event by the versioned rate card (issue 40, docs/billing.md), inside the event's own
// transaction: the charge exists exactly when the event committed. Each billable event has a key
// ("PICK:fulfillment:<id>"), unique among charges, and the insert skips a key already billed, so
// a retried or concurrent event bills once (ON CONFLICT DO NOTHING: no aborted PostgreSQL
// transaction, no error on SQLite).

/** The charge columns an event names (links to what was billed, copied names). */
export type ChargeLinks = Partial<
  Pick<
    Charge,
    | 'order_id'
    | 'fulfillment_id'
    | 'fulfillment_order_id'
    | 'work_order_id'
    | 'return_id'
    | 'shipping_label_id'
    | 'purchase_order_id'
    | 'carrier_id'
    | 'carrier_integration_id'
    | 'carrier_integration_name'
    | 'carrier_integration_type'
    | 'service_id'
    | 'carton_id'
    | 'carton_name'
    | 'warehouse_id'
    | 'warehouse_name'
    | 'location_type_id'
    | 'location_type_name'
    | 'rate_period'
  >
>;

export interface Billable {
  key: string;
  event: BillableEvent;
  name: string;
  description?: string | null;
  links?: ChargeLinks;
  origination?: 'ORDER' | 'MANUAL';
  shipping_label?: ShippingLabelConfig | null;
  order?: OrderConfig | null;
  /** A price per unit given by the person who posted it (ad-hoc), instead of the card's. */
  unit_amount?: number;
  currency?: string | null;
}

export interface Delegation {
  id: string;
  merchant_team_id: string;
  fulfiller_team_id: string;
  rate_card_id: string | null;
  active: boolean;
}

/** A given unit price as a pricing: recorded with the version in force, for the trace. */
function givenPrice(version: CompiledVersion, b: Billable, base: EventPricing): EventPricing {
  const quantity = b.event.quantity ?? b.event.units ?? 1;
  const amount = Math.round(quantity * b.unit_amount! * 100) / 100;
  return {
    ...base,
    matched: true,
    calculated_amount: amount,
    original_amount: amount,
    pricing_step_id: 'manual',
    calculation_note: `${quantity} x ${b.unit_amount} entered = ${amount}`,
    events: [...base.events, { event_type: 'trigger', step_id: 'manual', category: base.category, matched: true }],
    quantity,
    version,
  };
}

/** The charge row of a priced event (spec 2.8 fields, the billing key, the trace with the event's inputs). */
export function chargeRow(d: Delegation, b: Billable, pricing: EventPricing) {
  const v = pricing.version;
  const card = { id: v.rate_card_id, name: v.rate_card_name, version_id: v.id, semantic_version: v.semantic_version, currency: v.currency };
  const inputs = {
    category: pricing.category,
    origination: b.origination ?? 'MANUAL',
    shipping_label: b.shipping_label ?? null,
    order: b.order ?? null,
  };
  const { pricing_config, pricing_trace } = pricingRecord(card, inputs, pricing, { effective_at: v.effective_at_text, event: b.event });
  return {
    name: b.name,
    description: b.description ?? null,
    category: pricing.category,
    currency: b.currency ?? v.currency,
    quantity: pricing.quantity,
    calculated_amount: pricing.calculated_amount,
    original_amount: pricing.original_amount,
    merchant_team_id: d.merchant_team_id,
    fulfiller_team_id: d.fulfiller_team_id,
    fulfillment_delegation_id: d.id,
    ...b.links,
    billing_key: b.key,
    pricing_config: pricing_config as Prisma.InputJsonValue,
    pricing_trace: pricing_trace as unknown as Prisma.InputJsonValue,
  };
}

/** Prices a billable by a version; null when no fee of the card applies. */
export function priceBillable(version: CompiledVersion, b: Billable): EventPricing | null {
  const base = priceEvent(version, b.event);
  const pricing = b.unit_amount !== undefined ? givenPrice(version, b, base) : base;
  return pricing.matched ? pricing : null;
}

/**
 * Inserts the charges of priced events in one statement, skipping billing keys already billed,
 * and announces the new ones (charge.created to both teams). Returns the charges inserted.
 * `atCommit`: their events leave with the transaction's COMMIT on PostgreSQL (enqueueEvents).
 */
export async function insertBilled(
  tx: TxClient,
  st: Statements,
  rows: Array<Record<string, unknown>>,
  at: Date,
  opts: { atCommit?: boolean } = {},
): Promise<Charge[]> {
  if (!rows.length) return [];
  const inserted = await insertNewCharges(st, rows, at);
  const events = inserted.flatMap(({ charge: c, json }) => {
    // Its text with the pricing JSON the insert wrote spliced in: a charge's JSON is serialised
    // once, not once more for each of its two events.
    const payload = chargePayload(c);
    const { pricing_config, pricing_trace } = payload;
    // Undefined members are left out by JSON.stringify: the head is written without copying the payload.
    payload.pricing_config = payload.pricing_trace = undefined;
    const head = JSON.stringify(payload);
    payload.pricing_config = pricing_config;
    payload.pricing_trace = pricing_trace;
    const text = `${head.slice(0, -1)},"pricing_config":${json.pricing_config},"pricing_trace":${json.pricing_trace}}`;
    return [
      { teamId: c.fulfiller_team_id, kind: 'charge.created' as const, payload, text },
      { teamId: c.merchant_team_id, kind: 'charge.created' as const, payload, text },
    ];
  });
  if (events.length) await enqueueEvents(tx, events, opts);
  return inserted.map((i) => i.charge);
}

/** The active delegation between two teams, as billing needs it. */
export async function delegationOf(tx: TxClient, merchantTeamId: string, fulfillerTeamId: string): Promise<Delegation | null> {
  const d = await findBillingDelegation(tx, merchantTeamId, fulfillerTeamId);
  return d?.active ? d : null;
}

/**
 * Bills events of one delegation at `at` by its versioned card (the version in force then).
 * Nothing when the delegation has no versioned card, no version is in force yet, or no fee applies.
 */
export async function billEvents(tx: TxClient, d: Delegation | null, billables: Billable[], at: Date): Promise<Charge[]> {
  if (!d?.active || !d.rate_card_id || !billables.length) return [];
  const version = await versionAt(tx, d.rate_card_id, at);
  if (!version) return [];
  const rows: Array<Record<string, unknown>> = [];
  for (const b of billables) {
    const pricing = priceBillable(version, b);
    if (pricing) rows.push(chargeRow(d, b, pricing));
  }
  return insertBilled(tx, anyStatementsOf(tx), rows, at);
}
