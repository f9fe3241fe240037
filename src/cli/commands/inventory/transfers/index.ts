import { Command } from 'commander';
import type { Context } from '../../../context.js';
import { collect } from '../../../shared/body.js';
import { ENUMS } from '../../../enums.js';
import { listCommand } from '../../../shared/list.js';
import { getCommand, group, seg, keyPerRun, writeCommand } from '../../../shared/resource.js';
import { DAMAGED_OPTION, receiptLines, withLines } from '../../../shared/stock-lines.js';
import { warehousesFilter } from '../../../shared/flags.js';
import { response } from '../../../output/shape.js';

const path = (id?: string, action?: string) => `/ops/inventory/transfers${id ? `/${seg(id)}` : ''}${action ? `/${action}` : ''}`;

/** `fos inventory transfers list|get|receive|cancel` (create: `fos inventory transfer`). */
export default (ctx: Context): Command =>
  group('transfers', 'Transfers between warehouses: list, show, receive, cancel', [
    listCommand(ctx, {
      output: response(async () => (await import('../../../../contract/inventory.js')).TransferListSchema),
      description: 'List transfers, newest first',
      path: () => path(),
      query: [
        { key: 'status', type: 'list', values: ENUMS.transfer_status, description: 'statuses, comma-separated' },
        warehousesFilter({ description: 'from or to these warehouses' }),
      ],
      columns: ['id', 'status', 'from_warehouse_name', 'to_warehouse_name', 'total_quantity', 'total_received', 'reference', 'created_at'],
      examples: ['fos inventory transfers list --status IN_TRANSIT'],
    }),
    getCommand(ctx, {
      output: response(async () => (await import('../../../../contract/inventory.js')).TransferSchema),
      description: 'Show a transfer with its lines',
      args: ['<transfer-id>'],
      path: ([id]) => path(id),
      examples: ['fos inventory transfers get 0193…'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../../contract/inventory.js')).TransferSchema),
      name: 'receive',
      idempotencyKey: keyPerRun('transfer-receive'),
      description: 'Receive transferred units at the destination (partial receipts are fine)',
      method: 'POST',
      mode: 'action',
      args: ['<transfer-id>', '[sku=quantity...]'],
      path: ([id]) => path(id, 'receive'),
      fields: [{ key: 'note', description: 'free text kept on the movements' }],
      configure: (cmd) => cmd.option(...DAMAGED_OPTION, collect),
      transform: (body, opts, args) =>
        withLines(body, receiptLines(args.slice(1).flat(), opts.damaged as string[] | undefined), 'MUG-BLUE=24'),
      examples: ['fos inventory transfers receive 0193… MUG-BLUE=22 --damaged MUG-BLUE=2'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../../contract/inventory.js')).TransferSchema),
      name: 'cancel',
      description: 'Cancel a transfer: what is still in transit goes back to the source',
      method: 'POST',
      mode: 'action',
      args: ['<transfer-id>'],
      path: ([id]) => path(id, 'cancel'),
      confirm: (_, what) => `Cancel transfer ${what}? Units still in transit go back to the source warehouse.`,
      examples: ['fos inventory transfers cancel 0193… --yes'],
    }),
  ]);
