import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { keyPerRun, writeCommand } from '../../shared/resource.js';
import { parseStockArgs, withLines } from '../../shared/stock-lines.js';
import { response } from '../../output/shape.js';

export default function inventoryCount(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/inventory.js')).AdjustmentSchema),
    name: 'count',
    idempotencyKey: keyPerRun('inventory-count'),
    description: 'Record a cycle count: on hand becomes the counted figure per SKU (exact even while orders ship)',
    method: 'POST',
    mode: 'create',
    args: ['[sku=counted...]'],
    path: () => '/ops/inventory/adjustments',
    fields: [
      { key: 'warehouse_id', flag: '--warehouse', arg: 'name|id', description: 'warehouse counted', required: true, ref: 'warehouse' },
      { key: 'note', description: 'free text kept on the movements' },
      { key: 'location', arg: 'bin', description: 'count one bin (name, barcode or id): the bin becomes the figure' },
    ],
    configure: (cmd) =>
      cmd
        .option('--correction', 'record as CORRECTION instead of CYCLE_COUNT')
        .option('--force', 'accept a count below what is committed (never below zero)')
        .option('--lot <code>', 'with --location: count this lot of the bin'),
    transform: (body, opts, args) => {
      const lot = opts.lot ? { lot_code: opts.lot } : {};
      const out = {
        reason: opts.correction ? 'CORRECTION' : 'CYCLE_COUNT',
        ...withLines(
          body,
          parseStockArgs(args.flat(), '=', 'counted', 0).map((l) => ({ ...l, ...lot })),
          'MUG-BLUE=40',
        ),
      };
      return opts.force ? { ...out, force: true } : out;
    },
    examples: [
      'fos inventory count --warehouse "Portland DC" MUG-BLUE=40 TEE-M=12',
      'fos inventory count --warehouse "Portland DC" MUG-BLUE=0 --note "aisle 4 recount"',
      'fos inventory count --warehouse "Portland DC" --location A-01-03 MUG-BLUE=7',
      'fos inventory import counts.csv --warehouse "Portland DC"   # many SKUs from a spreadsheet',
    ],
  });
}
