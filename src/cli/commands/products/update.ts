import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { MERCHANT_OPTION, PRODUCT_FIELDS, productPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function productsUpdate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/products.js')).OpsProductWritten),
    name: 'update',
    description: 'Change fields of a product (partial update)',
    method: 'PATCH',
    mode: 'update',
    args: ['<product-id>'],
    path: ([id], opts) => productPath(opts, id),
    fields: PRODUCT_FIELDS,
    configure: (cmd) => cmd.option(...MERCHANT_OPTION),
    examples: [
      'fos products update 0193… --name "Blue mug (large)"',
      "fos products update 0193… -F bundle_components='[]'   # remove all bundle components",
    ],
  });
}
