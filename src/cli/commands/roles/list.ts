import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { response } from '../../output/shape.js';

export default function rolesList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/access.js')).RoleListSchema),
    description: 'List custom roles',
    path: () => '/roles',
    columns: ['id', 'name', 'permissions', 'description'],
    examples: ['fos roles list', 'fos roles list --json name,permissions'],
  });
}
