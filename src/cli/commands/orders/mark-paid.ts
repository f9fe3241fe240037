import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { orderArg, seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

/** The AWAITING_PAYMENT hold blocks `fulfill run` ("on hold"); this is the way out from the CLI. */
export default function ordersMarkPaid(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/orders.js')).OrderSchema),
    name: 'mark-paid',
    description: 'Mark a PENDING order paid, lifting its AWAITING_PAYMENT hold so it can be fulfilled',
    method: 'POST',
    mode: 'action',
    args: ['<order>'],
    resolveArgs: orderArg,
    path: ([id]) => `/ops/orders/${seg(id)}/mark-paid`,
    examples: ['fos orders mark-paid 0193…', 'fos orders mark-paid 0193… --json payment_status'],
  });
}
