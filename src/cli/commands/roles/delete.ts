import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { none } from '../../output/shape.js';

export default function rolesDelete(ctx: Context): Command {
  return writeCommand(ctx, {
    output: none('answers 204: prints no record'),
    name: 'delete',
    description: 'Delete a custom role (keys holding it lose its permissions)',
    method: 'DELETE',
    mode: 'action',
    args: ['<role-id>'],
    path: ([id]) => `/roles/${seg(id)}`,
    confirm: (_, what) => `Delete role ${what}? Keys holding it lose its permissions.`,
    lookup: { path: ([id]) => `/roles/${seg(id)}`, label: (r) => r.name },
    done: ([id]) => `deleted role ${id}`,
    examples: ['fos roles delete 0193… --yes'],
  });
}
