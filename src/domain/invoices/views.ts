import type { Db, Invoice, TxClient } from '../../db/types.js';
import { teamNames } from '../names/index.js';

// An invoice as the API shows it (contract/invoices.ts) and as event payloads carry it, with the
// names of its two teams (a 3PL bills several merchants: a table of merchant ids says little).

type Client = Db['prisma'] | TxClient;

/** Team names by id. */
export type TeamNames = ReadonlyMap<string, string>;

/** The names of the teams of these invoices: one read. */
export const teamNamesOf = (client: Client, invs: readonly Invoice[]): Promise<TeamNames> =>
  teamNames(
    client,
    invs.flatMap((i) => [i.merchant_team_id, i.fulfiller_team_id]),
  );

export interface InvoiceLine {
  category: string;
  description: string;
  quantity: number;
  charge_count: number;
  amount: number;
}

export function invoiceView(i: Invoice, names: TeamNames) {
  return {
    id: i.id,
    number: i.number,
    status: i.status,
    fulfiller_team_id: i.fulfiller_team_id,
    fulfiller_team_name: names.get(i.fulfiller_team_id) ?? null,
    merchant_team_id: i.merchant_team_id,
    merchant_team_name: names.get(i.merchant_team_id) ?? null,
    fulfillment_delegation_id: i.fulfillment_delegation_id,
    period_kind: i.period_kind,
    period_start: i.period_start,
    period_end: i.period_end,
    currency: i.currency,
    lines: (i.lines ?? []) as unknown as InvoiceLine[],
    subtotal: i.subtotal,
    tax_label: i.tax_label,
    tax_rate: i.tax_rate,
    tax_amount: i.tax_amount,
    total: i.total,
    charge_count: i.charge_count,
    source: i.source,
    generated_at: i.generated_at,
    finalized_at: i.finalized_at,
    due_at: i.due_at,
    sent_at: i.sent_at,
    paid_at: i.paid_at,
    payment_reference: i.payment_reference,
    voided_at: i.voided_at,
    void_reason: i.void_reason,
    created_at: i.created_at,
    updated_at: i.updated_at,
  };
}

export type InvoiceView = ReturnType<typeof invoiceView>;

export const invoicePayload = (i: Invoice, names: TeamNames) =>
  JSON.parse(JSON.stringify(invoiceView(i, names))) as Record<string, unknown>;

/** Invoices as the API shows them, their teams named. */
export async function presentInvoices(client: Client, invs: readonly Invoice[]) {
  const names = await teamNamesOf(client, invs);
  return invs.map((i) => invoiceView(i, names));
}

export const presentInvoice = async (client: Client, inv: Invoice) => (await presentInvoices(client, [inv]))[0]!;
