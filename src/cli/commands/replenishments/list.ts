import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { warehousesFilter } from '../../shared/flags.js';
import { response } from '../../output/shape.js';

export default function replenishmentsList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/replenishments.js')).ReplenishmentListSchema),
    description:
      'List replenishment tasks: products whose pickable bins hold less than their replenishment_minimum_level while overstock holds some (complete one with `fos inventory move`)',
    path: () => '/ops/replenishments',
    maxLimit: 1000,
    query: [
      warehousesFilter(),
      { key: 'product_id', flag: '--product', arg: 'ids', type: 'list', description: 'product ids, comma-separated', ref: 'product' },
    ],
    columns: [
      'sku',
      'to_location',
      'pickable_on_hand',
      'minimum_level',
      'quantity_needed',
      'quantity_suggested',
      'warehouse_id',
      'product_id',
    ],
    examples: [
      'fos replenishments list --warehouse East',
      'fos replenishments list --json sku,to_location,quantity_suggested,from_locations',
    ],
  });
}
