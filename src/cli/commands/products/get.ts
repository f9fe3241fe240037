import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand } from '../../shared/resource.js';
import { MERCHANT_OPTION, productPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function productsGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/products.js')).OpsProductDetail),
    description: 'Show one product with its inventory',
    args: ['<product-id>'],
    path: ([id], opts) => productPath(opts, id),
    configure: (cmd) => cmd.option(...MERCHANT_OPTION),
    examples: ['fos products get 0193…', 'fos products get 0193… --json sku,available,inventory_by_warehouse.warehouse_name'],
  });
}
