import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { UsageError } from '../../errors.js';
import { listCommand } from '../../shared/list.js';
import { MERCHANT_OPTION, productPath } from './fields.js';
import { response } from '../../output/shape.js';

const OPS_ONLY = ['type', 'team_id', 'has_image', 'has_barcode', 'has_remote_products', 'was_inspected', 'warehouse_id'];

export default function productsList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/products.js')).OpsProductListItem),
    description: 'List products (ops family; --merchant for the merchant family)',
    path: (_args, opts) => productPath(opts),
    query: [
      { key: 'search', description: 'matches name, SKU or barcode' },
      { key: 'order_by', type: 'enum', values: ['created_at', 'updated_at'], description: 'sort field' },
      { key: 'order', type: 'enum', values: ENUMS.sort_order, description: 'sort direction' },
      { key: 'type', type: 'list', values: ENUMS.product_type, description: 'product types, comma-separated' },
      { key: 'team_id', description: 'only this team' },
      { key: 'has_image', type: 'boolean', description: 'with/without image' },
      { key: 'has_barcode', type: 'boolean', description: 'with/without barcode' },
      { key: 'has_remote_products', type: 'boolean', description: 'with/without remote products' },
      { key: 'was_inspected', type: 'boolean', description: 'inspected or not' },
      { key: 'warehouse_id', type: 'list', description: 'inventory of these warehouses only', ref: 'warehouse' },
    ],
    export: {
      name: 'export',
      description: 'Export every product with its inventory (NDJSON or CSV) to stdout, newest first',
      path: '/ops/products/export',
      examples: ['fos products export > products.ndjson', 'fos products export --format csv > products.csv'],
    },
    columns: ['id', 'sku', 'name', 'type', 'available', 'on_hand', 'committed'],
    configure: (cmd) => cmd.option(...MERCHANT_OPTION),
    validate: (opts, query) => {
      const used = OPS_ONLY.filter((k) => query[k] !== undefined);
      if (opts.merchant && used.length) {
        throw new UsageError(`--merchant lists do not take ${used.map((k) => `--${k.replaceAll('_', '-')}`).join(', ')}`);
      }
    },
    examples: [
      'fos products list --search mug',
      'fos products list --has-barcode false --limit 50',
      'fos products list --all --format ndjson > products.ndjson',
      'fos products list --merchant --json id,sku,name',
    ],
  });
}
