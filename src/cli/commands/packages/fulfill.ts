import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { defaultLockOwner } from '../fulfillment-orders/owner.js';
import { packagePath } from './fields.js';
import { response } from '../../output/shape.js';

/**
 * `fos packages fulfill <package>`: with --locked-by, the spec's rule (that owner must hold the
 * lock). Without it, the caller's own lock ($FOS_LOCK_OWNER or user@host) when it holds one, else
 * no locked_by: the server locks for this fulfill and releases (docs/fulfillment.md).
 */
export default function packagesFulfill(ctx: Context): Command {
  let heldBy: string | undefined;
  let given = false;
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/packages.js')).FulfillResponse),
    name: 'fulfill',
    description:
      'Fulfill a labelled package: bills, pushes tracking, decrements quantities, releases the lock (locked for you if unlocked)',
    method: 'POST',
    mode: 'action',
    bodyOptions: false,
    args: ['<package-id>'],
    path: ([id]) => packagePath(id, 'fulfill'),
    fields: [
      { key: 'locked_by', arg: 'owner', description: 'the lock owner that holds the lock (default: yours when you hold it, else none)' },
    ],
    transform: (body) => {
      given = body.locked_by !== undefined;
      return body;
    },
    resolveArgs: async (c, args) => {
      const { resolveRef } = await import('../../shared/refs.js');
      const id = await resolveRef(c.client(), 'package', args[0]);
      if (!given) heldBy = await ownLock(c, id);
      return [id];
    },
    argsToBody: () => (heldBy ? { locked_by: heldBy } : {}),
    examples: ['fos packages fulfill 0193…', 'fos packages fulfill 0193… --locked-by station-4'],
  });
}

/** The caller's default owner, when it holds the lock of the package's fulfillment order. */
async function ownLock(ctx: Context, packageId: string): Promise<string | undefined> {
  const client = ctx.client();
  const pkg = await client.get<{ fulfillment_order_id: string | null }>(`/ops/packages/${seg(packageId)}`);
  if (!pkg.fulfillment_order_id) return undefined;
  const fo = await client.get<{ lock: { lock_owner: string } | null }>(`/ops/fulfillment-orders/${seg(pkg.fulfillment_order_id)}`);
  const mine = defaultLockOwner(ctx.env);
  return fo.lock?.lock_owner === mine ? mine : undefined;
}
