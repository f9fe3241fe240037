import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';

export default function keysGet(ctx: Context): Command {
  return getCommand(ctx, {
    description: 'Show one API key (roles, permissions, state)',
    args: ['<key-id>'],
    path: ([id]) => `/keys/${seg(id)}`,
    examples: ['fos keys get 0193…', 'fos keys get 0193… --json permissions'],
  });
}
