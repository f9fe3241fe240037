import type { Font } from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { subsetFace } from './font-subset.js';
import { cachingFontkit, facesOf, featuresOf, isRtlFace, loadFace, runsOf, visualPieces, type Face, type Run } from './fonts.js';

// Text in any script on the pages of one PDF (labels, packing slips, manifests). A document whose
// strings are all WinAnsi (most labels) is drawn in the standard Helvetica faces: nothing embedded,
// a label of ~12 KB. Any other document cuts each string into runs of one face (fonts.ts) drawn
// run after run, each face embedded once as a HarfBuzz subset (font-subset.ts) of the code points
// the document's strings route to it: tens of KB, where the whole faces were 0.6 to 8 MB.

/** What the standard fonts' WinAnsi encoding holds (Latin-1 and the CP1252 extras: — € … “ ” •). */
const WIN_ANSI = /^[\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]*$/u;
/** Drawn by a face besides its own strings: the ellipsis `fit` adds, and neutral ASCII a run may take in. */
const ALWAYS = [...' 0123456789.,:;-/#()…·'].map((c) => c.codePointAt(0)!);
/** The Latin faces carry WinAnsi whole, so a string cut by `fit` or a heading never misses a glyph. */
const LATIN_BASE = Array.from({ length: 0x100 - 0x20 }, (_, i) => i + 0x20).filter((cp) => cp < 0x7f || cp >= 0xa0);

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

/**
 * The code points a run needs in its face's subset. An Arabic run is shaped into joining forms and
 * ligatures whose glyphs the face's cmap maps from presentation-form code points (U+FB50-U+FEFF);
 * pdf-lib writes a font's widths and ToUnicode from its cmap, so the forms of the run's letters
 * are kept too: without them the shaped glyphs get no width (poppler spaces them apart) and a
 * reader extracts nothing.
 */
function addRun(into: Set<number>, run: Run, font: Font) {
  const letters = new Set<string>();
  for (const ch of run.text) {
    into.add(ch.codePointAt(0)!);
    letters.add(ch);
  }
  if (!isRtlFace(run.face)) return;
  for (const [cp, base] of presentationForms(font)) if ([...base].every((ch) => letters.has(ch))) into.add(cp);
}

/** A face's presentation-form code points, each with the letters it stands for (its NFKC form). */
const formsOf = new WeakMap<Font, [number, string][]>();
function presentationForms(font: Font): [number, string][] {
  let forms = formsOf.get(font);
  if (!forms) {
    forms = font.characterSet.filter((cp) => cp >= 0xfb50 && cp <= 0xfeff).map((cp) => [cp, String.fromCodePoint(cp).normalize('NFKC')]);
    formsOf.set(font, forms);
  }
  return forms;
}

export class PdfText {
  private constructor(
    private readonly fonts: Map<Face, PDFFont>,
    /** The whole faces' cmaps (which face draws a character); null when drawn in the standard fonts. */
    private readonly parsed: Map<Face, Font> | null,
  ) {}

  /** The faces `strings` need, loaded and embedded in `doc` (before any text is drawn). */
  static async for(doc: PDFDocument, strings: Iterable<string>): Promise<PdfText> {
    const all = [...strings];
    if (all.every((s) => WIN_ANSI.test(s))) {
      const { StandardFonts } = await import('pdf-lib');
      const regular = await doc.embedFont(StandardFonts.Helvetica);
      const bold = await doc.embedFont(StandardFonts.HelveticaBold);
      return new PdfText(
        new Map([
          ['sans', regular],
          ['sansBold', bold],
        ]),
        null,
      );
    }
    doc.registerFontkit(await cachingFontkit());
    const parsed = new Map<Face, Font>();
    for (const s of all) for (const bold of [false, true]) for (const f of facesOf(s, bold)) parsed.set(f, (await loadFace(f)).font);
    for (const f of ['sans', 'sansBold'] as const) parsed.set(f, (await loadFace(f)).font);
    const has = (f: Face, cp: number) => !!parsed.get(f)?.hasGlyphForCodePoint(cp);
    const used = new Map<Face, Set<number>>([...parsed.keys()].map((f) => [f, new Set(ALWAYS)]));
    for (const cp of LATIN_BASE) for (const f of ['sans', 'sansBold'] as const) used.get(f)!.add(cp);
    for (const s of all)
      for (const bold of [false, true]) for (const run of runsOf(s, bold, has)) addRun(used.get(run.face)!, run, parsed.get(run.face)!);
    const fonts = new Map<Face, PDFFont>();
    for (const [face, cps] of used) {
      const bytes = await subsetFace(face, cps);
      fonts.set(face, await doc.embedFont(bytes, { subset: false, features: featuresOf(face) }));
    }
    return new PdfText(fonts, parsed);
  }

  private pieces(s: string, bold: boolean): Piece[] {
    if (!this.parsed) return [{ font: this.fonts.get(bold ? 'sansBold' : 'sans')!, text: s }];
    const parsed = this.parsed;
    const has = (f: Face, cp: number) => !!parsed.get(f)?.hasGlyphForCodePoint(cp);
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
