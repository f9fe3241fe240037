import type { Font } from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { cachingFontkit, facesOf, featuresOf, loadFace, runsOf, visualPieces, type Face } from './fonts.js';

// Text in any script on the pages of one PDF (labels, packing slips, manifests): each string is
// cut into runs of one face (fonts.ts) and drawn run after run; each face is embedded once per
// document (whole: see `for`), only the faces its strings need.

export interface TextOptions {
  x: number;
  y: number;
  size: number;
  bold?: boolean;
  /** Cut to this width, with an ellipsis. */
  maxWidth?: number;
}

interface Piece {
  font: PDFFont;
  text: string;
}

/** Every string under a value (a slip, a label's data): what the document will draw. */
export function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object' && !(value instanceof Date)) for (const v of Object.values(value)) stringsOf(v, out);
  return out;
}

export class PdfText {
  private constructor(
    private readonly fonts: Map<Face, PDFFont>,
    private readonly parsed: Map<Face, Font>,
  ) {}

  /** The faces `strings` need, loaded and embedded in `doc` (before any text is drawn). */
  static async for(doc: PDFDocument, strings: Iterable<string>): Promise<PdfText> {
    doc.registerFontkit(await cachingFontkit());
    const faces = new Set<Face>(['sans', 'sansBold']);
    for (const s of strings) for (const bold of [false, true]) for (const f of facesOf(s, bold)) faces.add(f);
    const fonts = new Map<Face, PDFFont>();
    const parsed = new Map<Face, Font>();
    for (const face of faces) {
      const { bytes, font } = await loadFace(face);
      parsed.set(face, font);
      // Whole faces: @pdf-lib/fontkit's subsets of these Noto files lose most glyph outlines (poppler
      // draws only a few letters; the text still extracts), so no subset until that is fixed.
      fonts.set(face, await doc.embedFont(bytes, { subset: false, features: featuresOf(face) }));
    }
    return new PdfText(fonts, parsed);
  }

  private pieces(s: string, bold: boolean): Piece[] {
    const has = (f: Face, cp: number) => !!this.parsed.get(f)?.hasGlyphForCodePoint(cp);
    return runsOf(s, bold, has).flatMap((run) => {
      const font = this.fonts.get(run.face) ?? this.fonts.get(bold ? 'sansBold' : 'sans')!;
      return visualPieces(run).map((text) => ({ font, text }));
    });
  }

  width(s: string, size: number, bold = false): number {
    return this.pieces(s, bold).reduce((w, p) => w + p.font.widthOfTextAtSize(p.text, size), 0);
  }

  /** `s` as is when it fits `width`, else its longest head that fits with an ellipsis. */
  fit(s: string, size: number, width: number, bold = false): string {
    if (this.width(s, size, bold) <= width) return s;
    const chars = [...s];
    let lo = 1;
    let hi = chars.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (this.width(`${chars.slice(0, mid).join('')}…`, size, bold) <= width) lo = mid;
      else hi = mid - 1;
    }
    return `${chars.slice(0, lo).join('').trimEnd()}…`;
  }

  draw(page: PDFPage, s: string, o: TextOptions) {
    const bold = o.bold ?? false;
    const text = o.maxWidth !== undefined ? this.fit(s, o.size, o.maxWidth, bold) : s;
    let x = o.x;
    for (const p of this.pieces(text, bold)) {
      page.drawText(p.text, { x, y: o.y, size: o.size, font: p.font });
      x += p.font.widthOfTextAtSize(p.text, o.size);
    }
  }
}
