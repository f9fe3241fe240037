import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { seg, writeCommand } from '../../shared/resource.js';
import { ROLE_FIELDS } from './fields.js';
import { response } from '../../output/shape.js';

export default function rolesUpdate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/access.js')).RoleSchema),
    name: 'update',
    description: 'Rename a role or replace its permissions',
    method: 'PATCH',
    mode: 'update',
    args: ['<role-id>'],
    path: ([id]) => `/roles/${seg(id)}`,
    fields: ROLE_FIELDS,
    examples: ['fos roles update 0193… --permission READ_ORDERS,WRITE_ORDERS'],
  });
}
