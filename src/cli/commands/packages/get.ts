import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand } from '../../shared/resource.js';
import { packagePath } from './fields.js';

export default function packagesGet(ctx: Context): Command {
  return getCommand(ctx, {
    description: 'Show one package (line items, label, fulfillment)',
    args: ['<package-id>'],
    path: ([id]) => packagePath(id),
    examples: ['fos packages get 0193…', 'fos packages get 0193… --json status,shipping_label.tracking_code'],
  });
}
