import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fontFile, type Face } from './fonts.js';

// Subsets of the document faces, made by HarfBuzz's hb-subset (harfbuzzjs' wasm build): only
// the glyphs of the code points a document draws, plus what the layout tables reach from them
// (Arabic joining forms and ligatures: GSUB is kept with every feature, so fontkit still shapes
// the subset). Hints are kept: without them the thin joins of Arabic vanish at a viewer's or a
// 200 dpi printer's resolution. @pdf-lib/fontkit's own subsetter loses outlines of these Noto files, which is why
// pdf-lib is handed the finished subset with `subset: false`. The wasm instance and each face's
// blob (8 MiB for Chinese) are loaded once per process; a subset costs milliseconds.

interface HbExports {
  memory: { buffer: ArrayBuffer };
  _initialize(): void;
  malloc(n: number): number;
  free(p: number): void;
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_set_clear(set: number): void;
  hb_set_invert(set: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_or_fail(face: number, input: number): number;
}

const HB_MEMORY_MODE_READONLY = 1;
const HB_SUBSET_SETS_LAYOUT_FEATURE_TAG = 6;

const require = createRequire(import.meta.url);
/** The wasm file (carried by the standalone executable: scripts/sea-assets.mjs). */
export const HB_SUBSET_WASM = () => require.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm');

// The project's TypeScript libs do not declare WebAssembly (no DOM lib): the one call used, typed here.
const wasm = (globalThis as unknown as { WebAssembly: { instantiate(b: Uint8Array): Promise<{ instance: { exports: unknown } }> } })
  .WebAssembly;

let hbPromise: Promise<HbExports> | undefined;
function harfbuzz(): Promise<HbExports> {
  hbPromise ??= wasm.instantiate(readFileSync(HB_SUBSET_WASM())).then(({ instance }) => {
    const hb = instance.exports as HbExports;
    hb._initialize();
    return hb;
  });
  return hbPromise;
}

/** hb_face of each font file, over a copy of it in wasm memory that lives as long as the process. */
const faces = new Map<string, number>();
async function hbFace(face: Face): Promise<{ hb: HbExports; face: number }> {
  const hb = await harfbuzz();
  const file = fontFile(face);
  let f = faces.get(file);
  if (f === undefined) {
    const bytes = readFileSync(file);
    const ptr = hb.malloc(bytes.byteLength);
    new Uint8Array(hb.memory.buffer).set(bytes, ptr);
    const blob = hb.hb_blob_create(ptr, bytes.byteLength, HB_MEMORY_MODE_READONLY, 0, 0);
    f = hb.hb_face_create(blob, 0);
    hb.hb_blob_destroy(blob); // the face holds its own reference
    faces.set(file, f);
  }
  return { hb, face: f };
}

/** `face` cut down to the glyphs of `codePoints` (and what its layout tables reach from them), as font file bytes. */
export async function subsetFace(face: Face, codePoints: Iterable<number>): Promise<Uint8Array> {
  const { hb, face: source } = await hbFace(face);
  const input = hb.hb_subset_input_create_or_fail();
  if (!input) throw new Error('hb_subset_input_create_or_fail failed');
  let subset: number;
  try {
    const features = hb.hb_subset_input_set(input, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG);
    hb.hb_set_clear(features);
    hb.hb_set_invert(features); // every layout feature: the shaper picks what a script needs
    const unicodes = hb.hb_subset_input_unicode_set(input);
    for (const cp of codePoints) hb.hb_set_add(unicodes, cp);
    subset = hb.hb_subset_or_fail(source, input);
    if (!subset) throw new Error(`hb_subset_or_fail failed for font face ${face}`);
  } finally {
    hb.hb_subset_input_destroy(input);
  }
  const blob = hb.hb_face_reference_blob(subset);
  try {
    const ptr = hb.hb_blob_get_data(blob, 0);
    const length = hb.hb_blob_get_length(blob);
    if (!length) throw new Error(`hb-subset made an empty font of face ${face}`);
    return new Uint8Array(hb.memory.buffer, ptr, length).slice(); // a copy: the blob is freed below
  } finally {
    hb.hb_blob_destroy(blob);
    hb.hb_face_destroy(subset);
  }
}
