import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function workOrdersCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/work-orders.js')).WorkOrderSchema),
    name: 'create',
    description: 'Build an ASSEMBLY product: consume its components from bins and add the kits to a bin, in one transaction',
    method: 'POST',
    mode: 'create',
    path: () => '/ops/work-orders',
    fields: [
      { key: 'product_id', flag: '--product', arg: 'id', description: 'the ASSEMBLY product to build', required: true, ref: 'product' },
      { key: 'quantity', type: 'int', min: 1, description: 'kits to build', required: true },
      { key: 'warehouse_id', flag: '--warehouse', arg: 'name|id', description: 'warehouse', required: true, ref: 'warehouse' },
      {
        key: 'location_id',
        flag: '--location',
        arg: 'bin',
        description: 'bin for the kits (id, name or barcode; default: the putaway suggestion)',
      },
      { key: 'note', description: 'free text kept on the work order and its movements' },
    ],
    configure: (cmd) => cmd.option('--idempotency-key <key>', 'makes retrying this build safe: the same key builds once'),
    idempotencyKey: (opts) => opts.idempotencyKey as string | undefined,
    done: () => 'work order: built',
    examples: [
      'fos work-orders create --product 0193… --quantity 10 --warehouse East',
      'fos work-orders create --product 0193… --quantity 4 --warehouse East --location A-01-03 --idempotency-key build-0412',
    ],
  });
}
