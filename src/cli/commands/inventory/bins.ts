import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { writeCommand } from '../../shared/resource.js';
import { parseStockArgs, withLines } from '../../shared/stock-lines.js';
import { warehousesFilter } from '../../shared/flags.js';
import { response } from '../../output/shape.js';

// Stock by bin and lot, and moves between bins (issue 28; docs/floor.md).

export function inventoryLocations(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/locations.js')).BinStockListSchema),
    name: 'locations',
    description: 'List stock by location (bin) and lot',
    path: () => '/ops/inventory/locations',
    maxLimit: 1000,
    query: [
      { key: 'sku', description: 'one SKU' },
      { key: 'product_id', flag: '--product', arg: 'ids', type: 'list', description: 'product ids, comma-separated', ref: 'product' },
      warehousesFilter(),
      { key: 'location', arg: 'bin', description: 'one bin: id, name or barcode' },
      { key: 'lot_code', flag: '--lot', arg: 'code', description: 'one lot' },
      { key: 'expiring_before', arg: 'YYYY-MM-DD', description: 'lots expiring before this day' },
    ],
    columns: ['warehouse_name', 'location_name', 'sku', 'lot_code', 'expiration_date', 'on_hand', 'location_type', 'expired'],
    examples: [
      'fos inventory locations --sku MUG-BLUE',
      'fos inventory locations --location A-01-03',
      'fos inventory locations --expiring-before 2027-01-01 --all --format csv',
    ],
  });
}

export function inventoryMove(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/locations.js')).MoveSchema),
    name: 'move',
    description: 'Move units between two bins of a warehouse (the level does not change)',
    method: 'POST',
    mode: 'create',
    args: ['[sku=quantity...]'],
    path: () => '/ops/inventory/moves',
    fields: [
      { key: 'warehouse_id', flag: '--warehouse', arg: 'name|id', description: 'warehouse of both bins', required: true, ref: 'warehouse' },
      { key: 'from_location', flag: '--from', arg: 'bin', description: 'bin the units leave (name, barcode or id)', required: true },
      { key: 'to_location', flag: '--to', arg: 'bin', description: 'bin the units enter', required: true },
      { key: 'note', description: 'free text kept on the movements' },
    ],
    configure: (cmd) => cmd.option('--lot <code>', 'move this lot only (default: earliest expiry first)'),
    transform: (body, opts, args) => {
      const lot = opts.lot ? { lot_code: opts.lot } : {};
      return withLines(
        body,
        parseStockArgs(args.flat(), '=', 'quantity', 1).map((l) => ({ ...l, ...lot })),
        'MUG-BLUE=6',
      );
    },
    examples: [
      'fos inventory move --warehouse 0193… --from O-01 --to A-01-03 MUG-BLUE=12',
      'fos inventory move --warehouse 0193… --from A-01-03 --to DMG --lot L-0425 MUG-BLUE=1',
    ],
  });
}
