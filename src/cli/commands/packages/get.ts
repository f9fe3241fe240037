import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand } from '../../shared/resource.js';
import { packagePath } from './fields.js';
import { response } from '../../output/shape.js';

export default function packagesGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/packages.js')).PackageSchema),
    description: 'Show one package (line items, label, fulfillment)',
    args: ['<package-id>'],
    path: ([id]) => packagePath(id),
    examples: ['fos packages get 0193…', 'fos packages get 0193… --json status,shipping_label.tracking_code'],
  });
}
