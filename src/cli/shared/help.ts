import type { Argument, Command } from 'commander';

/** Appends an "Examples:" section to a command's --help. */
export function withExamples(cmd: Command, examples: readonly string[]): Command {
  if (examples.length) cmd.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  return cmd;
}

/** The Command passed last to every commander action. */
export function commandOf(args: unknown[]): Command {
  return args[args.length - 1] as Command;
}

/** Adds positional arguments given as `<name>` strings or commander Arguments (with choices). */
export function addArguments(cmd: Command, args: readonly (string | Argument)[]): Command {
  for (const a of args) {
    if (typeof a === 'string') cmd.argument(a);
    else cmd.addArgument(a);
  }
  return cmd;
}
