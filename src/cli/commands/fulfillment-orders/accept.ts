import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function fulfillmentOrdersAccept(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/fulfillment.js')).FulfillmentOrderSchema),
    name: 'accept',
    description: 'Accept a fulfillment order request (PENDING -> ACCEPTED)',
    method: 'POST',
    mode: 'action',
    args: ['<fulfillment-order-id>'],
    path: ([id]) => `/ops/fulfillment-orders/${seg(id)}/accept`,
    examples: ['fos fulfillment-orders accept 0193…'],
  });
}
