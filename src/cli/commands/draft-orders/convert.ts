import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function draftOrdersConvert(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/orders.js')).OrderSchema),
    name: 'convert',
    description: 'Convert a draft order into an order (commits inventory, creates fulfillment orders)',
    method: 'POST',
    mode: 'action',
    args: ['<draft-order-id>'],
    path: ([id]) => `/ops/draft-orders/${seg(id)}/convert`,
    examples: ['fos draft-orders convert 0193…', 'fos draft-orders convert 0193… --json id,order_number,status'],
  });
}
