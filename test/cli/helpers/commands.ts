import type { Command } from 'commander';

/** Every command that runs something (groups without an action only list their verbs). */
export function leaves(cmd: Command, names: string[] = []): { name: string; cmd: Command }[] {
  return cmd.commands.flatMap((c) => {
    const path = [...names, c.name()];
    const own = (c as unknown as { _actionHandler: unknown })._actionHandler ? [{ name: path.join(' '), cmd: c }] : [];
    return [...own, ...leaves(c, path)];
  });
}
