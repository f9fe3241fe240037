import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { collect } from '../../shared/body.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { getCommand, group, orderArg, seg, keyPerRun, writeCommand } from '../../shared/resource.js';
import { DAMAGED_OPTION, parseStockArgs, receiptLines, withLines } from '../../shared/stock-lines.js';
import { response } from '../../output/shape.js';

const path = (id?: string, action?: string) => `/ops/returns${id ? `/${seg(id)}` : ''}${action ? `/${action}` : ''}`;

export default (ctx: Context): Command =>
  group('returns', 'Returns of fulfilled orders: announce, receive (restock or set aside), cancel', [
    listCommand(ctx, {
      output: response(async () => (await import('../../../contract/returns.js')).ReturnListSchema),
      description: 'List returns, newest first',
      path: () => path(),
      query: [
        { key: 'status', type: 'list', values: ENUMS.return_status, description: 'statuses, comma-separated' },
        { key: 'order_id', flag: '--order', arg: 'id', description: 'returns of this order', ref: 'order' },
      ],
      columns: ['id', 'status', 'order_id', 'reference', 'warehouse_id', 'received_at', 'created_at'],
      examples: ['fos returns list --status OPEN,PARTIALLY_RECEIVED'],
    }),
    getCommand(ctx, {
      output: response(async () => (await import('../../../contract/returns.js')).ReturnSchema),
      description: 'Show a return with its lines',
      args: ['<return-id>'],
      path: ([id]) => path(id),
      examples: ['fos returns get 0193…'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/returns.js')).ReturnSchema),
      name: 'create',
      idempotencyKey: keyPerRun('return-create'),
      description: 'Announce a return of fulfilled units of an order (by id or number)',
      method: 'POST',
      mode: 'create',
      args: ['<order>', '[sku=quantity...]'],
      resolveArgs: orderArg,
      path: () => path(),
      fields: [
        {
          key: 'warehouse_id',
          flag: '--warehouse',
          arg: 'name|id',
          description: 'where the units come back (default: where the order shipped from)',
          ref: 'warehouse',
        },
        { key: 'reference', description: 'RMA number' },
        { key: 'note', description: 'free text' },
      ],
      configure: (cmd) => cmd.option('--reason <reason>', `reason of every line: ${ENUMS.return_reason.join(', ')}`),
      transform: (body, opts, args) => {
        const reason = opts.reason ? String(opts.reason).toUpperCase() : undefined;
        const lines = parseStockArgs(args.slice(1).flat(), '=', 'quantity', 1).map((l) => ({ ...l, ...(reason ? { reason } : {}) }));
        return withLines(body, lines, 'MUG-BLUE=1');
      },
      argsToBody: ([orderId]) => ({ order_id: orderId }),
      examples: ['fos returns create 1003 MUG-BLUE=1 --reason DEFECTIVE --reference RMA-88'],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/returns.js')).ReturnSchema),
      name: 'receive',
      idempotencyKey: keyPerRun('return-receive'),
      description: 'Receive returned units: sellable ones restock, --damaged ones are set aside',
      method: 'POST',
      mode: 'action',
      args: ['<return-id>', '[sku=quantity...]'],
      path: ([id]) => path(id, 'receive'),
      fields: [
        { key: 'note', description: 'free text kept on the movements' },
        {
          key: 'location',
          arg: 'name|id',
          description: "the bin the units go back to (default the warehouse's default location; damaged units: a DAMAGED location)",
        },
      ],
      configure: (cmd) =>
        cmd.option(...DAMAGED_OPTION, collect).option('--lot <code>', 'the lot of every line (default: the lot the units shipped from)'),
      transform: (body, opts, args) =>
        withLines(
          body,
          receiptLines(args.slice(1).flat(), opts.damaged as string[] | undefined, opts.lot ? { lot_code: opts.lot } : {}),
          'MUG-BLUE=1',
        ),
      examples: [
        'fos returns receive 0193… MUG-BLUE=1',
        'fos returns receive 0193… --damaged MUG-BLUE=1',
        'fos returns receive 0193… YOG-1=2 --location A-04-02 --lot L-0425',
      ],
    }),
    writeCommand(ctx, {
      output: response(async () => (await import('../../../contract/returns.js')).ReturnSchema),
      name: 'cancel',
      description: 'Cancel a return that received nothing',
      method: 'POST',
      mode: 'action',
      args: ['<return-id>'],
      path: ([id]) => path(id, 'cancel'),
      confirm: (_, what) => `Cancel return ${what}?`,
      examples: ['fos returns cancel 0193… --yes'],
    }),
  ]);
