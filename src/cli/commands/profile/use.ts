import { Argument, Command } from 'commander';
import { completeWith } from '../../completion-hints.js';
import type { Context } from '../../context.js';
import { withExamples } from '../../shared/help.js';
import { declareOutput, local } from '../../output/shape.js';

export default function profileUse(ctx: Context): Command {
  const cmd = new Command('use')
    .description('Make a saved profile the current one')
    .addArgument(completeWith(new Argument('<name>', 'profile name'), 'profiles'))
    .action(async (name: string) => {
      (await ctx.config.load()).useProfile(name);
      ctx.io.info(`current profile: ${name}`);
    });
  declareOutput(cmd, local('edits the config file'));
  return withExamples(cmd, ['fos profile use local']);
}
