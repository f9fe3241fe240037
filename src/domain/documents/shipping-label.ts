import { isTestLabel } from '../carrier-integrations/index.js';
import type { PDFDocument, PDFPage } from 'pdf-lib';
import { barcodeImage } from './barcode.js';
import { PdfText, stringsOf } from './pdf-text.js';
import { zplLine } from './zpl-text.js';
import { loadPdfLib } from './pdf-lib.js';
import type { Db } from '../../db/types.js';
import { conflict, notFound } from '../errors.js';
import { asAddress, type Address } from '../fulfillment/index.js';
import { storedDocument } from '../fulfillment/index.js';
import * as store from './store.js';

// The printable shipping label of a package whose label was bought through rate shopping
// (spec 2.7 label_url): a 4x6 inch label with the carrier and service, both addresses, the
// tracking number as a Code 128 barcode (bwip-js), the weight and a reference. PDF by default,
// ZPL for thermal printers. Rendered on request from the stored label, so nothing is kept on disk
// and a voided-then-relabelled package always prints its current label. Uploaded labels keep the
// URL they were uploaded with; this document is only for bought ones.

const W = 288; // 4 in, in points
const H = 432; // 6 in
const M = 14;

export interface LabelData {
  tracking: string;
  service: string;
  from: Address;
  to: Address;
  weight: string | null;
  reference: string;
  date: Date;
  /** Bought from the built-in rate-table carrier: a test label no carrier accepts. */
  test: boolean;
}

export const TEST_LABEL_LINES = [
  'TEST LABEL - NOT VALID FOR SHIPPING',
  'Made by the built-in rate-table carrier:',
  'no carrier will accept or deliver it.',
];

async function labelData(db: Db, teamId: string, packageId: string): Promise<LabelData> {
  const pkg = await store.findPackageWithLabel(db.prisma, teamId, packageId);
  if (!pkg) throw notFound('Package', packageId);
  const label = pkg.shipping_label;
  if (!label || label.voided_at) throw notFound('Shipping label of package', packageId);
  if (!label.tracking_code || label.carrier_integration_id === null) {
    throw conflict(`Package ${packageId} has an uploaded label: it is printed from its own label_url.`);
  }
  const order = pkg.fulfillment_order_id ? await store.findOrderNumber(db.prisma, pkg.fulfillment_order_id) : null;
  return {
    tracking: label.tracking_code,
    service: label.formatted_service ?? label.carrier_name ?? '',
    from: asAddress(label.from_address ?? pkg.from_address),
    to: asAddress(label.to_address ?? pkg.to_address),
    weight: pkg.weight !== null ? `${pkg.weight} ${pkg.weight_unit ?? ''}`.trim() : null,
    reference: [order?.order?.order_number, pkg.name].filter(Boolean).join(' · '),
    date: label.created_at,
    test: isTestLabel(label),
  };
}

const lines = (a: Address) =>
  [a.name, a.company, a.address1, a.address2, [a.city, a.state, a.zip].filter(Boolean).join(' '), a.country].filter(
    (l): l is string => typeof l === 'string' && l.trim() !== '',
  );

/**
 * A label bought from a carrier platform is the platform's own document, downloaded at purchase
 * (carriers/documents.ts); it is served as bought, in its one format.
 */
async function platformLabel(db: Db, teamId: string, packageId: string, format: 'PDF' | 'ZPL'): Promise<Uint8Array | null> {
  const stored = await storedDocument(db.prisma, teamId, packageId, 'LABEL');
  if (!stored) return null;
  if (stored.format !== format)
    throw conflict(`The label of package ${packageId} was bought from the carrier as ${stored.format}; fetch it in that format.`);
  return stored.bytes;
}

export async function labelPdf(db: Db, teamId: string, packageId: string): Promise<Uint8Array> {
  const d = await labelData(db, teamId, packageId);
  const bought = await platformLabel(db, teamId, packageId, 'PDF');
  return bought ?? renderLabelPdf(d);
}

/**
 * What a batch's merged file needs of one package's PDF label: the platform's own document, or
 * the data fos draws it from (drawn with the others into one document: drawLabels).
 */
export async function labelPdfSource(db: Db, teamId: string, packageId: string): Promise<{ bytes: Uint8Array } | { data: LabelData }> {
  const d = await labelData(db, teamId, packageId);
  const bought = await platformLabel(db, teamId, packageId, 'PDF');
  return bought ? { bytes: bought } : { data: d };
}

export async function renderLabelPdf(d: LabelData): Promise<Uint8Array> {
  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.create();
  doc.setTitle(`Shipping label ${d.tracking}`);
  doc.setCreationDate(d.date);
  const [draw] = await drawLabels(doc, [d]);
  await draw();
  return doc.save();
}

/**
 * One 4x6 page per label in `doc`, with one font subset for them all (a batch's file draws
 * hundreds into one document): returns a drawer per label, to call in page order.
 */
export async function drawLabels(doc: PDFDocument, ds: readonly LabelData[]): Promise<Array<() => Promise<void>>> {
  const t = await PdfText.for(doc, [
    ...ds.flatMap((d) => stringsOf(d)),
    ...TEST_LABEL_LINES,
    'FROM SHIP TO TRACKING # Weight: Ref: Printed by fos ·',
  ]);
  return ds.map((d) => () => drawLabel(doc, t, d));
}

async function drawLabel(doc: PDFDocument, t: PdfText, d: LabelData): Promise<void> {
  const page: PDFPage = doc.addPage([W, H]);
  let y = H - M;
  const text = (s: string, size: number, bold = false, x = M) => {
    y -= size + 2;
    t.draw(page, s, { x, y, size, bold, maxWidth: W - x - M });
  };
  const rule = () => {
    y -= 6;
    page.drawLine({ start: { x: M, y }, end: { x: W - M, y }, thickness: 1 });
    y -= 2;
  };
  if (d.test) {
    text(TEST_LABEL_LINES[0], 12, true);
    for (const l of TEST_LABEL_LINES.slice(1)) text(l, 9, true);
    rule();
  }
  text(d.service, 16, true);
  rule();
  text('FROM', 7, true);
  for (const l of lines(d.from)) text(l, 8);
  rule();
  text('SHIP TO', 8, true);
  for (const l of lines(d.to)) text(l, 12, true, M + 8);
  rule();
  const code = await barcodeImage(doc, d.tracking);
  y -= 76;
  code.draw(page, M, y, W - 2 * M, 72);
  text(`TRACKING # ${d.tracking}`, 11, true);
  rule();
  if (d.weight) text(`Weight: ${d.weight}`, 9);
  if (d.reference) text(`Ref: ${d.reference}`, 9);
  if (d.test) text(TEST_LABEL_LINES[0], 9, true);
  text(`Printed by fos · ${d.date.toISOString().slice(0, 10)}`, 7);
}

/** The same label as ZPL II for thermal printers (203 dpi, 812 x 1218 dots). */
export async function labelZpl(db: Db, teamId: string, packageId: string): Promise<string> {
  const d = await labelData(db, teamId, packageId);
  const bought = await platformLabel(db, teamId, packageId, 'ZPL');
  if (bought) return Buffer.from(bought).toString('utf8');
  // ^CI28: field data is UTF-8 (a text field never holds more than ASCII: see zpl-text.ts).
  const out = ['^XA', '^CI28'];
  const width = 812 - 60;
  let y = 30;
  const line = async (s: string, dots: number, x = 30, gap = dots + 6) => {
    out.push(await zplLine(s, x, y, dots, width - (x - 30)));
    y += gap;
  };
  if (d.test) {
    for (const l of TEST_LABEL_LINES) await line(l, 30);
    y += 10;
  }
  await line(d.service, 40, 30, 60);
  for (const l of lines(d.from)) await line(l, 22, 30, 26);
  y += 20;
  await line('SHIP TO', 24, 30, 32);
  for (const l of lines(d.to)) await line(l, 36, 50, 42);
  y += 30;
  out.push(`^FO30,${y}^BY3^BCN,180,N,N,N^FD${d.tracking.replace(/[^\x20-\x7e]|[\^~\\]/g, '')}^FS`);
  y += 200;
  await line(`TRACKING # ${d.tracking}`, 30, 30, 50);
  if (d.weight) await line(`Weight: ${d.weight}`, 24, 30, 30);
  if (d.reference) await line(`Ref: ${d.reference}`, 24);
  out.push('^XZ');
  return `${out.join('\n')}\n`;
}
