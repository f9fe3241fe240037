import type { FastifyInstance, FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import type { Invoice } from '../../db/types.js';
import { accountingCsv, invoiceChargesCsv, invoicePdf } from '../../domain/invoices/index.js';
import { sendDocument } from './documents.js';

// The files of an invoice, as both families answer them (ops/invoices.ts, merchant/billing.ts):
// the PDF and the CSVs, each under the invoice's number (or id) as a file name, never cached.

export const CSV_RESPONSE = { 200: { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } } };

export function sendCsv(reply: FastifyReply, body: string | AsyncIterable<string>, filename: string) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'private, no-store')
    .send(typeof body === 'string' ? body : Readable.from(body));
}

const fileName = (inv: Invoice, ext: string) => `invoice-${inv.number ?? inv.id}.${ext}`;

/** The invoice as a PDF (US Letter), rendered from the data as it is now. */
export async function replyInvoicePdf(app: FastifyInstance, reply: FastifyReply, inv: Invoice) {
  return sendDocument(reply, await invoicePdf(app.db, inv, app.files.storage), fileName(inv, 'pdf'));
}

/** The invoice as CSV: its charges (streamed), or QuickBooks Online's or Xero's invoice import. */
export async function replyInvoiceCsv(
  app: FastifyInstance,
  reply: FastifyReply,
  inv: Invoice,
  format: 'charges' | 'quickbooks' | 'xero',
  opts: Parameters<typeof accountingCsv>[3] = {},
) {
  if (format === 'charges') return sendCsv(reply, invoiceChargesCsv(app.db, inv.id), fileName(inv, 'charges.csv'));
  return sendCsv(reply, await accountingCsv(app.db, inv, format, opts), fileName(inv, `${format}.csv`));
}
