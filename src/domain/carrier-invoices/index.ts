// The carrier-invoices area's door: what code outside src/domain/carrier-invoices/ may import (test/unit/layers.test.ts).
export { importInvoice } from './import.js';
export { getImport, listImports } from './view.js';
