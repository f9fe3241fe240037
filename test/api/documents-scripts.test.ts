import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { textGraphic } from '../../src/domain/documents/zpl-text.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { fulfillmentFixture } from '../helpers/fixtures.js';
import { PdfText } from '../../src/domain/documents/pdf-text.js';
import { decodeCode128, parsePdf, pdfFonts, pdfInkRows } from '../helpers/pdf.js';

// Every script prints (docs/fulfillment.md "Scripts on labels and slips"): a customer named in
// Latin with diacritics, Chinese, Greek, Cyrillic and Arabic, and a note with an em dash, read
// back from the label and the packing slip as a PDF reader extracts them (pdf.js, through the
// embedded fonts' ToUnicode maps), never as '?'; the ZPL label draws such lines as ^GF graphics;
// the slip's order-number barcode scans (ZXing) to the order number.

const NAME = 'Zoë Łukasiewicz 李明 Ωμέγα Щука عربي';
const NOTE = 'Friday — ship today';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await testApp();
  token = (await t.key({ tier: 4 })).token;
  const rate = await call('POST', '/v1/ops/carrier-rates', {
    carrier_id: 'ups',
    carrier_name: 'UPS',
    service_id: 'ground',
    service_name: 'Ground',
    amount: 5,
    per_unit_weight: 0.001,
    weight_unit: 'G',
    estimated_days: 3,
  });
  expect(rate.statusCode, rate.body).toBe(201);
});
afterAll(() => t?.close());

const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });

async function labelled(format: 'PDF' | 'ZPL' = 'PDF', name = NAME, address1 = 'ул. Тверская 7') {
  const address = { name, address1, city: 'Kraków', zip: '30-001', country: 'PL' };
  const f = await fulfillmentFixture(t, { lines: [{ quantity: 1 }], status: 'ACCEPTED', shippingAddress: address });
  await t.db.prisma.order.update({ where: { id: f.order.id }, data: { note: NOTE } });
  const p = await call('POST', '/v1/ops/packages', {
    fulfillment_order_id: f.fo.id,
    name: 'Box 1',
    weight: 900,
    weight_unit: 'G',
    package_line_items: [{ sku: f.foLines[0].sku, quantity: 1 }],
  });
  expect(p.statusCode, p.body).toBe(201);
  const l = await call('POST', `/v1/ops/packages/${p.json().id}/label`, { rate_strategy: 'CHEAPEST', label_format: format });
  expect(l.statusCode, l.body).toBe(200);
  return { f, id: p.json().id as string };
}

function expectEmbeddedScripts(doc: PDFDocument, raw: string) {
  // A reader may give Arabic as its presentation forms (the shaped glyphs' code points): the same text under NFKC.
  const text = raw.normalize('NFKC');
  expect(text).toContain(NAME);
  expect(text).toContain('ул. Тверская 7');
  expect(text).not.toContain('?');
  const fonts = pdfFonts(doc);
  expect(fonts.length).toBeGreaterThan(0);
  expect(fonts.every((f) => f.embedded)).toBe(true); // no standard (unembedded) font is left
  const names = fonts.map((f) => f.name).join(' ');
  for (const face of ['NotoSans', 'NotoSansHans', 'NotoNaskhArabic']) expect(names).toContain(face);
}

describe('documents in every script', () => {
  it('the label PDF carries the name in Latin, Chinese, Greek, Cyrillic and Arabic with embedded fonts', async () => {
    const { id } = await labelled();
    const res = await call('GET', `/v1/ops/packages/${id}/label`);
    expect(res.statusCode, res.body).toBe(200);
    const { doc, text } = await parsePdf(res.rawPayload);
    expectEmbeddedScripts(doc, text);
    expect(text).toContain('Kraków 30-001');
    expect(res.rawPayload.length).toBeLessThan(300_000); // subsets of the faces, not the 8 MiB files
  }, 120_000);

  it('a label all in WinAnsi uses the standard fonts: nothing embedded, a few KB', async () => {
    const { id } = await labelled('PDF', 'Zoë Müller', '12 Rue de la Paix');
    const res = await call('GET', `/v1/ops/packages/${id}/label`);
    expect(res.statusCode, res.body).toBe(200);
    const { doc, text } = await parsePdf(res.rawPayload);
    expect(text).toContain('Zoë Müller');
    expect(pdfFonts(doc)).toEqual([]); // Helvetica has no font descriptor: nothing embedded
    expect(res.rawPayload.length).toBeLessThan(30_000);
  });

  it('every script leaves ink where it is drawn in a PDF (a subset that lost outlines draws blanks)', async () => {
    const lines = ['Zoë Łukasiewicz', '李明', 'Ωμέγα', 'Щука', 'عربي', '서울'];
    const doc = await PDFDocument.create();
    const page = doc.addPage([300, 40 * lines.length]);
    const t = await PdfText.for(doc, lines);
    lines.forEach((s, i) => t.draw(page, s, { x: 10, y: 40 * (lines.length - i) - 30, size: 20, bold: i % 2 === 1 }));
    const ink = pdfInkRows(await doc.save(), 72); // one row of pixels per point
    lines.forEach((s, i) => {
      const band = ink.slice(40 * i + 5, 40 * i + 40).reduce((a, b) => a + b, 0);
      expect(band, s).toBeGreaterThan(60);
    });
  }); // the first Chinese text reads and parses the 8 MiB font: slow on a loaded machine, once

  it('the packing slip carries the name and the note, and a Code 128 of the order number that scans', async () => {
    const { f, id } = await labelled();
    const res = await call('GET', `/v1/ops/packages/${id}/packing-slip`);
    expect(res.statusCode, res.body).toBe(200);
    const { doc, text, image } = await parsePdf(res.rawPayload);
    expectEmbeddedScripts(doc, text);
    expect(text.split('\n')).toContain(NOTE);
    expect(image).toBeDefined();
    expect(decodeCode128(image!)).toBe(f.order.order_number);
  }, 120_000);

  it('the ZPL label is UTF-8 (^CI28) and draws lines beyond ASCII as ^GF graphics from the embedded fonts', async () => {
    const { id } = await labelled('ZPL');
    const res = await call('GET', `/v1/ops/packages/${id}/label?format=zpl`);
    expect(res.statusCode, res.body).toBe(200);
    const zpl = res.body;
    expect(zpl.startsWith('^XA\n^CI28\n')).toBe(true);
    expect(zpl).not.toContain('?');
    expect(zpl).toContain('^A0N,24,24^FDSHIP TO^FS'); // ASCII stays text in font 0
    const graphics = [...zpl.matchAll(/\^GFA,(\d+),(\d+),(\d+),([0-9A-F]+)\^FS/g)];
    expect(graphics.length).toBeGreaterThanOrEqual(2); // the name, the Cyrillic street, Kraków
    for (const [, total, , row, hex] of graphics) {
      expect(hex.length).toBe(Number(total) * 2);
      expect(Number(total) % Number(row)).toBe(0);
      expect(/[1-9A-F]/.test(hex)).toBe(true); // some dots are printed
    }
  });

  it('a ^GF graphic of text is the glyphs: each script leaves ink, as wide as its text', async () => {
    const widths: number[] = [];
    for (const s of ['Zoë', '李明', 'Ωμέγα', 'Щука', 'عربي']) {
      const g = await textGraphic(s, 36, 700);
      const ink = Buffer.from(g.hex, 'hex').reduce((n, b) => n + (b.toString(2).match(/1/g)?.length ?? 0), 0);
      expect(ink, s).toBeGreaterThan(40);
      widths.push(g.width);
    }
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(40);
    expect((await textGraphic(NAME, 36, 760)).width).toBeGreaterThan(Math.max(...widths));
  });
});
