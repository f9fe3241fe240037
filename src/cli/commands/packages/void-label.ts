import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { packagePath } from './fields.js';
import { response } from '../../output/shape.js';

export default function packagesVoidLabel(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/packages.js')).PackageSchema),
    name: 'void-label',
    description: 'Void the shipping label of an unfulfilled package (refund SUBMITTED); the package can then be labelled again',
    method: 'POST',
    mode: 'action',
    bodyOptions: false,
    args: ['<package-id>'],
    path: ([id]) => packagePath(id, 'label/void'),
    confirm: (_, what) => `Void the shipping label of package ${what}?`,
    lookup: { path: ([id]) => packagePath(id), label: (p) => p.shipping_label_tracking_code ?? p.name },
    examples: ['fos packages void-label 0193… --yes'],
  });
}
