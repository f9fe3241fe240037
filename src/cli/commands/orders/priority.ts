import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { enumArgument } from '../../shared/flags.js';
import { orderArg, seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function ordersPriority(ctx: Context): Command {
  const level = enumArgument('<priority>', 'new priority', 'priority', ENUMS.priority);
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/orders.js')).OrderSchema),
    name: 'priority',
    description: 'Set the priority of an order (affects allocation order)',
    method: 'PATCH',
    mode: 'action',
    args: ['<order>', level],
    resolveArgs: orderArg,
    path: ([id]) => `/ops/orders/${seg(id)}/priority`,
    transform: (_body, _opts, [, priority]) => ({ priority }),
    examples: ['fos orders priority 0193… HIGH', 'fos orders priority 0193… critical --json id,priority'],
  });
}
