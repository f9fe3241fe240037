import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function purchaseOrdersGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/purchase-orders.js')).PurchaseOrderSchema),
    description: 'Show a purchase order with its lines (ordered, received, damaged, open)',
    args: ['<purchase-order-id>'],
    path: ([id]) => `/ops/purchase-orders/${seg(id)}`,
    examples: ['fos purchase-orders get 0193…', "fos purchase-orders get 0193… --json lines --jq '.lines[] | select(.quantity_open > 0)'"],
  });
}
