import type { PDFImage, PDFPage } from 'pdf-lib';
import type { Db, Invoice } from '../../db/types.js';
import { loadPdfLib } from '../documents/index.js';
import { PdfText, stringsOf } from '../documents/index.js';
import type { FileStorage } from '../files/index.js';
import { csvLine } from '../../shared/csv.js';
import { chargeView } from '../charges/index.js';
import { conflict } from '../errors.js';
import { findFile, findInvoiceCharges, findParties } from './store.js';
import type { InvoiceLine } from './views.js';

// An invoice's paper and files (docs/invoices.md): the PDF (US Letter; logo, issuer and bill-to
// addresses, period, one line per category, subtotal, tax line, total), the CSV of its charges,
// and the rows QuickBooks Online's and Xero's invoice imports read.

const PAGE: [number, number] = [612, 792];
const M = 48;

type Address = Record<string, string | null | undefined>;
const ADDRESS_LINES = (a: Address | null | undefined): string[] => {
  if (!a) return [];
  const cityLine = [a.city, a.state, a.zip].filter(Boolean).join(' ');
  return [a.name, a.company, a.address1, a.address2, cityLine, a.country, a.phone, a.email].filter((s): s is string => Boolean(s));
};

export const money = (n: number, currency: string) => `${currency} ${n.toFixed(2)}`;
const ymd = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : '');

/** Everything the documents print about an invoice: its parties and their addresses. */
export async function invoiceParties(db: Db, inv: Invoice) {
  const [fulfiller, merchant, profile, terms] = await findParties(db.prisma, inv);
  const billTo = (terms?.bill_to ?? null) as Address | null;
  return {
    issuer: profile?.legal_name ?? fulfiller?.name ?? inv.fulfiller_team_id,
    issuerAddress: (profile?.address ?? null) as Address | null,
    taxId: profile?.tax_id ?? null,
    footer: profile?.footer ?? null,
    logoFileId: profile?.logo_file_id ?? null,
    customer: billTo?.company || billTo?.name || merchant?.name || inv.merchant_team_id,
    billTo,
    paymentTermsDays: terms?.payment_terms_days ?? 30,
  };
}

async function logoImage(
  db: Db,
  storage: FileStorage | undefined,
  fileId: string | null,
  embed: (bytes: Uint8Array, png: boolean) => Promise<PDFImage>,
) {
  if (!fileId || !storage) return null;
  const file = await findFile(db.prisma, fileId);
  if (!file?.storage_key) return null;
  const opened = await storage.open(file.storage_key);
  if (!opened) return null;
  const chunks: Buffer[] = [];
  for await (const c of opened.stream) chunks.push(Buffer.from(c as Uint8Array));
  try {
    return await embed(Buffer.concat(chunks), file.mimetype === 'image/png');
  } catch {
    return null; // an unreadable image: the invoice prints without it
  }
}

export async function invoicePdf(db: Db, inv: Invoice, storage?: FileStorage): Promise<Uint8Array> {
  const parties = await invoiceParties(db, inv);
  const lines = (inv.lines ?? []) as unknown as InvoiceLine[];
  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.create();
  const title = inv.status === 'DRAFT' ? 'DRAFT INVOICE' : inv.status === 'VOID' ? 'INVOICE (VOID)' : 'INVOICE';
  doc.setTitle(`${title} ${inv.number ?? inv.id}`);
  doc.setCreator('fos');
  doc.setCreationDate(inv.finalized_at ?? inv.generated_at);
  const t = await PdfText.for(doc, stringsOf([parties, lines, title, inv.tax_label, inv.currency, 'Bill to', 'Subtotal', 'Total due']));
  const page: PDFPage = doc.addPage(PAGE);
  const W = PAGE[0];
  let y = PAGE[1] - M;
  const at = (s: string, x: number, yy: number, size: number, bold = false, width = W - M - x) =>
    t.draw(page, s, { x, y: yy, size, bold, maxWidth: width });
  const right = (s: string, xRight: number, yy: number, size: number, bold = false) =>
    t.draw(page, s, { x: xRight - t.width(s, size, bold), y: yy, size, bold });

  const logo = await logoImage(db, storage, parties.logoFileId, (bytes, png) => (png ? doc.embedPng(bytes) : doc.embedJpg(bytes)));
  if (logo) {
    const s = Math.min(140 / logo.width, 56 / logo.height, 1);
    page.drawImage(logo, { x: M, y: y - logo.height * s, width: logo.width * s, height: logo.height * s });
  }
  right(title, W - M, y - 18, 20, true);
  right(`Number: ${inv.number ?? '(assigned at finalize)'}`, W - M, y - 36, 10);
  right(`Period: ${inv.period_start} to ${inv.period_end}`, W - M, y - 50, 10);
  if (inv.finalized_at) right(`Issued: ${ymd(inv.finalized_at)}    Due: ${ymd(inv.due_at)}`, W - M, y - 64, 10);
  y -= logo ? 80 : 30;
  at(parties.issuer, M, y, 12, true, 260);
  let yl = y;
  for (const s of ADDRESS_LINES(parties.issuerAddress)) at(s, M, (yl -= 13), 9, false, 260);
  if (parties.taxId) at(`Tax ID: ${parties.taxId}`, M, (yl -= 13), 9, false, 260);
  let yr = y;
  at('Bill to', 330, yr, 10, true, 230);
  at(parties.customer, 330, (yr -= 14), 11, true, 230);
  for (const s of ADDRESS_LINES(parties.billTo)) if (s !== parties.customer) at(s, 330, (yr -= 13), 9, false, 230);
  y = Math.min(yl, yr) - 30;

  const cols = { desc: M, count: 300, qty: 400, amount: W - M };
  at('Description', cols.desc, y, 10, true);
  right('Charges', cols.count + 40, y, 10, true);
  right('Quantity', cols.qty + 60, y, 10, true);
  right(`Amount (${inv.currency})`, cols.amount, y, 10, true);
  page.drawLine({ start: { x: M, y: y - 4 }, end: { x: W - M, y: y - 4 }, thickness: 0.6 });
  for (const l of lines) {
    y -= 16;
    at(l.description, cols.desc, y, 10, false, 240);
    right(String(l.charge_count), cols.count + 40, y, 10);
    right(String(l.quantity), cols.qty + 60, y, 10);
    right(l.amount.toFixed(2), cols.amount, y, 10);
  }
  if (!lines.length) at('No charges in this period.', cols.desc, (y -= 16), 10);
  page.drawLine({ start: { x: 330, y: y - 8 }, end: { x: W - M, y: y - 8 }, thickness: 0.6 });
  const total = (label: string, value: string, bold = false) => {
    y -= 16;
    at(label, 330, y, 10, bold, 140);
    right(value, cols.amount, y, 10, bold);
  };
  y -= 8;
  total('Subtotal', money(inv.subtotal, inv.currency));
  if (inv.tax_rate > 0 || inv.tax_amount > 0) total(`${inv.tax_label} (${inv.tax_rate}%)`, money(inv.tax_amount, inv.currency));
  total('Total due', money(inv.total, inv.currency), true);
  if (inv.status === 'PAID')
    at(`PAID ${ymd(inv.paid_at)}${inv.payment_reference ? ` (${inv.payment_reference})` : ''}`, 330, (y -= 20), 11, true);
  if (parties.footer) at(parties.footer, M, M + 10, 8, false);
  at(`Invoice ${inv.id}`, M, M - 4, 7);
  return doc.save();
}

/** The CSV of an invoice's charges: one row per charge (spec 2.8 fields, pricing JSON left out). */
export async function* invoiceChargesCsv(db: Db, invoiceId: string): AsyncGenerator<string> {
  const columns = [
    'id',
    'created_at',
    'category',
    'name',
    'description',
    'quantity',
    'calculated_amount',
    'currency',
    'order_id',
    'fulfillment_id',
    'purchase_order_id',
    'return_id',
    'work_order_id',
    'shipping_label_id',
    'warehouse_name',
    'location_type_name',
    'carton_name',
    'carrier_integration_name',
    'service_id',
  ] as const;
  yield csvLine(columns);
  let after: string | undefined;
  for (;;) {
    const rows = await findInvoiceCharges(db.prisma, invoiceId, after, 2000);
    if (!rows.length) return;
    let out = '';
    for (const r of rows) {
      const v = chargeView(r) as Record<string, unknown>;
      out += csvLine(columns.map((c) => (c === 'created_at' ? r.created_at.toISOString() : v[c])));
    }
    yield out;
    after = rows[rows.length - 1].id;
  }
}

/** QuickBooks Online's invoice import: the column names it maps by itself (Intuit, "Import invoices in batches"). */
export const QBO_COLUMNS = [
  'Invoice number',
  'Customer',
  'Invoice date',
  'Due date',
  'Terms',
  'Memo',
  'Item(Product/Service)',
  'Item Description',
  'Item Quantity',
  'Item Rate',
  'Item Amount',
  'Item tax code',
  'Service Date',
] as const;

/** Xero's sales-invoice import template (SalesInvoiceTemplate.csv); * marks the columns Xero requires. */
export const XERO_COLUMNS = [
  '*ContactName',
  'EmailAddress',
  'POAddressLine1',
  'POAddressLine2',
  'POAddressLine3',
  'POAddressLine4',
  'POCity',
  'PORegion',
  'POPostalCode',
  'POCountry',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  'InventoryItemCode',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
  'Currency',
  'BrandingTheme',
] as const;

export interface ExportOptions {
  /** Xero: the revenue account the lines are coded to (default 200, Xero's "Sales"). */
  account_code?: string;
  /** Xero: the tax rate's name as it is in Xero (default: "Tax Exempt" without tax, else the invoice's tax label). */
  tax_type?: string;
}

const mdy = (d: Date) => `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
const dmy = (d: Date) => `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;

/**
 * One invoice as import rows, one per line: every line of the file carries the invoice's number,
 * customer and dates, as both importers group lines by invoice number. A quantity-weighted rate
 * (amount / quantity) would round, so each line is exported as quantity 1 at its amount, and its
 * real quantity is in the description.
 */
export async function accountingCsv(db: Db, inv: Invoice, format: 'quickbooks' | 'xero', opts: ExportOptions = {}): Promise<string> {
  // Both import an invoice by its number (QuickBooks takes at most 21 characters): a draft has none.
  if (!inv.number) throw conflict(`Invoice ${inv.id} is a ${inv.status} without a number; finalize it before exporting it to ${format}.`);
  const parties = await invoiceParties(db, inv);
  const lines = (inv.lines ?? []) as unknown as InvoiceLine[];
  const issued = inv.finalized_at ?? inv.generated_at;
  const due = inv.due_at ?? new Date(issued.getTime() + parties.paymentTermsDays * 86_400_000);
  const number = inv.number ?? inv.id;
  const describe = (l: InvoiceLine) =>
    `${l.description}: ${l.quantity} units, ${l.charge_count} charges, ${inv.period_start} to ${inv.period_end}`;
  if (format === 'quickbooks') {
    let out = csvLine(QBO_COLUMNS);
    for (const l of lines) {
      out += csvLine([
        number,
        parties.customer,
        mdy(issued),
        mdy(due),
        `Net ${parties.paymentTermsDays}`,
        `Fulfillment services ${inv.period_start} to ${inv.period_end}`,
        l.description,
        describe(l),
        1,
        l.amount.toFixed(2),
        l.amount.toFixed(2),
        inv.tax_rate > 0 ? 'TAX' : 'NON',
        mdy(new Date(`${inv.period_end}T00:00:00Z`)),
      ]);
    }
    return out;
  }
  const a = parties.billTo ?? {};
  const taxType = opts.tax_type ?? (inv.tax_rate > 0 ? inv.tax_label : 'Tax Exempt');
  let out = csvLine(XERO_COLUMNS);
  for (const l of lines) {
    out += csvLine([
      parties.customer,
      a.email ?? '',
      a.address1 ?? '',
      a.address2 ?? '',
      '',
      '',
      a.city ?? '',
      a.state ?? '',
      a.zip ?? '',
      a.country ?? '',
      number,
      `${inv.period_start} to ${inv.period_end}`,
      dmy(issued),
      dmy(due),
      '',
      describe(l),
      1,
      l.amount.toFixed(2),
      '',
      opts.account_code ?? '200',
      taxType,
      '',
      '',
      '',
      '',
      inv.currency,
      '',
    ]);
  }
  return out;
}
