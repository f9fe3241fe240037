import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { UsageError } from '../../errors.js';
import { warehousesFilter } from '../../shared/flags.js';
import { listCommand } from '../../shared/list.js';
import { response } from '../../output/shape.js';

/** Query flags are the server's /v1/ops/orders/list parameter names. */
export default function ordersList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/orders.js')).OrderListItemSchema),
    description: 'List orders',
    path: () => '/ops/orders/list',
    query: [
      { key: 'search', description: 'order-number prefix or customer name/e-mail (min. 3 characters)' },
      { key: 'status', type: 'list', values: ENUMS.order_status, description: 'order statuses, comma-separated' },
      { key: 'payment_status', type: 'list', values: ENUMS.payment_status, description: 'payment statuses, comma-separated' },
      { key: 'fulfillment_status', type: 'list', values: ENUMS.fulfillment_status, description: 'fulfillment statuses, comma-separated' },
      { key: 'created_at_min', type: 'date', description: 'created on or after (ISO 8601)' },
      { key: 'created_at_max', type: 'date', description: 'created on or before (ISO 8601)' },
      { key: 'updated_at_min', type: 'date', description: 'updated on or after (ISO 8601)' },
      { key: 'updated_at_max', type: 'date', description: 'updated on or before (ISO 8601)' },
      {
        key: 'merchant_team_id',
        flag: '--merchant',
        arg: 'names',
        type: 'list',
        description: "merchant teams' exact names or ids, comma-separated",
      },
      warehousesFilter({ description: 'warehouse names or ids, comma-separated: orders with a fulfillment order there' }),
      { key: 'shop_id', flag: '--shop', arg: 'names', type: 'list', description: 'shop exact names or ids, comma-separated' },
      { key: 'tag', arg: 'tags', type: 'list', description: 'tags, comma-separated or repeated: orders having any of them' },
      { key: 'on_hold', type: 'boolean', description: 'true: orders with an active hold; false: without' },
      { key: 'order_by', type: 'enum', values: ['created_at', 'updated_at', 'order_number'], description: 'sort field' },
      { key: 'order', type: 'enum', values: ENUMS.sort_order, description: 'sort direction' },
    ],
    export: {
      name: 'export',
      description: "Export every order (NDJSON or CSV) to stdout, newest first, with the list's filters",
      path: '/ops/orders/export',
      examples: [
        'fos orders export > orders.ndjson',
        'fos orders export --status OPEN --format csv > open-orders.csv',
        'fos orders export --after 0193… >> orders.ndjson',
      ],
    },
    columns: [
      'id',
      'order_number',
      'merchant_team_name',
      'status',
      'fulfillment_status',
      'payment_status',
      'priority',
      'customer_name',
      'total_price',
      'created_at',
    ],
    validate: (_opts, query) => {
      if (typeof query.search === 'string' && query.search.trim().length < 3) {
        throw new UsageError('--search needs at least 3 characters');
      }
    },
    examples: [
      'fos orders list --status OPEN --order-by created_at --order desc',
      'fos orders list --search "#10" --created-at-min 2026-01-01',
      'fos orders list --all --json id,order_number,priority',
      'fos orders list --warehouse "Portland DC" --on-hold true --merchant "Acme Outdoor"',
      'fos orders list --tag wholesale --tag b2b',
    ],
  });
}
