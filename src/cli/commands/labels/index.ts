import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { getCommand, group, resourcePath } from '../../shared/resource.js';
import importInvoice from './import-invoice.js';
import batch from './batch.js';
import { ENUMS } from '../../enums.js';
import { response } from '../../output/shape.js';

// `fos labels …`: what concerns labels across packages — batches (docs/label-batches.md), carrier invoice corrections
// (docs/carrier-invoices.md). A package's own label: `fos packages label|get-label|void-label`.

const path = (id?: string) => resourcePath('/ops/carrier-invoices', id);
const batches = (id?: string) => resourcePath('/ops/label-batches', id);

export default (ctx: Context): Command =>
  group('labels', 'Labels across packages: batches, carrier invoice corrections', [
    batch(ctx),
    listCommand(ctx, {
      output: response(async () => (await import('../../../contract/label-batches.js')).LabelBatchListSchema),
      name: 'batches',
      description: 'List label batches, newest first',
      path: () => batches(),
      query: [{ key: 'status', type: 'enum', values: ENUMS.label_batch_status, description: 'only batches in this state' }],
      columns: ['id', 'status', 'package_count', 'bought', 'failed', 'skipped', 'created_at'],
      examples: ['fos labels batches --status RUNNING'],
    }),
    getCommand(ctx, {
      output: response(async () => (await import('../../../contract/label-batches.js')).LabelBatchSchema),
      name: 'batch-get',
      description: 'Show a label batch: progress and every package outcome',
      args: ['<batch-id>'],
      path: ([id]) => batches(id),
      examples: ['fos labels batch-get 0193…'],
    }),
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
