import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { defaultLockOwner } from './owner.js';
import { response } from '../../output/shape.js';

export default function fulfillmentOrdersLock(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/fulfillment.js')).LockResponse),
    name: 'lock',
    description: 'Lock a fulfillment order (ACCEPTED or IN_PROGRESS) so no one else fulfills it',
    method: 'POST',
    mode: 'action',
    bodyOptions: false,
    args: ['<fulfillment-order-id>'],
    path: ([id]) => `/ops/fulfillment-orders/${seg(id)}/lock`,
    fields: [
      { key: 'lock_owner', flag: '--owner', arg: 'name', description: 'lock owner (default: $FOS_LOCK_OWNER or user@host)' },
      {
        key: 'timeout_minutes',
        flag: '--timeout',
        arg: 'minutes',
        type: 'number',
        max: 1440,
        description: 'lock expiry in minutes, up to 1440 (default 15; a fraction is rounded up to whole seconds: 0.5 = 30 s)',
      },
    ],
    transform: (body) => ({ lock_owner: defaultLockOwner(ctx.env), timeout_minutes: 15, ...body }),
    examples: ['fos fulfillment-orders lock 0193… --timeout 30', 'fos fulfillment-orders lock 0193… --owner station-4'],
  });
}
