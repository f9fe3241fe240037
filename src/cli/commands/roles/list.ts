import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';

export default function rolesList(ctx: Context): Command {
  return listCommand(ctx, {
    description: 'List custom roles',
    path: () => '/roles',
    columns: ['id', 'name', 'permissions', 'description'],
    examples: ['fos roles list', 'fos roles list --json name,permissions'],
  });
}
