import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { response } from '../../output/shape.js';
import { familyPath, withKeyFamily } from '../../shared/family.js';

export default function chargesList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/charges.js')).ChargeSchema),
    description: 'List charges billed to merchants (a merchant key: the charges billed to its team)',
    // A merchant key lists its own (/merchant/charges; --merchant and --order-id are the fulfiller's filters).
    path: (_args, opts) => familyPath(opts, 'charges'),
    configure: (cmd) => withKeyFamily(ctx, cmd),
    query: [
      { key: 'category', type: 'enum', values: ENUMS.charge_category, description: 'one category' },
      {
        key: 'merchant_team_id',
        flag: '--merchant',
        alias: '--merchant-team',
        arg: 'name|id',
        description: 'billed to this merchant',
        ref: 'merchant',
      },
      { key: 'order_id', arg: 'id', description: 'charges of this order', ref: 'order' },
      { key: 'period_start', flag: '--from', arg: 'YYYY-MM-DD', description: 'charges made on or after this day (UTC)' },
      { key: 'period_end', flag: '--to', arg: 'YYYY-MM-DD', description: 'charges made on or before this day (UTC)' },
      { key: 'invoice_id', flag: '--invoice', arg: 'id|none', description: 'charges on this invoice; none: not invoiced yet' },
      { key: 'order', type: 'enum', values: ENUMS.sort_order, description: 'sort direction' },
    ],
    export: {
      name: 'export',
      description: 'Export every charge (NDJSON or CSV) to stdout, newest first',
      path: '/ops/charges/export',
      examples: ['fos charges export --category SHIPPING --format csv > shipping.csv'],
    },
    columns: ['id', 'name', 'category', 'quantity', 'calculated_amount', 'currency', 'merchant_team_id', 'created_at'],
    examples: [
      'fos charges list --category SHIPPING',
      'fos charges list --merchant "Acme Outdoor" --from 2026-01-01 --to 2026-01-31 --invoice none',
      'fos charges list --all --format csv > charges.csv',
    ],
  });
}
