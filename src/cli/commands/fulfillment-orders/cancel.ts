import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { cancelCommand } from '../../shared/cancel.js';
import { response } from '../../output/shape.js';
import { seg } from '../../shared/resource.js';

export default function fulfillmentOrdersCancel(ctx: Context): Command {
  return cancelCommand(ctx, {
    output: response(async () => (await import('../../../contract/fulfillment.js')).FulfillmentOrderSchema),
    what: 'fulfillment order',
    description: 'Cancel the remaining units of a fulfillment order (its lock is cleared; the order is cancelled when nothing remains)',
    args: ['<fulfillment-order-id>'],
    path: ([id]) => `/ops/fulfillment-orders/${seg(id)}/cancel`,
    examples: ['fos fulfillment-orders cancel 0193… --reason INVENTORY --yes'],
  });
}
