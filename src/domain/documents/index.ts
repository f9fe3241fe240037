// The documents area's door: what code outside src/domain/documents/ may import (test/unit/layers.test.ts).
export { labelBatchCsv, labelBatchFile } from './label-batch.js';
export { labelWithPackingSlipPdf } from './label-with-slip.js';
export { packingSlipPdf } from './packing-slip.js';
export { loadPdfLib } from './pdf-lib.js';
export { PdfText, stringsOf } from './pdf-text.js';
export { scanFormPdf } from './scan-form.js';
export { labelPdf, labelZpl } from './shipping-label.js';
