import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { response } from '../../output/shape.js';

export default function fulfillmentOrdersList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/fulfillment.js')).FulfillmentOrderListSchema),
    description: 'List fulfillment orders',
    path: () => '/ops/fulfillment-orders',
    query: [
      { key: 'order_id', arg: 'id', description: 'only those of this order', ref: 'order' },
      { key: 'status', type: 'list', values: ENUMS.fulfillment_order_status, description: 'statuses, comma-separated' },
      { key: 'warehouse_id', arg: 'name|id', description: 'only this warehouse', ref: 'warehouse' },
    ],
    columns: ['id', 'order_id', 'order_number', 'status', 'request_status', 'warehouse_name', 'created_at'],
    examples: ['fos fulfillment-orders list --order-id 0193…', 'fos fulfillment-orders list --status ACCEPTED --json id'],
  });
}
