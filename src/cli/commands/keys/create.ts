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
    examples: [
      'fos keys create --name "packing station 4" --role 0193…',
      'fos keys create --name ci --power-role ADMIN --json token',
    ],
  });
}
