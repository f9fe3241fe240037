import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { MERCHANT_OPTION, PRODUCT_FIELDS, productPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function productsCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/products.js')).OpsProductWritten),
    name: 'create',
    description: "Create a product (units default to the team's measurement system)",
    method: 'POST',
    mode: 'create',
    path: (_args, opts) => productPath(opts),
    fields: PRODUCT_FIELDS,
    transform: (body) => ({ type: 'STANDARD', ...body }),
    configure: (cmd) => cmd.option(...MERCHANT_OPTION),
    examples: [
      'fos products create --name "Blue mug" --sku MUG-BLUE --weight 350 --weight-unit G',
      'fos products create --data @product.json',
      'fos products create --name Pallet -F config.replenishment_minimum_level=10',
    ],
  });
}
