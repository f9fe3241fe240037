import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { packagePath } from './fields.js';
import { response } from '../../output/shape.js';

export default function packagesTrack(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/carrier-integrations.js')).TrackingEventListSchema),
    name: 'track',
    description: "Tracking history of a package's label, as its carrier platform reported it (oldest first)",
    args: ['<package-id>'],
    path: ([id]) => packagePath(id, 'tracking-events'),
    columns: ['occurred_at', 'status', 'message', 'provider_status'],
    examples: ['fos packages track 0193…', 'fos packages track 0193… --format json'],
  });
}
