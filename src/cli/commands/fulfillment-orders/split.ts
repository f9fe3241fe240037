import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { lineQuantities } from './line-quantities.js';
import { response } from '../../output/shape.js';

export default function fulfillmentOrdersSplit(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/fulfillment.js')).SplitFulfillmentOrderSchema),
    name: 'split',
    description: 'Split units off a fulfillment order into a second one of the same warehouse',
    method: 'POST',
    mode: 'action',
    args: ['<fulfillment-order-id>'],
    path: ([id]) => `/ops/fulfillment-orders/${seg(id)}/split`,
    configure: (cmd) =>
      cmd.option(
        '--line <id=qty>',
        'units of a line that go to the new fulfillment order (repeatable, at least one)',
        (v: string, prev: string[] = []) => [...prev, v],
      ),
    transform: (body, opts) => {
      const lines = lineQuantities(opts.line as string[] | undefined);
      if (!lines.lines && !body.lines) throw new UsageError('split needs at least one --line <fulfillment-order-line-id>=<quantity>');
      return { ...lines, ...body };
    },
    examples: [
      'fos fulfillment-orders split 0193… --line 0195…=1',
      'fos fulfillment-orders split 0193… --line 0195…=2 --line 0196…=1 --json split.id',
    ],
  });
}
