import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { defaultLockOwner } from '../fulfillment-orders/owner.js';
import { packagePath } from './fields.js';
import { response } from '../../output/shape.js';

export default function packagesFulfill(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/packages.js')).FulfillResponse),
    name: 'fulfill',
    description: 'Fulfill a labelled package: bills, pushes tracking, decrements quantities, releases the lock',
    method: 'POST',
    mode: 'action',
    bodyOptions: false,
    args: ['<package-id>'],
    path: ([id]) => packagePath(id, 'fulfill'),
    fields: [{ key: 'locked_by', arg: 'owner', description: 'the lock owner (default: $FOS_LOCK_OWNER or user@host)' }],
    transform: (body) => ({ locked_by: defaultLockOwner(ctx.env), ...body }),
    examples: ['fos packages fulfill 0193…', 'fos packages fulfill 0193… --locked-by station-4'],
  });
}
