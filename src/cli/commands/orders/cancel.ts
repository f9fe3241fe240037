import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { cancelCommand } from '../../shared/cancel.js';
import { response } from '../../output/shape.js';
import { orderArg, seg } from '../../shared/resource.js';

export default function ordersCancel(ctx: Context): Command {
  return cancelCommand(ctx, {
    output: response(async () => (await import('../../../contract/orders.js')).OrderSchema),
    what: 'order',
    description: 'Cancel an order: every unshipped unit (labels voided, committed stock released); shipped units stay shipped',
    args: ['<order>'],
    resolveArgs: orderArg,
    path: ([id]) => `/ops/orders/${seg(id)}/cancel`,
    examples: [
      'fos orders cancel 1003 --reason CUSTOMER --yes',
      'fos orders cancel 0193… --reason FRAUD --restock false --yes --json status,cancelled_at',
    ],
  });
}
