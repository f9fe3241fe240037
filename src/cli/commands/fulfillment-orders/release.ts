import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { defaultLockOwner } from './owner.js';
import { response } from '../../output/shape.js';

export default function fulfillmentOrdersRelease(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/fulfillment.js')).LockResponse),
    name: 'release',
    description: 'Release your lock on a fulfillment order',
    method: 'POST',
    mode: 'action',
    bodyOptions: false,
    args: ['<fulfillment-order-id>'],
    path: ([id]) => `/ops/fulfillment-orders/${seg(id)}/release`,
    fields: [{ key: 'lock_owner', flag: '--owner', arg: 'name', description: 'lock owner (default: $FOS_LOCK_OWNER or user@host)' }],
    transform: (body) => ({ lock_owner: defaultLockOwner(ctx.env), ...body }),
    done: ([id]) => `released the lock on ${id}`,
    examples: ['fos fulfillment-orders release 0193…'],
  });
}
