import { Argument, Command } from 'commander';
import { DYNAMIC_KINDS, type DynamicKind } from '../../completion-hints.js';
import type { Context } from '../../context.js';
import { declareOutput, local } from '../../output/shape.js';

/** `fos __complete profiles`: what the completion scripts offer at run time, one per line. */
export default function completeValues(ctx: Context): Command {
  const cmd = new Command('__complete')
    .description('Print completion candidates (used by the completion scripts)')
    .addArgument(new Argument('<kind>').choices(DYNAMIC_KINDS))
    .action(async (kind: DynamicKind) => {
      if (kind === 'profiles') {
        const names = Object.keys((await ctx.config.load()).profiles()).sort();
        if (names.length) await ctx.io.out(`${names.join('\n')}\n`);
      }
    });
  return declareOutput(cmd, local('prints completion candidates'));
}
