import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { resolveRef } from '../../shared/refs.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { lineQuantities } from './line-quantities.js';
import { response } from '../../output/shape.js';

export default function fulfillmentOrdersMove(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/fulfillment.js')).MovedFulfillmentOrderSchema),
    name: 'move',
    description:
      'Move a fulfillment order (all lines, or --line ID=QTY ones) to another warehouse of the team; stock is re-committed there',
    method: 'POST',
    mode: 'action',
    args: ['<fulfillment-order-id>', '<warehouse>'],
    path: ([id]) => `/ops/fulfillment-orders/${seg(id)}/move`,
    configure: (cmd) =>
      cmd.option('--line <id=qty>', 'move only these units of a line (repeatable)', (v: string, prev: string[] = []) => [...prev, v]),
    transform: (body, opts) => ({ ...lineQuantities(opts.line as string[] | undefined), ...body }),
    // The warehouse by name, id or id prefix, as every --warehouse.
    resolveArgs: async (c, [fo, warehouse]) => [
      await resolveRef(c.client(), 'fulfillment-order', fo),
      await resolveRef(c.client(), 'warehouse', warehouse),
    ],
    argsToBody: ([, warehouse]) => ({ warehouse_id: warehouse }),
    examples: [
      'fos fulfillment-orders move 0193… "Columbus DC"',
      'fos fulfillment-orders move 0193… 0194… --line 0195…=2 --json moved.id,moved.warehouse_name',
    ],
  });
}
