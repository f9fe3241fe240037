import type { Db } from '../../db/types.js';
import { csvLine } from '../../shared/csv.js';
import { conflict, notFound } from '../errors.js';
import { packingSlipPdf } from './packing-slip.js';
import { loadPdfLib } from './pdf-lib.js';
import { drawLabels, labelPdfSource, labelZpl } from './shipping-label.js';
import * as store from './store.js';

// A label batch's files (docs/label-batches.md): the labels it bought as one print job (a PDF of
// 4x6 pages, each label followed by its packing slip when the batch asks, or one ZPL stream), in
// the batch's order; and a CSV of every item's outcome.

async function batchOf(db: Db, teamId: string, id: string) {
  const b = await store.findTeamBatchFormat(db.prisma, teamId, id);
  if (!b) throw notFound('Label batch', id);
  return b;
}

async function boughtIds(db: Db, id: string): Promise<string[]> {
  const rows = await store.findBoughtPackageIds(db.prisma, id);
  if (!rows.length) throw conflict(`Label batch ${id} has bought no label yet.`);
  return rows.map((r) => r.package_id);
}

/** The merged file: PDF (format 'pdf', the default for a PDF batch) or ZPL (a ZPL batch). */
export async function labelBatchFile(db: Db, teamId: string, id: string): Promise<{ bytes: Uint8Array | string; ext: 'pdf' | 'zpl' }> {
  const b = await batchOf(db, teamId, id);
  const ids = await boughtIds(db, id);
  if (b.label_format === 'ZPL') {
    const parts: string[] = [];
    for (const p of ids) parts.push(await labelZpl(db, teamId, p));
    return { bytes: parts.join(''), ext: 'zpl' };
  }
  const { PDFDocument } = await loadPdfLib();
  const out = await PDFDocument.create();
  out.setTitle(`Label batch ${id}`);
  out.setCreator('fos');
  // fos's own labels are drawn straight into the one document (one font subset for all); a
  // platform's label and a packing slip are documents of their own, copied in.
  const sources = [];
  for (const p of ids) sources.push({ id: p, ...(await labelPdfSource(db, teamId, p)) });
  const drawn = await drawLabels(
    out,
    sources.flatMap((s) => ('data' in s ? [s.data] : [])),
  );
  const copy = async (bytes: Uint8Array) => {
    const doc = await PDFDocument.load(bytes);
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
  };
  let next = 0;
  for (const s of sources) {
    if ('data' in s) await drawn[next++]();
    else await copy(s.bytes);
    if (b.packing_slips) await copy(await packingSlipPdf(db, teamId, s.id));
  }
  return { bytes: await out.save(), ext: 'pdf' };
}

export const SUMMARY_COLUMNS = [
  'position',
  'package_id',
  'status',
  'tracking_number',
  'carrier_id',
  'service_id',
  'cost',
  'cost_currency',
  'message',
] as const;

export async function labelBatchCsv(db: Db, teamId: string, id: string): Promise<string> {
  await batchOf(db, teamId, id);
  const rows = await store.findBatchItems(db.prisma, id);
  return [csvLine(SUMMARY_COLUMNS), ...rows.map((r) => csvLine(SUMMARY_COLUMNS.map((c) => r[c])))].join('');
}
