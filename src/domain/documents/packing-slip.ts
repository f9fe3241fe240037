import type { PDFFont, PDFPage } from 'pdf-lib';
import { loadPdfLib } from './pdf-lib.js';
import type { Db } from '../../db/types.js';
import { notFound } from '../errors.js';
import { resolveConfig } from '../fulfillment/package-config.js';

// Packing slip PDF of a package (spec 2.7 packing_slip_url), rendered on request so it always
// shows the package as it is now; served only to the fulfiller team (route: GET
// /v1/ops/packages/{id}/packing-slip). Honours the package config:
//  - show_prices_on_packing_slip: unit price and line total from the order line;
//  - show_unfulfilled_items_on_packing_list: a section of the fulfillment order's units that
//    are neither in this package nor fulfilled yet.

const PAGE: [number, number] = [612, 792]; // US Letter, points
const MARGIN = 48;

interface Line { sku: string | null; name: string; quantity: number; price: number | null }

export async function packingSlipPdf(db: Db, teamId: string, id: string): Promise<Uint8Array> {
  const pkg = await db.prisma.package.findFirst({
    where: { id, fulfiller_team_id: teamId },
    include: { line_items: { orderBy: { id: 'asc' } } },
  });
  if (!pkg) throw notFound('Package', id);
  const fo = pkg.fulfillment_order_id
    ? await db.prisma.fulfillmentOrder.findUnique({
      where: { id: pkg.fulfillment_order_id },
      include: { line_items: { orderBy: { id: 'asc' } }, order: { include: { line_items: { select: { id: true, price: true } } } } },
    })
    : null;
  const config = resolveConfig(null, pkg.config);
  const prices = config.show_prices_on_packing_slip === true;
  const priceOf = new Map((fo?.order.line_items ?? []).map((l) => [l.id, l.price]));
  const foLine = new Map((fo?.line_items ?? []).map((l) => [l.id, l]));
  const lines: Line[] = pkg.line_items.map((l) => {
    const f = l.core_fulfillment_order_line_item_id ? foLine.get(l.core_fulfillment_order_line_item_id) : undefined;
    return { sku: l.sku, name: l.name ?? f?.name ?? l.sku ?? '', quantity: l.quantity, price: f ? priceOf.get(f.order_line_item_id) ?? null : null };
  });
  const packed = new Map<string, number>();
  for (const l of pkg.line_items) {
    if (l.core_fulfillment_order_line_item_id) packed.set(l.core_fulfillment_order_line_item_id, (packed.get(l.core_fulfillment_order_line_item_id) ?? 0) + l.quantity);
  }
  const unfulfilled: Line[] = config.show_unfulfilled_items_on_packing_list === true
    ? (fo?.line_items ?? []).map((l) => ({
      sku: l.sku, name: l.name, quantity: l.remaining_quantity - (pkg.status === 'PENDING' ? packed.get(l.id) ?? 0 : 0),
      price: priceOf.get(l.order_line_item_id) ?? null,
    })).filter((l) => l.quantity > 0)
    : [];

  const { PDFDocument, StandardFonts } = await loadPdfLib();
  const doc = await PDFDocument.create();
  doc.setTitle(`Packing slip ${fo?.order.order_number ?? pkg.id}`);
  doc.setCreator('fos');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const w = new Writer(doc.addPage(PAGE), font, bold, () => doc.addPage(PAGE));
  w.text('Packing slip', 20, bold);
  if (fo) w.text(`Order ${fo.order.order_number}`, 12);
  w.text(`Package ${pkg.name ?? pkg.id}`, 10);
  const to = (pkg.to_address ?? {}) as Record<string, unknown>;
  const addr = ['name', 'company', 'street1', 'street2', 'city', 'state', 'zip', 'country']
    .map((k) => to[k]).filter((v): v is string => typeof v === 'string' && v.length > 0);
  if (addr.length) { w.gap(); w.text('Ship to', 11, bold); w.text(addr.join(', '), 10); }
  const currency = fo?.order.currency ?? 'USD';
  w.gap();
  w.table('In this package', lines, prices, currency);
  if (unfulfilled.length) { w.gap(); w.table('Not in this shipment (to follow)', unfulfilled, prices, currency); }
  return doc.save();
}

/** Top-to-bottom text on pages, a new page when one is full. */
class Writer {
  private y = PAGE[1] - MARGIN;
  constructor(private page: PDFPage, private font: PDFFont, private bold: PDFFont, private next: () => PDFPage) {}
  text(s: string, size: number, font = this.font, x = MARGIN) {
    if (this.y - size < MARGIN) { this.page = this.next(); this.y = PAGE[1] - MARGIN; }
    this.y -= size + 4;
    this.page.drawText(fit(s, font, size, PAGE[0] - MARGIN - x), { x, y: this.y, size, font });
  }
  gap() { this.y -= 10; }
  table(title: string, lines: Line[], prices: boolean, currency: string) {
    this.text(title, 12, this.bold);
    for (const l of lines) {
      const price = prices && l.price !== null ? `  ${l.price.toFixed(2)} ${currency} each, ${(l.price * l.quantity).toFixed(2)} ${currency}` : '';
      this.text(`${l.quantity} x  ${l.sku ? `${l.sku}  ` : ''}${l.name}${price}`, 10);
    }
  }
}

/** WinAnsi-safe text cut to the width (standard fonts cannot encode other characters). */
function fit(s: string, font: PDFFont, size: number, width: number): string {
  let out = s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
  while (out.length > 1 && font.widthOfTextAtSize(out, size) > width) out = out.slice(0, -2) + '…'.replace('…', '.');
  return out;
}
