import { Type, type TSchema } from 'typebox';
import { Day, Id, Nullable, Opt, StringEnum, Timestamp, pageQuery, sortOrder } from './common.js';
import { ADDRESS_FIELDS } from './enums.js';

// Invoices (docs/invoices.md): ops family (the fulfiller's own, every status) and merchant family
// (its own, from FINALIZED on); the delegation's invoice terms and the team's billing profile.

import { INVOICE_EXPORT_FORMATS, INVOICE_PERIODS, INVOICE_STATUSES } from './enums.js';
export { INVOICE_EXPORT_FORMATS, INVOICE_PERIODS, INVOICE_STATUSES };

const Money = Type.Number({ description: 'in the invoice currency, rounded to cents' });

export const InvoiceLineSchema = Type.Object({
  category: Type.String({ description: 'the charges category this line sums' }),
  description: Type.String(),
  quantity: Type.Number({ description: 'sum of the charges quantities' }),
  charge_count: Type.Integer(),
  amount: Money,
});

export const InvoiceSchema = Type.Object({
  id: Type.String(),
  number: Nullable(Type.String({ description: 'assigned at finalize: the profile prefix and 6 digits, without gaps per fulfiller team' })),
  status: StringEnum(INVOICE_STATUSES),
  fulfiller_team_id: Type.String(),
  fulfiller_team_name: Nullable(Type.String()),
  merchant_team_id: Type.String(),
  merchant_team_name: Nullable(Type.String()),
  fulfillment_delegation_id: Type.String(),
  period_kind: Type.String({ description: 'WEEKLY, SEMI_MONTHLY, MONTHLY, or CUSTOM (a period asked for on demand)' }),
  period_start: Day('first day billed (UTC)'),
  period_end: Day('last day billed (UTC), inclusive'),
  currency: Type.String(),
  lines: Type.Array(InvoiceLineSchema),
  subtotal: Money,
  tax_label: Type.String(),
  tax_rate: Type.Number({ description: 'percent' }),
  tax_amount: Money,
  total: Money,
  charge_count: Type.Integer(),
  source: StringEnum(['SCHEDULE', 'API'] as const),
  generated_at: Timestamp,
  finalized_at: Nullable(Timestamp),
  due_at: Nullable(Timestamp),
  sent_at: Nullable(Timestamp),
  paid_at: Nullable(Timestamp),
  payment_reference: Nullable(Type.String()),
  voided_at: Nullable(Timestamp),
  void_reason: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const InvoiceListQuery = Type.Object({
  ...pageQuery(),
  status: Type.Optional(StringEnum(INVOICE_STATUSES)),
  merchant_team_id: Type.Optional(Id),
  period_from: Type.Optional(Day('invoices whose period ends on or after this day')),
  period_to: Type.Optional(Day('invoices whose period starts on or before this day')),
  order: sortOrder,
});

export const MerchantInvoiceListQuery = Type.Object({
  ...pageQuery(),
  status: Type.Optional(StringEnum(['FINALIZED', 'SENT', 'PAID', 'VOID'] as const)),
  period_from: Type.Optional(Day('invoices whose period ends on or after this day')),
  period_to: Type.Optional(Day('invoices whose period starts on or before this day')),
  order: sortOrder,
});

export const GenerateInvoiceBody = Type.Object(
  {
    merchant_team_id: Id,
    period_start: Day('first day billed (UTC)'),
    period_end: Day('last day billed (UTC), inclusive'),
  },
  { additionalProperties: false },
);

export const PayInvoiceBody = Type.Object(
  {
    payment_reference: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    paid_at: Type.Optional(Timestamp),
  },
  { additionalProperties: false },
);

export const VoidInvoiceBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) },
  { additionalProperties: false },
);

export const InvoiceExportQuery = Type.Object({
  format: StringEnum(INVOICE_EXPORT_FORMATS, { description: 'charges: one row per charge; quickbooks, xero: their invoice import CSVs' }),
  account_code: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'xero: revenue account code (default 200)' })),
  tax_type: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "xero: the tax rate's name in Xero" })),
});

export const MerchantInvoiceExportQuery = Type.Object({ format: StringEnum(['charges'] as const) });

const AddressProps = Object.fromEntries([...ADDRESS_FIELDS, 'email'].map((f) => [f, Opt(Type.String({ maxLength: 200 }))])) as Record<
  string,
  TSchema
>;
const AddressIn = Type.Object(AddressProps, { additionalProperties: false });
const AddressOut = Type.Object(AddressProps);

export const InvoiceTermsSchema = Type.Object({
  fulfillment_delegation_id: Type.String(),
  merchant_team_id: Type.String(),
  period: StringEnum(INVOICE_PERIODS),
  tax_rate: Type.Number(),
  tax_label: Type.String(),
  payment_terms_days: Type.Integer(),
  bill_to: Nullable(AddressOut),
  closed_through: Nullable(Day('the first day the period close has not closed yet')),
  updated_at: Timestamp,
});

export const InvoiceTermsBody = Type.Object(
  {
    period: Type.Optional(StringEnum(INVOICE_PERIODS)),
    tax_rate: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'percent' })),
    tax_label: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
    payment_terms_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
    bill_to: Type.Optional(Nullable(AddressIn)),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const BillingProfileSchema = Type.Object({
  team_id: Type.String(),
  legal_name: Nullable(Type.String()),
  address: Nullable(AddressOut),
  tax_id: Nullable(Type.String()),
  logo_file_id: Nullable(Type.String()),
  number_prefix: Type.String(),
  footer: Nullable(Type.String()),
});

export const BillingProfileBody = Type.Object(
  {
    legal_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    address: Type.Optional(Nullable(AddressIn)),
    tax_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
    logo_file_id: Type.Optional(Nullable(Id)),
    number_prefix: Type.Optional(Type.String({ maxLength: 12, pattern: '^[A-Za-z0-9/_-]*$' })),
    footer: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 500 }))),
  },
  { additionalProperties: false, minProperties: 1 },
);
