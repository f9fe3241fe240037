import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function chargesUpdateReceiving(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/charges.js')).ChargeSchema),
    name: 'update-receiving',
    description: 'Change a receiving charge',
    method: 'PATCH',
    mode: 'update',
    args: ['<charge-id>'],
    path: ([id]) => `/ops/charges/receiving/${seg(id)}`,
    fields: [
      { key: 'data.name', flag: '--name', description: 'charge name' },
      { key: 'data.quantity', flag: '--quantity', type: 'number', min: 0, description: 'quantity billed' },
      { key: 'data.purchase_order_id', flag: '--purchase-order', arg: 'id', description: 'purchase order received', ref: 'purchase-order' },
    ],
    examples: ['fos charges update-receiving 0193… --quantity 4'],
  });
}
