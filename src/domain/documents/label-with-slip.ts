import { loadPdfLib } from './pdf-lib.js';
import type { Db } from '../../db/types.js';
import { packingSlipPdf } from './packing-slip.js';
import { labelPdf } from './shipping-label.js';

// label_with_packing_slip_url (spec 2.7): the 4x6 label page followed by the packing slip's
// pages, one PDF, so one print job puts both on the bench. Always PDF, whatever format the label
// itself was bought in; same refusals as the label (404 without a label, 409 for an uploaded one).

export async function labelWithPackingSlipPdf(db: Db, teamId: string, packageId: string): Promise<Uint8Array> {
  const label = await labelPdf(db, teamId, packageId);
  const slip = await packingSlipPdf(db, teamId, packageId);
  const { PDFDocument } = await loadPdfLib();
  const out = await PDFDocument.create();
  out.setTitle(`Shipping label and packing slip ${packageId}`);
  out.setCreator('fos');
  for (const bytes of [label, slip]) {
    const doc = await PDFDocument.load(bytes);
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
  }
  return out.save();
}
