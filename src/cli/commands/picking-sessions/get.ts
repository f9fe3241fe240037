import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';

export default function pickingSessionsGet(ctx: Context): Command {
  return getCommand(ctx, {
    description: 'Show one picking session',
    args: ['<picking-session-id>'],
    path: ([id]) => `/ops/picking-sessions/${seg(id)}`,
    examples: ['fos picking-sessions get 0193…'],
  });
}
