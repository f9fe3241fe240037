import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function draftOrdersGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/orders.js')).DraftOrderSchema),
    description: 'Show one draft order',
    args: ['<draft-order-id>'],
    path: ([id]) => `/ops/draft-orders/${seg(id)}`,
    examples: ['fos draft-orders get 0193…'],
  });
}
