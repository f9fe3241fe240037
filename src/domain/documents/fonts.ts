import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Font } from '@pdf-lib/fontkit';

// The fonts documents are drawn with (docs/fulfillment.md "Scripts on labels and slips"): Noto
// from npm packages (OFL), read from disk the first time a document needs them, never fetched.
// Noto Sans covers Latin (with diacritics), Greek and Cyrillic; Noto Naskh Arabic shapes Arabic
// (GSUB); Noto Sans Hans (Chinese, with kana) and Noto Sans KR (Hangul) are 8 and 4.5 MiB, so
// they are read only when a text holds a character of theirs. Parsed fonts are kept for the
// process: fontkit reads a font's tables lazily and keeps what it read, so the second label
// does not parse the font again. Bold CJK uses the regular face (one file each is carried).

export const FONT_FACES = {
  sans: { pkg: '@embedpdf/fonts-latin', file: 'NotoSans-Regular.ttf' },
  sansBold: { pkg: '@embedpdf/fonts-latin', file: 'NotoSans-Bold.ttf' },
  arabic: { pkg: '@embedpdf/fonts-arabic', file: 'NotoNaskhArabic-Regular.ttf' },
  arabicBold: { pkg: '@embedpdf/fonts-arabic', file: 'NotoNaskhArabic-Bold.ttf' },
  han: { pkg: '@embedpdf/fonts-sc', file: 'NotoSansHans-Regular.otf' },
  hangul: { pkg: '@embedpdf/fonts-kr', file: 'NotoSansKR-Regular.otf' },
} as const;
export type Face = keyof typeof FONT_FACES;

/** Where a face's file is. Swappable (setFontPathResolver) for a build that carries the files itself. */
export type FontPathResolver = (face: Face, spec: (typeof FONT_FACES)[Face]) => string;

const require = createRequire(import.meta.url);
/** The package's own copy: its entry point is dist/index.*, the files are in fonts/ beside dist/. */
const fromPackage: FontPathResolver = (_face, { pkg, file }) => join(dirname(dirname(require.resolve(pkg))), 'fonts', file);
/** FOS_FONT_DIR: a folder holding the files by their file names (FONT_FACES[*].file). */
const defaultResolver: FontPathResolver = (face, spec) =>
  process.env.FOS_FONT_DIR ? join(process.env.FOS_FONT_DIR, spec.file) : fromPackage(face, spec);

let resolvePath: FontPathResolver = defaultResolver;
export function setFontPathResolver(resolver: FontPathResolver | null) {
  resolvePath = resolver ?? defaultResolver;
  loaded.clear();
}

/** The file of a face, as the current resolver finds it. */
export const fontFile = (face: Face) => resolvePath(face, FONT_FACES[face]);

interface LoadedFace {
  bytes: Uint8Array;
  font: Font;
}
const loaded = new Map<Face, LoadedFace>();
type Fontkit = typeof import('@pdf-lib/fontkit');
let fontkitModule: Fontkit | undefined;

async function fontkit(): Promise<Fontkit> {
  const mod = await import('@pdf-lib/fontkit'); // a UMD bundle: its exports come as `default`
  fontkitModule ??= (mod as unknown as { default?: Fontkit }).default ?? mod;
  return fontkitModule;
}

/** A face's bytes and parsed font, read once per process. */
export async function loadFace(face: Face): Promise<LoadedFace> {
  const hit = loaded.get(face);
  if (hit) return hit;
  const bytes = new Uint8Array(readFileSync(fontFile(face)));
  const entry = { bytes, font: memoLayout((await fontkit()).create(bytes as Buffer)) };
  loaded.set(face, entry);
  return entry;
}

/**
 * A label draws the same headings every time and pdf-lib lays a string out twice (to encode it
 * and to measure it): the last layouts are kept (GlyphRuns are only read by pdf-lib).
 */
function memoLayout(font: Font): Font {
  const layout = font.layout.bind(font);
  const runs = new Map<string, ReturnType<Font['layout']>>();
  font.layout = (text, features) => {
    const key = `${text}\u0000${features ? JSON.stringify(features) : ''}`;
    let run = runs.get(key);
    if (!run) {
      if (runs.size >= 2000) runs.delete(runs.keys().next().value!);
      run = layout(text, features);
      runs.set(key, run);
    }
    return run;
  };
  return font;
}

/**
 * OpenType features a face is laid out with. Arabic needs its own (joining forms, ligatures:
 * fontkit's Arabic shaper); the others keep only composition and mark placement (diacritics),
 * since kerning and ligatures cost more layout time than a label gains from them.
 */
export function featuresOf(face: Face): Record<string, boolean> | undefined {
  if (isRtlFace(face)) return undefined;
  const off = ['calt', 'clig', 'liga', 'rclt', 'curs', 'kern', 'frac', 'numr', 'dnom', 'locl', 'rlig'];
  return Object.fromEntries(off.map((f) => [f, false]));
}

/**
 * The fontkit given to pdf-lib: it hands back the font parsed for these very bytes, so embedding
 * a face in a new document costs no parse (pdf-lib passes the Uint8Array it was given).
 */
export async function cachingFontkit() {
  const fk = await fontkit();
  return {
    create: (data: Uint8Array) => [...loaded.values()].find((l) => l.bytes === data)?.font ?? fk.create(data as Buffer),
  };
}

// Script of a code point, by Unicode block: which face to try first.
const ARABIC = /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]/u;
const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7ff]/u;
const HAN =
  /[\u2e80-\u2fdf\u3000-\u30ff\u3100-\u312f\u31a0-\u31ff\u3200-\u33ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\u{20000}-\u{2ffff}]/u;
/** Spaces, digits and punctuation: they stay in the run they stand in (a space between two Arabic words). */
export const NEUTRAL = /[\s\d\p{P}\p{S}]/u;

export const isRtlFace = (face: Face) => face === 'arabic' || face === 'arabicBold';

/** The faces a text needs, regular or bold (the caller loads them before drawing). */
export function facesOf(text: string, bold: boolean): Face[] {
  const out = new Set<Face>([bold ? 'sansBold' : 'sans']);
  for (const ch of text) {
    if (ARABIC.test(ch)) out.add(bold ? 'arabicBold' : 'arabic');
    else if (HANGUL.test(ch)) out.add('hangul');
    else if (HAN.test(ch)) out.add('han');
  }
  return [...out];
}

export interface Run {
  face: Face;
  text: string;
}

/** A text cut into runs of one face each, in logical order; `has` says whether a loaded face has a glyph. */
export function runsOf(text: string, bold: boolean, has: (face: Face, cp: number) => boolean): Run[] {
  const chain = facesOf(text, bold);
  const runs: Run[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const last = runs[runs.length - 1];
    let face: Face;
    if (last && NEUTRAL.test(ch) && has(last.face, cp)) face = last.face;
    else {
      const first = facesOf(ch, bold).pop()!;
      face = has(first, cp) ? first : (chain.find((f) => has(f, cp)) ?? chain[0]);
    }
    if (last?.face === face) last.text += ch;
    else runs.push({ face, text: ch });
  }
  return runs;
}

/**
 * Right-to-left text laid out left to right, enough for a name or an address: the words of an
 * Arabic run in reverse order, numbers (and Latin) inside it kept in reading order. fontkit
 * shapes each piece and draws an Arabic piece's glyphs right to left itself.
 */
export function visualPieces(run: Run): string[] {
  if (!isRtlFace(run.face)) return [run.text];
  const trailing = /\s*$/u.exec(run.text)![0]; // the space before what follows stays on the right
  const pieces = run.text
    .slice(0, run.text.length - trailing.length)
    .split(/([0-9\u0660-\u0669A-Za-z]+(?:[.,:/-][0-9\u0660-\u0669A-Za-z]+)*)/u)
    .filter(Boolean)
    .reverse();
  return trailing ? [...pieces, trailing] : pieces;
}
