import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import type { FieldSpec } from '../../shared/flags.js';
import { warehousesFilter } from '../../shared/flags.js';
import { response } from '../../output/shape.js';

export const LEVEL_FILTERS: FieldSpec[] = [
  { key: 'sku', description: 'one SKU' },
  { key: 'product_id', flag: '--product', arg: 'ids', type: 'list', description: 'product ids, comma-separated', ref: 'product' },
  warehousesFilter(),
];

export const LEVEL_COLUMNS = [
  'sku',
  'warehouse_name',
  'on_hand',
  'committed',
  'unavailable',
  'on_order',
  'available',
  'reorder_quantity',
  'product_id',
];

export default function inventoryList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/inventory.js')).InventoryListSchema),
    description: 'List inventory levels (product x warehouse): on hand, committed, set aside, on order, available',
    path: () => '/ops/inventory',
    maxLimit: 1000,
    query: [...LEVEL_FILTERS, { key: 'below_minimum', type: 'boolean', description: "only levels below the product's minimum_level" }],
    columns: LEVEL_COLUMNS,
    keep: ['sku', 'warehouse_name', 'on_hand', 'committed', 'available'],
    examples: [
      'fos inventory list --sku MUG-BLUE',
      'fos inventory list --warehouse "Portland DC" --all --format csv > stock.csv',
      "fos inventory list --json sku,warehouse_name,available --jq '.[] | select(.available < 5)'",
    ],
  });
}
