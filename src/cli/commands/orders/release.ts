import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { orderArg, seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

/** Releases one hold; the last one released lets waiting units allocate and the work go on. */
export default function ordersRelease(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/order-exceptions.js')).HoldSchema),
    name: 'release',
    description:
      "Release a hold of an order: its reason (FRAUD_REVIEW), its id or a prefix of it, or nothing for the order's only active hold",
    method: 'POST',
    mode: 'action',
    args: ['<order>', '[hold]'],
    resolveArgs: async (c, args) => {
      const [order] = await orderArg(c, args);
      const { holdIdOf } = await import('../../shared/ref-keys.js');
      return [order, await holdIdOf(c.client(), order, args[1])];
    },
    path: ([id, hold]) => `/ops/orders/${seg(id)}/holds/${seg(hold)}/release`,
    examples: [
      'fos orders release 1003',
      'fos orders release 1003 fraud_review',
      'fos orders get 1003 --json order_fulfillment_holds.id,order_fulfillment_holds.reason',
    ],
  });
}
