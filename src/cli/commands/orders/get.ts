import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, orderArg, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function ordersGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/orders.js')).OrderSchema),
    description: 'Show one order with its line items',
    args: ['<order>'],
    resolveArgs: orderArg,
    path: ([id]) => `/ops/orders/${seg(id)}`,
    examples: [
      'fos orders get 0193…',
      'fos orders get 1003                # by order number (#1003 too)',
      'fos orders get 0193… --json status,core_order_line_items.sku',
    ],
  });
}
