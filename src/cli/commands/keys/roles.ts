import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';

export default function keysRoles(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/access.js')).KeySchema),
    name: 'roles',
    description: "Set a key's custom roles (replaces the current set; none clears it)",
    method: 'PUT',
    mode: 'action',
    args: ['<key-id>', '[role-ids...]'],
    path: ([id]) => `/keys/${seg(id)}/roles`,
    // The roles as resolved (names or ids, resource.ts resolveIdArgs), not as typed.
    argsToBody: (args) => ({ role_ids: (args[1] as unknown as string[] | undefined) ?? [] }),
    examples: [
      'fos keys roles 0193…key packer picker',
      'fos keys roles 0193…key 0193…role-a',
      'fos keys roles 0193…key   # remove all roles',
    ],
  });
}
