import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { warehousesFilter } from '../../shared/flags.js';
import { response } from '../../output/shape.js';

export default function purchaseOrdersList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/purchase-orders.js')).PurchaseOrderListSchema),
    description: 'List purchase orders (inbound receipts), newest first',
    path: () => '/ops/purchase-orders',
    query: [
      { key: 'status', type: 'list', values: ENUMS.purchase_order_status, description: 'statuses, comma-separated' },
      warehousesFilter(),
      {
        key: 'merchant_team_id',
        flag: '--merchant',
        alias: '--merchant-team',
        arg: 'name|id',
        description: 'for this merchant',
        ref: 'merchant',
      },
      { key: 'reference', description: 'your PO number' },
    ],
    columns: ['id', 'reference', 'status', 'warehouse_name', 'total_quantity', 'total_received', 'total_open', 'expected_at'],
    examples: [
      'fos purchase-orders list --status OPEN,PARTIALLY_RECEIVED',
      'fos purchase-orders list --reference PO-1001 --json id,status',
    ],
  });
}
