import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { writeCommand } from '../../shared/resource.js';
import { addItemOption } from '../../shared/items.js';
import { PACKAGE_FIELDS, packageItem, packagePath, withItems } from './fields.js';
import { response } from '../../output/shape.js';

export default function packagesCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/packages.js')).PackageSchema),
    name: 'create',
    description: 'Pack items of a locked fulfillment order into a package',
    method: 'POST',
    mode: 'create',
    path: () => packagePath(),
    fields: [
      {
        key: 'fulfillment_order_id',
        flag: '--fulfillment-order',
        arg: 'id',
        description: 'fulfillment order packed',
        required: true,
        ref: 'fulfillment-order',
      },
      ...PACKAGE_FIELDS,
      { key: 'idempotency_key', arg: 'key', description: 'makes retrying this create safe (sent as field and header)' },
    ],
    configure: (cmd) =>
      addItemOption(cmd, packageItem('line item, e.g. sku=MUG,quantity=2 (repeatable; quantities never above remaining)')),
    transform: (body, opts) => {
      const withLines = withItems(body, opts);
      if (!Array.isArray(withLines.package_line_items) || withLines.package_line_items.length === 0) {
        throw new UsageError('pass at least one --item sku=…,quantity=…');
      }
      return withLines;
    },
    idempotencyKey: (opts) => opts.idempotencyKey as string | undefined,
    examples: [
      'fos packages create --fulfillment-order 0193… --item sku=MUG-BLUE,quantity=2 --weight 800 --weight-unit G',
      'fos packages create --fulfillment-order 0193… --item sku=A,quantity=1 --item sku=B,quantity=3 --rate-strategy CHEAPEST',
    ],
  });
}
