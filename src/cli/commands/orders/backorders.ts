import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { listCommand } from '../../shared/list.js';
import { response } from '../../output/shape.js';

/** What waits for stock, in serving order (priority, then oldest). */
export default function ordersBackorders(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/order-exceptions.js')).BackorderSchema),
    name: 'backorders',
    description: 'List units waiting for stock (CRITICAL, HIGH, NORMAL, LOW, then oldest); they allocate as stock arrives',
    path: () => '/ops/backorders',
    query: [
      { key: 'sku', description: 'only this SKU' },
      { key: 'product_id', arg: 'id', description: 'only this product', ref: 'product' },
      { key: 'priority', type: 'list', values: ENUMS.priority, description: 'priorities, comma-separated' },
    ],
    columns: ['order_number', 'sku', 'quantity', 'priority', 'since', 'order_id'],
    examples: ['fos orders backorders', 'fos orders backorders --priority CRITICAL,HIGH --json order_number,sku,quantity'],
  });
}
