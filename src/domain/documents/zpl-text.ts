import { facesOf, featuresOf, loadFace, runsOf, visualPieces, type Face } from './fonts.js';

// Text on a ZPL label (docs/fulfillment.md "Scripts on labels and slips"). Printable ASCII goes
// as text in the printer's font 0 (^A0, crisp and small); any other line (Zoë, 李明, عربي) is
// drawn from the same embedded fonts as the PDF label and sent as a ^GF graphic field, which
// every ZPL printer prints: font 0 has no CJK or Arabic, and a Unicode font on the printer
// (^CI28 with ^A@ naming a TrueType file) is there only if someone downloaded it to that printer.

const PLAIN = /^[\x20-\x7e]*$/;

/** `s` without ZPL's command characters (^ ~ \), as ^FD data. */
const fieldData = (s: string) => s.replace(/[\^~\\]/g, ' ');

/** One line at (x, y), `dots` high: a text field when font 0 can print it, else a graphic. */
export async function zplLine(s: string, x: number, y: number, dots: number, maxWidth: number): Promise<string> {
  if (PLAIN.test(s)) return `^FO${x},${y}^A0N,${dots},${dots}^FD${fieldData(s).slice(0, Math.floor((maxWidth / dots) * 1.8))}^FS`;
  const { width, height, hex } = await textGraphic(s, dots, maxWidth);
  const bytes = (width / 8) * height;
  return `^FO${x},${y}^GFA,${bytes},${bytes},${width / 8},${hex}^FS`;
}

/** `s` rasterized 1 bit a dot (width a multiple of 8), black = 1, as ^GF wants it in hex. */
export async function textGraphic(s: string, dots: number, maxWidth: number) {
  const faces = new Map<Face, Awaited<ReturnType<typeof loadFace>>>();
  for (const f of facesOf(s, false)) faces.set(f, await loadFace(f));
  const runs = runsOf(s, false, (f, cp) => !!faces.get(f)?.font.hasGlyphForCodePoint(cp));
  const baseline = Math.round(dots * 0.8);
  let pen = 0;
  const paths: string[] = [];
  for (const run of runs) {
    const { font } = faces.get(run.face) ?? faces.get('sans')!;
    const scale = dots / font.unitsPerEm;
    for (const piece of visualPieces(run)) {
      const laid = font.layout(piece, featuresOf(run.face));
      laid.glyphs.forEach((g, i) => {
        const p = laid.positions[i];
        const gx = pen + (p.xOffset ?? 0) * scale;
        const d = g.path.toSVG();
        if (d && gx < maxWidth)
          paths.push(`<path transform="translate(${gx.toFixed(2)} ${baseline}) scale(${scale} ${-scale})" d="${d}"/>`);
        pen += p.xAdvance * scale;
      });
    }
  }
  const width = Math.max(8, Math.ceil(Math.min(pen, maxWidth) / 8) * 8);
  const height = Math.ceil(dots * 1.05);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${paths.join('')}</svg>`;
  const { default: sharp } = await import('sharp');
  const gray = await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).toColourspace('b-w').raw().toBuffer();
  const row = width / 8;
  const bits = Buffer.alloc(row * height);
  for (let yy = 0; yy < height; yy++)
    for (let xx = 0; xx < width; xx++) if (gray[yy * width + xx] < 128) bits[yy * row + (xx >> 3)] |= 0x80 >> (xx & 7);
  return { width, height, hex: bits.toString('hex').toUpperCase() };
}
