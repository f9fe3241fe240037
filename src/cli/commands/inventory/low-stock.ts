import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { LEVEL_FILTERS } from './list.js';
import { response } from '../../output/shape.js';

export default function inventoryLowStock(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/inventory.js')).InventoryListSchema),
    name: 'low-stock',
    description: "Levels below their product's minimum (available + on order), with the quantity that refills them",
    path: () => '/ops/inventory',
    maxLimit: 1000,
    fixedQuery: { below_minimum: true },
    query: LEVEL_FILTERS,
    columns: ['sku', 'warehouse_name', 'available', 'on_order', 'minimum_level', 'maximum_level', 'reorder_quantity', 'product_id'],
    examples: ['fos inventory low-stock', 'fos inventory low-stock --warehouse "Portland DC" --all --format csv > reorder.csv'],
  });
}
