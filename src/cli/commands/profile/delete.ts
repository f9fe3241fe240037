import { Argument, Command } from 'commander';
import { completeWith } from '../../completion-hints.js';
import type { Context } from '../../context.js';
import { confirmDestructive } from '../../shared/confirm.js';
import { withExamples } from '../../shared/help.js';
import { declareOutput, local } from '../../output/shape.js';

export default function profileDelete(ctx: Context): Command {
  const cmd = new Command('delete')
    .description('Delete a saved profile (its base URL and key) from this machine')
    .addArgument(completeWith(new Argument('<name>', 'profile name'), 'profiles'))
    .action(async (name: string) => {
      const store = await ctx.config.load();
      const profile = store.profiles()[name];
      if (profile) await confirmDestructive(ctx, `Delete profile "${name}" (${profile.base_url}) and its saved key?`);
      store.deleteProfile(name); // an unknown name is a usage error listing the known ones
      ctx.io.info(`deleted profile "${name}"${store.currentProfileName() ? '' : '; no profile is current now (fos profile use <name>)'}`);
    });
  declareOutput(cmd, local('edits the config file'));
  return withExamples(cmd, ['fos profile delete local-8080', 'fos profile delete old --yes   # scripts']);
}
