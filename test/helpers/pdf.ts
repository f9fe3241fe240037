import { execFileSync } from 'node:child_process';
import { inflateSync } from 'node:zlib';
import { BinaryBitmap, Code128Reader, GlobalHistogramBinarizer, RGBLuminanceSource } from '@zxing/library';
import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';

// Reading back the PDFs fos renders (labels, packing slips, manifests): the text as a PDF reader
// extracts it (pdf.js, through the fonts' ToUnicode maps: a line per drawn line), the fonts
// (embedded or not) and the first image, as luminance, for ZXing — a real Code 128 reader — to decode.

export interface PdfImage {
  width: number;
  height: number;
  lum: Uint8ClampedArray;
}

/**
 * The text of every page as pdf.js extracts it, a line per drawn line or table cell: items on
 * one baseline are joined (with a space where a space's width lies between them, as between two
 * runs of different fonts), a gap wider than a character starts a new line (the next cell).
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await getDocument({ data: new Uint8Array(bytes), disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  let text = '';
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    let prev: { y: number; end: number } | null = null;
    for (const item of content.items) {
      if (!('str' in item) || !item.str.trim()) continue;
      const [size, , , , x, y] = item.transform as number[];
      if (prev) {
        const gap = x - prev.end;
        text += Math.abs(y - prev.y) > 1 || gap > size * 0.5 ? '\n' : gap > size * 0.15 && !text.endsWith(' ') ? ' ' : '';
      }
      text += item.str;
      prev = { y, end: x + item.width };
    }
    text += '\n';
  }
  await pdf.destroy();
  return text;
}

/** The fonts of a PDF: base name and whether its file is embedded (FontFile, FontFile2 or FontFile3). */
export function pdfFonts(doc: PDFDocument): { name: string; embedded: boolean }[] {
  const out: { name: string; embedded: boolean }[] = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.get(PDFName.of('Type'))?.toString() !== '/FontDescriptor') continue;
    const embedded = ['FontFile', 'FontFile2', 'FontFile3'].some((k) => obj.get(PDFName.of(k)));
    out.push({ name: String(obj.get(PDFName.of('FontName'))), embedded });
  }
  return out;
}

export async function parsePdf(bytes: Buffer) {
  const doc = await PDFDocument.load(bytes);
  const text = await pdfText(bytes);
  // Every image, in the order the objects were written (not page order: a merged PDF's objects
  // need not follow its pages), and `image`, the first, for one-barcode documents.
  const images: PdfImage[] = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream)) continue;
    const dict = obj.dict;
    const raw = Buffer.from(obj.contents);
    const data = dict.get(PDFName.of('Filter'))?.toString() === '/FlateDecode' ? inflateSync(raw) : raw;
    if (dict.get(PDFName.of('Subtype'))?.toString() === '/Image') {
      const width = (dict.get(PDFName.of('Width')) as PDFNumber).asNumber();
      const height = (dict.get(PDFName.of('Height')) as PDFNumber).asNumber();
      const channels = data.length / (width * height);
      if (channels !== 1 && channels !== 3) continue; // an alpha mask
      const lum = new Uint8ClampedArray(width * height);
      for (let i = 0; i < width * height; i++)
        lum[i] = channels === 1 ? data[i] : Math.round((data[3 * i] + data[3 * i + 1] + data[3 * i + 2]) / 3);
      images.push({ width, height, lum });
    }
  }
  return { doc, text, image: images[0] as PdfImage | undefined, images };
}

export function decodeCode128(image: PdfImage): string {
  // ZXing's Code 128 row decoder on every pixel row, left to right, as a scanner reads the strip.
  // Not MultiFormatReader: it misread a valid code (bwip-js's "UPS1440852862389257" came back as
  // "477739264490") that this decoder reads right on every row.
  const bitmap = new BinaryBitmap(new GlobalHistogramBinarizer(new RGBLuminanceSource(image.lum, image.width, image.height)));
  const reads = new Set<string>();
  for (let y = 0; y < image.height; y++) {
    try {
      reads.add(new Code128Reader().decodeRow(y, bitmap.getBlackRow(y, null as never), new Map()).getText());
    } catch {
      // a row without a whole code (an edge row): the others decide
    }
  }
  if (reads.size !== 1) throw new Error(`Code 128: ${reads.size ? `rows disagree: ${[...reads].join(', ')}` : 'no row decodes'}`);
  return [...reads][0];
}

/**
 * The dark pixels of each pixel row of a PDF's first page, top to bottom, as poppler (pdftoppm)
 * rasterizes it at `dpi`: where text was drawn with glyphs that have outlines, there is ink.
 */
export function pdfInkRows(bytes: Uint8Array, dpi: number): number[] {
  const pgm = execFileSync('pdftoppm', ['-gray', '-r', String(dpi), '-f', '1', '-l', '1', '-'], {
    input: bytes,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'))!;
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length);
  return Array.from({ length: height }, (_, y) => pixels.subarray(y * width, (y + 1) * width).filter((v) => v < 128).length);
}
