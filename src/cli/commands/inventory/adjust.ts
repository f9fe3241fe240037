import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { keyPerRun, writeCommand } from '../../shared/resource.js';
import { parseStockArgs, withLines } from '../../shared/stock-lines.js';
import { response } from '../../output/shape.js';

export default function inventoryAdjust(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/inventory.js')).AdjustmentSchema),
    name: 'adjust',
    idempotencyKey: keyPerRun('inventory-adjust'),
    description: 'Change stock at a warehouse by a delta per SKU, for a reason (all lines or none)',
    method: 'POST',
    mode: 'create',
    args: ['[sku:delta...]'],
    path: () => '/ops/inventory/adjustments',
    fields: [
      { key: 'warehouse_id', flag: '--warehouse', arg: 'name|id', description: 'warehouse', required: true, ref: 'warehouse' },
      {
        key: 'reason',
        type: 'enum',
        values: ENUMS.adjustment_reason,
        description:
          'why: FOUND/LOST change on hand, DAMAGED/QUARANTINE set units aside (negative: write them off), RELEASE_QUARANTINE returns them',
        required: true,
      },
      { key: 'note', description: 'free text kept on the movements' },
    ],
    configure: (cmd) => cmd.option('--force', 'allow on hand below committed + set aside (never below zero)'),
    transform: (body, opts, args) => {
      const out = withLines(body, parseStockArgs(args.flat(), ':', 'delta'), 'MUG-BLUE:-2');
      return opts.force ? { ...out, force: true } : out;
    },
    examples: [
      'fos inventory adjust --warehouse "Portland DC" --reason FOUND MUG-BLUE:4',
      'fos inventory adjust --warehouse "Portland DC" --reason DAMAGED MUG-BLUE:2 TEE-M:1 --note "forklift"',
      'fos inventory adjust --warehouse "Portland DC" --reason LOST MUG-BLUE:-3 --force',
    ],
  });
}
