import type { Context } from '../context.js';
import { CliError, ExitCode } from '../errors.js';

/**
 * Guards destructive commands: `--yes` skips the question; otherwise a terminal confirm
 * (default No); without a terminal it is a usage error asking for --yes.
 */
export async function confirmDestructive(ctx: Context, question: string): Promise<void> {
  if (ctx.options.yes) return;
  const ok = await ctx.prompt.confirm({ message: question, flag: '--yes', default: false });
  if (!ok) throw new CliError('cancelled', ExitCode.ERROR);
}
