import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function pickingSessionsGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/picking.js')).PickingSessionSchema),
    description: 'Show one picking session',
    args: ['<picking-session-id>'],
    path: ([id]) => `/ops/picking-sessions/${seg(id)}`,
    examples: ['fos picking-sessions get 0193…'],
  });
}
