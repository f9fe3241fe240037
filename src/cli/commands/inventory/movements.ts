import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { warehousesFilter } from '../../shared/flags.js';
import { response } from '../../output/shape.js';

export default function inventoryMovements(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/inventory.js')).MovementListSchema),
    name: 'movements',
    description: 'The inventory ledger, newest first: every change to a level, one row per bucket',
    path: () => '/ops/inventory/movements',
    maxLimit: 1000,
    query: [
      { key: 'sku', description: 'one SKU' },
      { key: 'product_id', flag: '--product', arg: 'ids', type: 'list', description: 'product ids, comma-separated', ref: 'product' },
      warehousesFilter(),
      { key: 'kind', type: 'list', values: ENUMS.movement_kind, description: 'movement kinds, comma-separated' },
      { key: 'reference_id', flag: '--reference', arg: 'id', description: 'of this order, package, purchase order or adjustment' },
      { key: 'work_order_id', flag: '--work-order', arg: 'id', description: 'consumed or built by this work order (kits)' },
      { key: 'created_at_min', flag: '--since', type: 'date', arg: 'date', description: 'at or after this time' },
      { key: 'created_at_max', flag: '--until', type: 'date', arg: 'date', description: 'at or before this time' },
    ],
    export: {
      name: 'export-movements',
      description: 'Export the inventory ledger (NDJSON or CSV) to stdout, newest first, with the movements filters',
      path: '/ops/inventory/movements/export',
      examples: [
        'fos inventory export-movements --since 2026-11-01 > ledger.ndjson',
        'fos inventory export-movements --format csv > ledger.csv',
      ],
    },
    columns: ['created_at', 'sku', 'bucket', 'delta', 'kind', 'reason', 'reference_type', 'reference_id', 'warehouse_name'],
    keep: ['created_at', 'sku', 'bucket', 'delta', 'kind', 'reason'],
    examples: [
      'fos inventory movements --sku MUG-BLUE',
      'fos inventory movements --kind ADJUSTED,COUNTED --since 2026-11-01',
      'fos inventory movements --reference 0193… --json bucket,delta,kind',
    ],
  });
}
