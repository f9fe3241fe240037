import { Argument, Command } from 'commander';
import { SHELLS, generateCompletion, type Shell } from '../../completion.js';
import type { Context } from '../../context.js';
import { withExamples } from '../../shared/help.js';
import { declareOutput, local } from '../../output/shape.js';

export default function completion(ctx: Context): Command {
  const cmd = new Command('completion')
    .description('Print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>').choices(SHELLS))
    .action(async (shell: Shell, _opts: unknown, command: Command) => {
      let root = command;
      while (root.parent) root = root.parent;
      await ctx.io.out(generateCompletion(shell, root));
    });
  declareOutput(cmd, local('prints a shell script'));
  return withExamples(cmd, [
    'fos completion bash > ~/.local/share/bash-completion/completions/fos',
    'fos completion zsh > "${fpath[1]}/_fos"',
    'fos completion fish > ~/.config/fish/completions/fos.fish',
  ]);
}
