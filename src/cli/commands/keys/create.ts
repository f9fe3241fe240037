import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ENUMS } from '../../enums.js';
import { UsageError } from '../../errors.js';
import { writeCommand } from '../../shared/resource.js';
import { response } from '../../output/shape.js';
import type { Static } from 'typebox';
import type { RoleSchema } from '../../../contract/access.js';

type Role = Pick<Static<typeof RoleSchema>, 'id' | 'name'> & Partial<Pick<Static<typeof RoleSchema>, 'permissions'>>;

const NO_PERMISSIONS = 'a MEMBER key without roles has no permissions: every request it makes is refused (403)';

/** MEMBER is the server's default power role; its permissions are those of its roles. */
const withoutPermissions = (body: Record<string, unknown>) =>
  String(body.power_role ?? 'MEMBER').toUpperCase() === 'MEMBER' && !(Array.isArray(body.role_ids) && body.role_ids.length);

async function listRoles(ctx: Context): Promise<Role[]> {
  const roles: Role[] = [];
  for await (const r of ctx.client().paginate<Role>('/roles')) roles.push(r);
  return roles;
}

export default function keysCreate(ctx: Context): Command {
  return writeCommand(ctx, {
    output: response(async () => (await import('../../../contract/access.js')).CreatedKeySchema),
    name: 'create',
    description: 'Create an API key; its token is printed once',
    method: 'POST',
    mode: 'create',
    path: () => '/keys',
    fields: [
      { key: 'name', description: 'key name', required: true },
      { key: 'description', description: 'what the key is for' },
      {
        key: 'power_role',
        flag: '--power-role',
        type: 'enum',
        values: ENUMS.power_role,
        description: 'ADMIN (all permissions) or MEMBER (default; only its roles)',
      },
      {
        key: 'role_ids',
        flag: '--role',
        arg: 'role,…',
        type: 'list',
        ref: 'role',
        description: 'custom roles to assign (MEMBER keys): names or ids',
      },
      { key: 'rate_tier', flag: '--tier', type: 'int', min: 1, max: 4, arg: '1-4', description: 'rate tier (default 1: 30 requests/60 s)' },
      { key: 'expires_at', type: 'date', arg: 'date-time', description: 'when the key stops working (ISO 8601)' },
    ],
    notice: 'the token is shown only once: store it now',
    // Without a TTY nothing is asked: a key that can do nothing is still made (scripts may add
    // roles next), but said so before it is created.
    transform: (body, opts) => {
      if ((!ctx.io.canPrompt || opts.data) && withoutPermissions(body)) ctx.io.warn(NO_PERMISSIONS);
      return body;
    },
    // On a terminal, what the flags leave out is asked, with the team's roles to pick from; a key
    // without permissions is made only when the person says yes to it.
    interactive: async (ctx, body) => {
      if (body.name === undefined) {
        body.name = await ctx.prompt.input({
          message: 'Key name:',
          flag: '--name',
          validate: (v) => (v.trim() ? true : 'a name is required'),
        });
      }
      let roles: Role[] | undefined;
      const teamRoles = async () => (roles ??= await listRoles(ctx));
      if (body.power_role === undefined) {
        const none = (await teamRoles()).length === 0;
        body.power_role = await ctx.prompt.select({
          message: none ? 'Power role (the team has no custom roles yet, so a MEMBER key could do nothing):' : 'Power role:',
          flag: '--power-role',
          default: none ? 'ADMIN' : 'MEMBER',
          choices: [
            { name: 'MEMBER: only the permissions of its roles', value: 'MEMBER' },
            { name: 'ADMIN: every permission of the team', value: 'ADMIN' },
          ],
        });
      }
      if (String(body.power_role).toUpperCase() === 'MEMBER' && body.role_ids === undefined && (await teamRoles()).length) {
        body.role_ids = await ctx.prompt.checkbox({
          message: 'Roles (space to pick, enter to confirm):',
          flag: '--role',
          choices: (await teamRoles()).map((r) => ({ name: r.name, value: r.id, description: r.permissions?.join(', ') })),
        });
      }
      if (withoutPermissions(body)) {
        const yes = await ctx.prompt.confirm({ message: `${NO_PERMISSIONS}. Create it anyway?`, flag: '--role', default: false });
        if (!yes) throw new UsageError('no key created: pick a role (--role; fos roles create makes one) or --power-role ADMIN');
      }
    },
    examples: ['fos keys create --name "packing station 4" --role 0193…', 'fos keys create --name ci --power-role ADMIN --json token'],
  });
}
