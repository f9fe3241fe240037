import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { response } from '../../output/shape.js';

export default function chargesList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/charges.js')).ChargeSchema),
    description: 'List charges billed to merchants',
    path: () => '/ops/charges',
    query: [
      { key: 'category', type: 'enum', values: ENUMS.charge_category, description: 'one category' },
      { key: 'merchant_team_id', flag: '--merchant-team', arg: 'id', description: 'billed to this merchant team' },
      { key: 'order_id', arg: 'id', description: 'charges of this order', ref: 'order' },
      { key: 'order', type: 'enum', values: ENUMS.sort_order, description: 'sort direction' },
    ],
    export: {
      name: 'export',
      description: 'Export every charge (NDJSON or CSV) to stdout, newest first',
      path: '/ops/charges/export',
      examples: ['fos charges export --category SHIPPING --format csv > shipping.csv'],
    },
    columns: ['id', 'name', 'category', 'quantity', 'calculated_amount', 'currency', 'merchant_team_id', 'created_at'],
    examples: ['fos charges list --category SHIPPING', 'fos charges list --all --format csv > charges.csv'],
  });
}
