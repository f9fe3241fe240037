import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function workOrdersGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/work-orders.js')).WorkOrderSchema),
    description: 'Show one work order: the kits built and the bins and lots each component came from',
    args: ['<work-order-id>'],
    path: ([id]) => `/ops/work-orders/${seg(id)}`,
    examples: ['fos work-orders get 0193…'],
  });
}
