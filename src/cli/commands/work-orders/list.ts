import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { warehousesFilter } from '../../shared/flags.js';
import { response } from '../../output/shape.js';

export default function workOrdersList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/work-orders.js')).WorkOrderListSchema),
    description: 'List work orders (kit builds), newest first',
    path: () => '/ops/work-orders',
    maxLimit: 1000,
    query: [
      warehousesFilter(),
      {
        key: 'product_id',
        flag: '--product',
        arg: 'ids',
        type: 'list',
        description: 'assembly product ids, comma-separated',
        ref: 'product',
      },
    ],
    columns: ['created_at', 'sku', 'quantity', 'location_name', 'status', 'warehouse_id', 'id'],
    examples: ['fos work-orders list --warehouse East', 'fos work-orders list --product 0193… --json id,quantity,components'],
  });
}
