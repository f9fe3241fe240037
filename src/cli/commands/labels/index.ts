import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { getCommand, group, resourcePath } from '../../shared/resource.js';
import importInvoice from './import-invoice.js';
import { response } from '../../output/shape.js';

// `fos labels …`: what concerns labels across packages — carrier invoice corrections
// (docs/carrier-invoices.md). A package's own label: `fos packages label|get-label|void-label`.

const path = (id?: string) => resourcePath('/ops/carrier-invoices', id);

export default (ctx: Context): Command =>
  group('labels', 'Labels across packages: carrier invoice corrections', [
    importInvoice(ctx),
    listCommand(ctx, {
      output: response(async () => (await import('../../../contract/carrier-invoices.js')).InvoiceImportListSchema),
      name: 'invoices',
      description: 'List carrier invoice imports, newest first',
      path: () => path(),
      query: [],
      columns: ['id', 'filename', 'line_count', 'corrected', 'unchanged', 'created_at'],
      examples: ['fos labels invoices'],
    }),
    getCommand(ctx, {
      output: response(async () => (await import('../../../contract/carrier-invoices.js')).InvoiceImportSchema),
      name: 'invoice',
      description: 'Show a carrier invoice import: corrections, charges and unmatched lines',
      args: ['<import-id>'],
      path: ([id]) => path(id),
      examples: ['fos labels invoice 0193…'],
    }),
  ]);
