import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { addItemOption } from '../../shared/items.js';
import { PACKAGE_FIELDS, packageItem, packagePath, withItems } from './fields.js';
import { response } from '../../output/shape.js';

export default function packagesUpdate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/packages.js')).PackageSchema),
    name: 'update',
    description: 'Change a package (its type and fulfillment order cannot change)',
    method: 'PATCH',
    mode: 'update',
    args: ['<package-id>'],
    path: ([id]) => packagePath(id),
    fields: PACKAGE_FIELDS,
    configure: (cmd) => addItemOption(cmd, packageItem('replaces ALL line items (items with id=… are updated; repeatable)')),
    transform: (body, opts) => withItems(body, opts),
    examples: ['fos packages update 0193… --weight 900', 'fos packages update 0193… --item id=0193…,quantity=1'],
  });
}
