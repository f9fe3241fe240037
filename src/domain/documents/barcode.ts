import type { PDFDocument, PDFPage } from 'pdf-lib';

// Code 128 barcodes on fos's PDFs (the label's tracking number, the packing slip's order number,
// the scan form's id), drawn by bwip-js. A 1-D code only varies across: the image is made a few
// rows high and stretched when drawn, so the PDF carries (and deflates) a strip, not a picture.

export interface PdfBarcode {
  /** Width of the image in pixels (`scale` pixels a module): the caller picks the drawn size. */
  width: number;
  draw: (page: PDFPage, x: number, y: number, width: number, height: number) => void;
}

/** Code 128 of `text`, embedded in `doc`, black bars on white with quiet zones, no human-readable text. */
export async function barcodeImage(doc: PDFDocument, text: string, scale = 3): Promise<PdfBarcode> {
  const { default: bwipjs } = await import('bwip-js');
  const png = await doc.embedPng(
    await bwipjs.toBuffer({
      bcid: 'code128',
      text,
      scale,
      height: 2,
      includetext: false,
      paddingwidth: 10,
      paddingheight: 0,
      backgroundcolor: 'FFFFFF',
    }),
  );
  return {
    width: png.width,
    draw: (page, x, y, width, height) => page.drawImage(png, { x, y, width, height }),
  };
}
