import { inflateSync } from 'node:zlib';
import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';
import { PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';

// Reading back the PDFs fos renders (labels, packing slips, manifests): the text drawn with Tj
// (pdf-lib writes hex strings, in deflated content streams) and the first image, as luminance,
// for ZXing — a real Code 128 reader — to decode.

export interface PdfImage {
  width: number;
  height: number;
  lum: Uint8ClampedArray;
}

export async function parsePdf(bytes: Buffer) {
  const doc = await PDFDocument.load(bytes);
  let text = '';
  let image: PdfImage | undefined;
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFRawStream)) continue;
    const dict = obj.dict;
    const raw = Buffer.from(obj.contents);
    const data = dict.get(PDFName.of('Filter'))?.toString() === '/FlateDecode' ? inflateSync(raw) : raw;
    if (dict.get(PDFName.of('Subtype'))?.toString() === '/Image') {
      if (image) continue;
      const width = (dict.get(PDFName.of('Width')) as PDFNumber).asNumber();
      const height = (dict.get(PDFName.of('Height')) as PDFNumber).asNumber();
      const channels = data.length / (width * height);
      if (channels !== 1 && channels !== 3) continue; // an alpha mask
      const lum = new Uint8ClampedArray(width * height);
      for (let i = 0; i < width * height; i++)
        lum[i] = channels === 1 ? data[i] : Math.round((data[3 * i] + data[3 * i + 1] + data[3 * i + 2]) / 3);
      image = { width, height, lum };
      continue;
    }
    for (const m of data.toString('latin1').matchAll(/<([0-9A-Fa-f]+)> Tj/g)) text += `${Buffer.from(m[1], 'hex').toString('latin1')}\n`;
  }
  return { doc, text, image };
}

export function decodeCode128(image: PdfImage): string {
  const reader = new MultiFormatReader();
  reader.setHints(
    new Map<DecodeHintType, unknown>([
      [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128]],
      [DecodeHintType.TRY_HARDER, true],
    ]),
  );
  return reader.decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(image.lum, image.width, image.height)))).getText();
}
