import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { writeCommand } from '../../shared/resource.js';
import { ROLE_FIELDS } from './fields.js';
import { response } from '../../output/shape.js';

export default function rolesCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/access.js')).RoleSchema),
    name: 'create',
    description: 'Create a custom role (a named set of permissions)',
    method: 'POST',
    mode: 'create',
    path: () => '/roles',
    fields: ROLE_FIELDS,
    examples: [
      'fos roles create --name packer --permission READ_ORDERS,READ_FULFILLMENTS,WRITE_FULFILLMENTS',
      'fos roles create --name catalog --permission READ_PRODUCTS --permission WRITE_PRODUCTS',
    ],
  });
}
