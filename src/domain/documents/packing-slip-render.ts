import type { PDFDocument, PDFPage } from 'pdf-lib';
import { barcodeImage, type PdfBarcode } from './barcode.js';
import { loadPdfLib } from './pdf-lib.js';
import { PdfText, stringsOf } from './pdf-text.js';

// Layout of the packing slip (data: packing-slip.ts): US Letter pages, an item table whose rows
// continue on new pages under a repeated header, "Page i of n" at the foot of every page. The
// order number is also a Code 128 barcode: scanned at the pack station, it opens the order.
// Text in any script (pdf-text.ts).

const PAGE: [number, number] = [612, 792]; // US Letter, points
const MARGIN = 48;
const FOOT = 36;

export interface SlipLine {
  sku: string | null;
  name: string;
  ordered: number;
  shipped: number;
  remaining: number;
  price: number | null;
}

export interface Slip {
  title: string;
  merchant: string | null;
  returnAddress: string[];
  orderNumber: string | null;
  orderDate: Date | null;
  packageName: string;
  shipTo: string[];
  items: SlipLine[];
  toFollow: SlipLine[];
  prices: boolean;
  currency: string;
  note: string | null;
}

// Column x positions: SKU, description, ordered, shipped, remaining, unit price, total.
const COLS = { sku: MARGIN, name: 150, ordered: 320, shipped: 370, remaining: 420, price: 476, total: 524 };

export async function renderSlip(slip: Slip): Promise<Uint8Array> {
  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.create();
  doc.setTitle(slip.title);
  doc.setCreator('fos');
  const w = new Writer(doc, await PdfText.for(doc, [...stringsOf(slip), LABELS]));
  w.text(slip.merchant ?? 'Packing slip', 16, true);
  for (const l of slip.returnAddress) w.text(l, 9);
  w.gap();
  w.text('Packing slip', 20, true);
  if (slip.orderNumber) {
    w.text(`Order ${slip.orderNumber}`, 12, true);
    w.image(await barcodeImage(doc, slip.orderNumber), 36);
  }
  if (slip.orderDate) w.text(`Order date ${slip.orderDate.toISOString().slice(0, 10)}`, 10);
  w.text(`Package ${slip.packageName}`, 10);
  if (slip.shipTo.length) {
    w.gap();
    w.text('Ship to', 11, true);
    for (const l of slip.shipTo) w.text(l, 10);
  }
  w.gap();
  w.table('In this package', slip.items, slip.prices, slip.currency);
  if (slip.prices) {
    const total = slip.items.reduce((sum, l) => sum + (l.price ?? 0) * l.shipped, 0);
    w.text(`Total of this package: ${total.toFixed(2)} ${slip.currency}`, 10, true);
  }
  if (slip.toFollow.length) {
    w.gap();
    w.table('Not in this shipment (to follow)', slip.toFollow, slip.prices, slip.currency);
  }
  if (slip.note) {
    w.gap();
    w.text('Note', 11, true);
    for (const l of wrap(slip.note, 100)) w.text(l, 10);
  }
  w.pageNumbers();
  return doc.save();
}

const LABELS = 'Packing slip Order date Package Ship to In this package Not in this shipment (to follow) Note Page of SKU Description…';

/** Top-to-bottom text on pages, a new page when one is full. */
class Writer {
  private page: PDFPage;
  private y = PAGE[1] - MARGIN;
  constructor(
    private doc: PDFDocument,
    private t: PdfText,
  ) {
    this.page = doc.addPage(PAGE);
  }
  /** Room for `height` more points on this page, else a new page. Returns true on a new page. */
  private room(height: number): boolean {
    if (this.y - height >= MARGIN + FOOT) return false;
    this.page = this.doc.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
    return true;
  }
  text(s: string, size: number, bold = false, x = MARGIN) {
    this.room(size + 4);
    this.y -= size + 4;
    this.draw(s, x, size, bold, PAGE[0] - MARGIN - x);
  }
  /** An image `height` points high at its own proportions (at most the text width). */
  image(img: PdfBarcode, height: number) {
    const width = Math.min(PAGE[0] - 2 * MARGIN, img.width / 2);
    this.room(height + 6);
    this.y -= height + 6;
    img.draw(this.page, MARGIN, this.y, width, height);
  }
  private draw(s: string, x: number, size: number, bold: boolean, width: number) {
    this.t.draw(this.page, s, { x, y: this.y, size, bold, maxWidth: width });
  }
  gap() {
    this.y -= 10;
  }
  private row(cells: [keyof typeof COLS, string][], bold: boolean) {
    this.y -= 14;
    const keys = Object.keys(COLS) as (keyof typeof COLS)[];
    for (const [key, value] of cells) {
      const next = keys[keys.indexOf(key) + 1];
      this.draw(value, COLS[key], 9, bold, (next ? COLS[next] : PAGE[0] - MARGIN + 16) - COLS[key] - 6);
    }
  }
  table(title: string, lines: SlipLine[], prices: boolean, _currency: string) {
    const header = (): [keyof typeof COLS, string][] => [
      ['sku', 'SKU'],
      ['name', 'Description'],
      ['ordered', 'Ordered'],
      ['shipped', 'Shipped'],
      ['remaining', 'Remaining'],
      ...(prices
        ? ([
            ['price', 'Price'],
            ['total', 'Total'],
          ] as [keyof typeof COLS, string][])
        : []),
    ];
    this.text(title, 12, true);
    this.row(header(), true);
    for (const l of lines) {
      if (this.room(14)) this.row(header(), true); // the header again on a new page
      this.row(
        [
          ['sku', l.sku ?? ''],
          ['name', l.name],
          ['ordered', String(l.ordered)],
          ['shipped', String(l.shipped)],
          ['remaining', String(l.remaining)],
          ...(prices && l.price !== null
            ? ([
                ['price', l.price.toFixed(2)],
                ['total', (l.price * l.shipped).toFixed(2)],
              ] as [keyof typeof COLS, string][])
            : []),
        ],
        false,
      );
    }
  }
  /** "Page i of n" centred at the foot of every page. */
  pageNumbers() {
    const pages = this.doc.getPages();
    pages.forEach((p, i) => {
      const s = `Page ${i + 1} of ${pages.length}`;
      this.t.draw(p, s, { x: (PAGE[0] - this.t.width(s, 8)) / 2, y: FOOT - 12, size: 8 });
    });
  }
}

function wrap(s: string, max: number): string[] {
  const out: string[] = [];
  for (const para of s.split(/\r?\n/)) {
    let line = '';
    for (const word of para.split(/\s+/)) {
      if (line && line.length + word.length + 1 > max) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(line);
  }
  return out;
}
