import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function purchaseOrdersCancel(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/purchase-orders.js')).PurchaseOrderSchema),
    name: 'cancel',
    description: 'Cancel a purchase order that received nothing',
    method: 'POST',
    mode: 'action',
    args: ['<purchase-order-id>'],
    path: ([id]) => `/ops/purchase-orders/${seg(id)}/cancel`,
    confirm: (_, what) => `Cancel purchase order ${what}?`,
    lookup: { path: ([id]) => `/ops/purchase-orders/${seg(id)}`, label: (po) => po.reference ?? po.id },
    examples: ['fos purchase-orders cancel 0193… --yes'],
  });
}
