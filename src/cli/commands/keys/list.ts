import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { listCommand } from '../../shared/list.js';
import { response } from '../../output/shape.js';

export default function keysList(ctx: Context): Command {
  return listCommand(ctx, {
    output: response(async () => (await import('../../../contract/access.js')).KeyListSchema),
    description: 'List API keys of your team (never their tokens)',
    path: () => '/keys',
    columns: ['id', 'name', 'power_role', 'state', 'rate_tier', 'token_hint', 'created_at'],
    examples: ['fos keys list', 'fos keys list --json id,name,state'],
  });
}
