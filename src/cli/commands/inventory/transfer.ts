import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { keyPerRun, writeCommand } from '../../shared/resource.js';
import { parseStockArgs, withLines } from '../../shared/stock-lines.js';
import { response } from '../../output/shape.js';

export default function inventoryTransfer(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/inventory.js')).TransferSchema),
    name: 'transfer',
    idempotencyKey: keyPerRun('inventory-transfer'),
    description: 'Ship stock to another warehouse of the team (on order there until received)',
    method: 'POST',
    mode: 'create',
    args: ['[sku=quantity...]'],
    path: () => '/ops/inventory/transfers',
    fields: [
      { key: 'from_warehouse_id', flag: '--from', arg: 'warehouse', description: 'source warehouse', required: true, ref: 'warehouse' },
      { key: 'to_warehouse_id', flag: '--to', arg: 'warehouse', description: 'destination warehouse', required: true, ref: 'warehouse' },
      { key: 'reference', description: 'your reference' },
      { key: 'note', description: 'free text kept on the movements' },
    ],
    transform: (body, _opts, args) => withLines(body, parseStockArgs(args.flat(), '=', 'quantity', 1), 'MUG-BLUE=24'),
    examples: [
      'fos inventory transfer --from "Columbus DC" --to "Portland DC" MUG-BLUE=24 TEE-M=12',
      'fos inventory transfers receive <transfer-id> MUG-BLUE=24',
    ],
  });
}
