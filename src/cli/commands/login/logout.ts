import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { withExamples } from '../../shared/help.js';
import { declareOutput, local } from '../../output/shape.js';

export default function logout(ctx: Context): Command {
  const cmd = new Command('logout')
    .description('Forget the API key of the current (or --profile) profile; its base URL stays')
    .action(async () => {
      const store = await ctx.config.load();
      const name = store.selectedProfileName(ctx.options.profile);
      if (!name || !store.profiles()[name]) throw new UsageError('no profile to log out of (fos profile list)');
      store.removeApiKey(name);
      ctx.io.info(
        `logged out of profile "${name}" (${store.profiles()[name].base_url}): its key is no longer stored here; \`fos login\` to sign in again`,
      );
      if (ctx.env.FOS_API_KEY) ctx.io.warn('FOS_API_KEY is set and still supplies a key');
    });
  declareOutput(cmd, local('edits the config file'));
  return withExamples(cmd, ['fos logout', 'fos logout --profile staging']);
}
