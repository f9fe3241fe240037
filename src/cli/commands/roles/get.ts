import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { getCommand, seg } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function rolesGet(ctx: Context): Command {
  return getCommand(ctx, {
    output: response(async () => (await import('../../../contract/access.js')).RoleSchema),
    description: 'Show one custom role',
    args: ['<role-id>'],
    path: ([id]) => `/roles/${seg(id)}`,
    examples: ['fos roles get 0193…'],
  });
}
