import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { writeCommand } from '../../shared/resource.js';

export default function keysCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    name: 'create',
    description: 'Create an API key; its token is printed once',
    method: 'POST',
    mode: 'create',
    path: () => '/keys',
    fields: [
      { key: 'name', description: 'key name', required: true },
      { key: 'description', description: 'what the key is for' },
      { key: 'power_role', flag: '--power-role', type: 'enum', values: ENUMS.power_role, description: 'ADMIN (all permissions) or MEMBER (default; only its roles)' },
      { key: 'role_ids', flag: '--role', arg: 'role-id,…', type: 'list', description: 'custom roles to assign (MEMBER keys)' },
      { key: 'rate_tier', flag: '--tier', type: 'int', min: 1, max: 4, arg: '1-4', description: 'rate tier (default 1: 30 requests/60 s)' },
      { key: 'expires_at', type: 'date', arg: 'date-time', description: 'when the key stops working (ISO 8601)' },
    ],
    notice: 'the token is shown only once: store it now',
    // On a terminal, what the flags leave out is asked, with the team's roles to pick from.
    interactive: async (ctx, body) => {
      if (body.name === undefined) {
        body.name = await ctx.prompt.input({ message: 'Key name:', flag: '--name', validate: (v) => (v.trim() ? true : 'a name is required') });
      }
      if (body.power_role === undefined) {
        body.power_role = await ctx.prompt.select({
          message: 'Power role:', flag: '--power-role', default: 'MEMBER',
          choices: [
            { name: 'MEMBER: only the permissions of its roles', value: 'MEMBER' },
            { name: 'ADMIN: every permission of the team', value: 'ADMIN' },
          ],
        });
      }
      if (String(body.power_role).toUpperCase() === 'MEMBER' && body.role_ids === undefined) {
        const roles: { id: string; name: string; permissions?: string[] }[] = [];
        for await (const r of ctx.client().paginate<{ id: string; name: string; permissions?: string[] }>('/roles')) roles.push(r);
        if (roles.length === 0) {
          ctx.io.warn('the team has no custom roles yet: a MEMBER key without roles can do nothing (fos roles create)');
        } else {
          body.role_ids = await ctx.prompt.checkbox({
            message: 'Roles (space to pick, enter to confirm):', flag: '--role',
            choices: roles.map((r) => ({ name: r.name, value: r.id, description: r.permissions?.join(', ') })),
          });
        }
      }
    },
    examples: [
      'fos keys create --name "packing station 4" --role 0193…',
      'fos keys create --name ci --power-role ADMIN --json token',
    ],
  });
}
