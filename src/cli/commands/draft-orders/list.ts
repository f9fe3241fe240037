import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { response } from '../../output/shape.js';

export default function draftOrdersList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/orders.js')).DraftOrderSchema),
    description: 'List draft orders',
    path: () => '/ops/draft-orders',
    query: [
      { key: 'status', type: 'list', values: ENUMS.draft_status, description: 'OPEN and/or CONVERTED' },
      { key: 'order', type: 'enum', values: ENUMS.sort_order, description: 'sort direction' },
    ],
    columns: ['id', 'name', 'status', 'merchant_team_name', 'customer_name', 'total_price', 'created_at'],
    examples: ['fos draft-orders list --status OPEN', 'fos draft-orders list --all --format ndjson'],
  });
}
