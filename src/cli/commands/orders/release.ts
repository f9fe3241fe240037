import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { orderArg, seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

/** Releases one hold; the last one released lets waiting units allocate and the work go on. */
export default function ordersRelease(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/order-exceptions.js')).HoldSchema),
    name: 'release',
    description: "Release a hold of an order (see the order's order_fulfillment_holds for the hold id)",
    method: 'POST',
    mode: 'action',
    args: ['<order>', '<hold-id>'],
    resolveArgs: orderArg,
    path: ([id, hold]) => `/ops/orders/${seg(id)}/holds/${seg(hold)}/release`,
    examples: ['fos orders release 1003 0193…', 'fos orders get 1003 --json order_fulfillment_holds.id,order_fulfillment_holds.active'],
  });
}
