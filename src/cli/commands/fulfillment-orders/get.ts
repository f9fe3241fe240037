import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function fulfillmentOrdersGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/fulfillment.js')).FulfillmentOrderSchema),
    description: 'Show one fulfillment order (line items, address, status, lock)',
    args: ['<fulfillment-order-id>'],
    path: ([id]) => `/ops/fulfillment-orders/${seg(id)}`,
    examples: ['fos fulfillment-orders get 0193…'],
  });
}
