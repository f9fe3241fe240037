import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand } from '../../shared/resource.js';
import { vendorPath } from './fields.js';
import { response } from '../../output/shape.js';

export default function vendorsGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/vendors.js')).VendorSchema),
    description: 'Show one vendor and its products',
    args: ['<vendor-id>'],
    path: ([id]) => vendorPath(id),
    examples: ['fos vendors get 0193…', 'fos vendors get 0193… --json vendor_name,products.sku'],
  });
}
