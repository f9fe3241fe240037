import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { collect } from '../../shared/body.js';
import { seg, keyPerRun, writeCommand } from '../../shared/resource.js';
import { DAMAGED_OPTION, receiptLines, withLines } from '../../shared/stock-lines.js';
import { response } from '../../output/shape.js';

export default function purchaseOrdersReceive(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/purchase-orders.js')).ReceiptSchema),
    name: 'receive',
    idempotencyKey: keyPerRun('po-receive'),
    description: 'Receive units of a purchase order (partial receipts are fine); bills receiving to the merchant',
    method: 'POST',
    mode: 'action',
    args: ['<purchase-order-id>', '[sku=quantity...]'],
    path: ([id]) => `/ops/purchase-orders/${seg(id)}/receive`,
    fields: [
      { key: 'note', description: 'free text kept on the movements' },
      { key: 'location', arg: 'bin', description: "the bin received into (name, barcode or id; default the warehouse's default location)" },
    ],
    configure: (cmd) =>
      cmd
        .option(...DAMAGED_OPTION, collect)
        .option('--lot <code>', 'lot code of every line')
        .option('--expires <date>', 'expiration date (YYYY-MM-DD) of every line')
        .option('--allow-over-receipt', 'accept more units than are still open'),
    transform: (body, opts, args) => {
      const lines = args.slice(1).flat();
      const extra = { ...(opts.lot ? { lot_code: opts.lot } : {}), ...(opts.expires ? { expiration_date: opts.expires } : {}) };
      const out = withLines(body, receiptLines(lines, opts.damaged as string[] | undefined, extra), 'MUG-BLUE=24');
      return opts.allowOverReceipt ? { ...out, allow_over_receipt: true } : out;
    },
    examples: [
      'fos purchase-orders receive 0193… MUG-BLUE=100 TEE-M=48',
      'fos purchase-orders receive 0193… MUG-BLUE=18 --damaged MUG-BLUE=2 --lot L-2611 --expires 2027-11-30',
      'fos purchase-orders receive 0193… MUG-BLUE=24 --location RCV-1',
    ],
  });
}
