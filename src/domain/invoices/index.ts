// The invoices area's door: what code outside src/domain/invoices/ may import (test/unit/layers.test.ts).
export { accountingCsv, invoiceChargesCsv, invoicePdf } from './documents.js';
export { closeDuePeriods, generateInvoice, regenerateInvoice } from './generate.js';
export * as invoices from './invoices.js';
export { getInvoice, getInvoiceView, listInvoiceViews } from './invoices.js';
export { finalizeInvoice, payInvoice, sendInvoice, voidInvoice } from './lifecycle.js';
export { rerateInvoice } from './rerate.js';
export { presentInvoice } from './views.js';
