import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';

export default function ordersGet(ctx: Context): Command {
  return getCommand(ctx, {
    description: 'Show one order with its line items',
    args: ['<order-id>'],
    path: ([id]) => `/ops/orders/${seg(id)}`,
    examples: ['fos orders get 0193…', 'fos orders get 0193… --json status,core_order_line_items.sku'],
  });
}
