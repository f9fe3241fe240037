import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function purchaseOrdersClose(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/purchase-orders.js')).PurchaseOrderSchema),
    name: 'close',
    description: 'Close a purchase order: what was not received leaves on order',
    method: 'POST',
    mode: 'action',
    args: ['<purchase-order-id>'],
    path: ([id]) => `/ops/purchase-orders/${seg(id)}/close`,
    confirm: (_, what) => `Close purchase order ${what}? Units not yet received stop counting as on order.`,
    lookup: { path: ([id]) => `/ops/purchase-orders/${seg(id)}`, label: (po) => po.reference ?? po.id },
    examples: ['fos purchase-orders close 0193… --yes'],
  });
}
