import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function keysGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/access.js')).KeySchema),
    description: 'Show one API key (roles, permissions, state)',
    args: ['<key-id>'],
    path: ([id]) => `/keys/${seg(id)}`,
    examples: ['fos keys get 0193…', 'fos keys get 0193… --json permissions'],
  });
}
