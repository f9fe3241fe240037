import { Type } from 'typebox';
import { MAX_INVOICE_LINES } from './carrier-invoices-limits.js';
import { Day, Id, listOf, Nullable, pageQuery, Timestamp } from './common.js';

// Carrier invoice imports: corrections of label costs (issue 12 item 3; docs/carrier-invoices.md).

const Money = Type.Number({ minimum: -1_000_000_000, maximum: 1_000_000_000 });
const Text = (maxLength: number, description?: string) => Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });

export const InvoiceLineSchema = Type.Object(
  {
    tracking_number: Text(100, "matched against the tracking code of the team's labels"),
    carrier_invoice_number: Text(100),
    carrier_invoice_date: Day(),
    transaction_date: Type.Optional(Day()),
    correction_type: Type.Optional(Text(100, 'e.g. WEIGHT_CORRECTION, ADDRESS_CORRECTION, RESIDENTIAL_SURCHARGE')),
    correction_reason: Type.Optional(Text(500)),
    carrier_service_code: Type.Optional(Text(100)),
    published_amount: Type.Optional(Money),
    incentive_amount: Type.Optional(Money),
    corrected_carrier_cost: Type.Number({
      minimum: 0,
      maximum: 1_000_000_000,
      description: 'what the carrier finally charges for the label',
    }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: "ISO 4217; must be the label's currency" }),
  },
  { additionalProperties: false },
);

export const ImportInvoiceBody = Type.Object(
  {
    filename: Text(255, "the invoice file's name, kept in each correction's source_import"),
    lines: Type.Array(InvoiceLineSchema, { minItems: 1, maxItems: MAX_INVOICE_LINES }),
  },
  { additionalProperties: false },
);

export const InvoiceImportSchema = Type.Object({
  id: Type.String({ description: "the import_id in each correction's source_import" }),
  filename: Type.String(),
  replayed: Type.Boolean({ description: 'true when these lines were imported before: nothing changed this time' }),
  line_count: Type.Integer(),
  corrected: Type.Integer({ description: 'labels whose carrier_correction was recorded or replaced' }),
  unchanged: Type.Integer({ description: 'lines whose correction the label already had (same invoice and cost)' }),
  unmatched: Type.Array(
    Type.Object({
      line: Type.Integer({ description: '1-based position in lines' }),
      tracking_number: Type.String(),
      reason: Type.String(),
    }),
  ),
  charges: Type.Array(
    Type.Object({
      id: Type.String(),
      shipping_label_id: Type.String(),
      tracking_number: Type.String(),
      amount: Type.Number(),
      currency: Type.String(),
    }),
    { description: 'SHIPPING charges (positive) and credits (negative) billed to merchants for the differences' },
  ),
  created_by_key_id: Nullable(Type.String()),
  created_at: Timestamp,
});

export const InvoiceImportListSchema = listOf(InvoiceImportSchema);
export const InvoiceImportListQuery = Type.Object({ ...pageQuery() }, { additionalProperties: false });
export const InvoiceImportParams = Type.Object({ import_id: Id });
