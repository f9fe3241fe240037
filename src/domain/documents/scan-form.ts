import type { PDFPage } from 'pdf-lib';
import { barcodeImage } from './barcode.js';
import { loadPdfLib } from './pdf-lib.js';
import { PdfText, stringsOf } from './pdf-text.js';
import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import * as store from './store.js';

// The manifest of a scan form (GET /v1/ops/scan-forms/{id}/manifest): what the driver signs for.
// US Letter: carrier, warehouse and its address, the day, the form id as a Code 128 barcode the
// carrier scans once for every package, then one row per package (tracking number, service,
// weight, order) and the totals. Rendered on request from the packages that point to the form.

const PAGE: [number, number] = [612, 792];
const M = 40;
const ROW = 13;

export async function scanFormPdf(db: Db, teamId: string, id: string): Promise<Uint8Array> {
  const form = await store.findTeamScanForm(db.prisma, teamId, id);
  if (!form) throw notFound('Scan form', id);
  const [warehouse, packages] = await Promise.all([
    store.findWarehouse(db.prisma, form.warehouse_id),
    store.findManifestPackages(db.prisma, id),
  ]);

  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.create();
  doc.setTitle(`Scan form ${form.carrier_name ?? form.carrier_id} ${form.form_date}`);
  doc.setCreator('fos');
  doc.setCreationDate(form.created_at);
  const t = await PdfText.for(doc, stringsOf([warehouse, packages, form.carrier_name, 'SCAN FORM / MANIFEST']));
  const [font, bold] = [false, true];
  let page: PDFPage = doc.addPage(PAGE);
  let y = PAGE[1] - M;
  const text = (s: string, size: number, f = font, x = M, width = PAGE[0] - M - x) => {
    t.draw(page, s, { x, y, size, bold: f, maxWidth: width });
  };
  const line = (s: string, size: number, f = font) => {
    y -= size + 4;
    text(s, size, f);
  };

  line('SCAN FORM / MANIFEST', 18, bold);
  line(`Carrier: ${form.carrier_name ?? form.carrier_id}`, 12, bold);
  line(`From: ${warehouse?.name ?? form.warehouse_id}`, 10);
  const addr = [warehouse?.address1, [warehouse?.city, warehouse?.state, warehouse?.zip].filter(Boolean).join(' '), warehouse?.country]
    .filter(Boolean)
    .join(', ');
  if (addr) line(addr, 10);
  line(`Date: ${form.form_date}    Packages: ${packages.length}`, 10);
  line(`Form: ${form.id}`, 9);
  const code = await barcodeImage(doc, form.id, 2);
  const bw = Math.min(PAGE[0] - 2 * M, code.width);
  y -= 46;
  code.draw(page, M, y, bw, 40);
  y -= 10;

  const cols = [M, M + 28, M + 200, M + 360, M + 430];
  const header = () => {
    y -= ROW + 2;
    ['#', 'Tracking number', 'Service', 'Weight', 'Order / package'].forEach((h, i) =>
      text(h, 9, bold, cols[i], (cols[i + 1] ?? PAGE[0] - M) - cols[i] - 4),
    );
    page.drawLine({ start: { x: M, y: y - 3 }, end: { x: PAGE[0] - M, y: y - 3 }, thickness: 0.5 });
  };
  header();
  packages.forEach((p, i) => {
    if (y - ROW < M + 40) {
      page = doc.addPage(PAGE);
      y = PAGE[1] - M;
      header();
    }
    y -= ROW;
    const ref = [p.fulfillment_order?.order.order_number, p.name].filter(Boolean).join(' / ');
    const cells = [
      String(i + 1),
      p.shipping_label?.tracking_code ?? '',
      p.shipping_label?.formatted_service ?? '',
      p.weight !== null ? `${p.weight} ${p.weight_unit ?? ''}`.trim() : '',
      ref,
    ];
    cells.forEach((c, j) => text(c, 9, j === 1 ? bold : font, cols[j], (cols[j + 1] ?? PAGE[0] - M) - cols[j] - 4));
  });
  y -= ROW * 2;
  if (y < M + 30) {
    page = doc.addPage(PAGE);
    y = PAGE[1] - M;
  }
  text(`Total packages: ${packages.length}`, 11, bold);
  y -= ROW * 2.5;
  text('Driver signature: ______________________________    Time: __________', 10);
  return doc.save();
}
