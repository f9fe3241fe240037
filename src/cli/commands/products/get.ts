import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand } from '../../shared/resource.js';
import { MERCHANT_OPTION, productPath } from './fields.js';
import { response } from '../../output/shape.js';

const count = (v: unknown) => (v !== null && typeof v === 'object' ? (v as { count: number }).count : v);

/** Stock per warehouse with its figures (the API gives each bucket as { count, operations }). */
const stockRows = (list: Record<string, unknown>[]) =>
  list.map((w) => ({
    warehouse: w.warehouse_name,
    ...Object.fromEntries(['on_hand', 'committed', 'unavailable', 'available', 'on_order'].map((b) => [b, count(w[b])])),
  }));

export default function productsGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/products.js')).OpsProductDetail),
    description: 'Show one product with its inventory',
    args: ['<product-id>'],
    path: ([id], opts) => productPath(opts, id),
    configure: (cmd) => cmd.option(...MERCHANT_OPTION),
    views: {
      inventory_by_warehouse: { columns: ['warehouse', 'on_hand', 'committed', 'unavailable', 'available', 'on_order'], rows: stockRows },
    },
    examples: ['fos products get 0193…', 'fos products get 0193… --json sku,available,inventory_by_warehouse.warehouse_name'],
  });
}
