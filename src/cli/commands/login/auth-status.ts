import { Command } from 'commander';
import { redactToken } from '../../../client/redact.js';
import type { Context } from '../../context.js';
import { printRecord } from '../../output/print.js';
import { group } from '../../shared/resource.js';
import { withExamples } from '../../shared/help.js';
import { declareOutput, local } from '../../output/shape.js';
import type { Static } from 'typebox';
import type { MeSchema } from '../../../contract/access.js';

type Me = Partial<Static<typeof MeSchema>>;

function status(ctx: Context): Command {
  const cmd = new Command('status')
    .description('Show who the CLI is signed in as: base URL, profile, key, team, permissions, rate tier and what is left of it')
    .action(async () => {
      const store = await ctx.config.load();
      const resolved = store.resolve({ profile: ctx.options.profile, baseUrl: ctx.options.baseUrl });
      const client = ctx.client();
      const me = await client.get<Me>('/me');
      const rl = client.lastRateLimit;
      await printRecord(ctx, {
        base_url: resolved.base_url,
        profile: resolved.name ?? null,
        api_key: redactToken(resolved.api_key),
        key_source: resolved.source.api_key,
        key_id: me?.key_id ?? null,
        key_name: me?.key_name ?? null,
        team_name: me?.team_name ?? null,
        team_kind: me?.team_kind ?? null,
        power_role: me?.power_role ?? null,
        permissions: me?.permissions ?? [],
        rate_tier: me?.rate_tier ?? null,
        rate_limit: rl?.limit ?? null,
        rate_remaining: rl?.remaining ?? null,
        rate_reset_seconds: rl?.reset ?? null,
      });
    });
  declareOutput(cmd, local('describes the saved profile (and asks the server who the key is); sends no write'));
  return withExamples(cmd, ['fos auth status', 'fos auth status --json rate_remaining']);
}

export default (ctx: Context) => group('auth', 'Who the CLI is signed in as', [status(ctx)]);
