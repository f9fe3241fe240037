import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { parseStockArgs, withLines } from '../../shared/stock-lines.js';
import { response } from '../../output/shape.js';

export default function purchaseOrdersCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/purchase-orders.js')).PurchaseOrderSchema),
    name: 'create',
    description: 'Create a purchase order: its units count as on order at the warehouse until received',
    method: 'POST',
    mode: 'create',
    args: ['[sku=quantity...]'],
    path: () => '/ops/purchase-orders',
    fields: [
      { key: 'warehouse_id', flag: '--warehouse', arg: 'name|id', description: 'receiving warehouse', required: true, ref: 'warehouse' },
      {
        key: 'merchant_team_id',
        flag: '--merchant',
        alias: '--merchant-team',
        arg: 'name|id',
        description: 'a delegated merchant: its products, receiving billed on its rate card',
        ref: 'merchant',
      },
      { key: 'vendor_id', flag: '--vendor', arg: 'id', description: 'vendor shipping it' },
      { key: 'reference', description: 'your PO number' },
      { key: 'expected_at', flag: '--expected-at', type: 'date', arg: 'date', description: 'expected arrival' },
    ],
    transform: (body, _opts, args) => withLines(body, parseStockArgs(args.flat(), '=', 'quantity', 1), 'MUG-BLUE=120'),
    examples: [
      'fos purchase-orders create --warehouse "Portland DC" --reference PO-1001 MUG-BLUE=120 TEE-M=48',
      'fos purchase-orders create --warehouse "Portland DC" --merchant "Acme Outdoor" --expected-at 2026-12-01 --data @po.json',
    ],
  });
}
