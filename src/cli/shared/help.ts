import type { Argument, Command, Help, Option } from 'commander';

/** Appends an "Examples:" section to a command's --help, wrapped at the terminal's width. */
export function withExamples(cmd: Command, examples: readonly string[]): Command {
  if (examples.length)
    cmd.addHelpText('after', ({ command }) =>
      wrapHelpText(`\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`, helpWidthOf(command)),
    );
  return cmd;
}

/** The Command passed last to every commander action. */
export function commandOf(args: unknown[]): Command {
  return args[args.length - 1] as Command;
}

/** Adds positional arguments given as `<name>` strings or commander Arguments (with choices). */
/** `<vendor-id>` for each declared argument (commander Arguments by their name). */
export const argNames = (args: readonly (string | Argument)[]) =>
  args.map((a) => (typeof a === 'string' ? a : `<${a.name()}${a.variadic ? '...' : ''}>`));

export function addArguments(cmd: Command, args: readonly (string | Argument)[]): Command {
  for (const a of args) {
    if (typeof a === 'string') cmd.argument(a);
    else cmd.addArgument(a);
  }
  return cmd;
}

/**
 * commander's help with the subcommands first (what a group is for), then its options, then the
 * global ones, as gh and git print it (issue 22). The implicit `help` command joins the first
 * group instead of a "Commands:" heading of its own below the grouped ones.
 */
export function formatHelpCommandsFirst(cmd: Command, helper: Help): string {
  const termWidth = helper.padWidth(cmd, helper);
  const width = helper.helpWidth ?? 80;
  const item = (term: string, description: string) => helper.formatItem(term, termWidth, description, helper);
  const out = [`${helper.styleTitle('Usage:')} ${helper.styleUsage(helper.commandUsage(cmd))}`, ''];
  const description = helper.commandDescription(cmd);
  if (description) out.push(helper.boxWrap(helper.styleCommandDescription(description), width), '');
  const args = helper
    .visibleArguments(cmd)
    .map((a) => item(helper.styleArgumentTerm(helper.argumentTerm(a)), helper.styleArgumentDescription(helper.argumentDescription(a))));
  out.push(...helper.formatItemList('Arguments:', args, helper));

  const visible = helper.visibleCommands(cmd);
  const help = (cmd as Command & { _getHelpCommand(): Command | null })._getHelpCommand();
  const firstGroup = visible.find((c) => c !== help && c.helpGroup())?.helpGroup();
  const groups = helper.groupItems([...cmd.commands], visible, (sub) => sub.helpGroup() || (sub === help && firstGroup) || 'Commands:');
  groups.forEach((subs, heading) => {
    const list = subs.map((sub) =>
      item(helper.styleSubcommandTerm(helper.subcommandTerm(sub)), helper.styleSubcommandDescription(helper.subcommandDescription(sub))),
    );
    out.push(...helper.formatItemList(heading, list, helper));
  });

  const option = (o: Option) =>
    item(helper.styleOptionTerm(helper.optionTerm(o)), helper.styleOptionDescription(helper.optionDescription(o)));
  helper
    .groupItems([...cmd.options], helper.visibleOptions(cmd), (o) => o.helpGroupHeading ?? 'Options:')
    .forEach((options, heading) => out.push(...helper.formatItemList(heading, options.map(option), helper)));
  if (helper.showGlobalOptions) out.push(...helper.formatItemList('Global Options:', helper.visibleGlobalOptions(cmd).map(option), helper));
  return out.join('\n');
}

/** The help width commander uses for `cmd` (the terminal's, through the program's output settings). */
export const helpWidthOf = (cmd: Command): number => cmd.configureOutput().getOutHelpWidth?.() ?? 80;

/** Shell-like words of a command line: a quoted part ('…' or "…") is never split. */
const shellWords = (line: string) => line.match(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g) ?? [];

/** Words packed into lines of at most `width` columns (a word longer than that stands alone). */
function pack(words: string[], width: number, first: string, rest: string, suffix = ''): string[] {
  const lines: string[] = [];
  let line = first;
  let bare = true;
  for (const w of words) {
    if (!bare && line.length + 1 + w.length + suffix.length > width) {
      lines.push(line + suffix);
      line = rest + w;
    } else line += (bare ? '' : ' ') + w;
    bare = false;
  }
  lines.push(line);
  return lines;
}

/**
 * Free help text (examples, notes) wrapped at `width`, never inside a word: a prose line goes on
 * under its own indentation; an example command (`$ fos …`) goes on with a trailing ` \`, as a
 * shell reads it, so it still pastes; its description or `# comment` goes under it.
 */
export function wrapHelpText(text: string, width: number): string {
  return text
    .split('\n\n')
    .map((block) => wrapBlock(block, width))
    .join('\n\n');
}

/** A paragraph of prose at one indentation is filled again; other lines are wrapped one by one. */
function wrapBlock(block: string, width: number): string {
  const lines = block.split('\n');
  const indent = /^ */.exec(lines.find((l) => l.trim()) ?? '')![0];
  const prose = lines.every((l) => l.startsWith(indent) && !/^ *\$ /.test(l) && !/^ /.test(l.slice(indent.length)) && !/:$/.test(l));
  if (prose && lines.some((l) => l.length > width)) {
    const lead = /^\n*/.exec(block)![0];
    return lead + pack(block.trim().split(/\s+/), width, indent, indent).join('\n');
  }
  return lines
    .flatMap((line) => {
      if (line.length <= width) return [line];
      const indent = /^ */.exec(line)![0];
      const body = line.slice(indent.length);
      if (!body.startsWith('$ ')) return pack(body.split(/ +/), width, indent, indent);
      // `$ command    description` or `$ command  # comment`: the part after a wide gap or a #.
      const m = /^(.*?)(?: {2,}| )(#.*)$/.exec(body) ?? /^(\$ .*?) {2,}(\S.*)$/.exec(body);
      const [command, note] = m ? [m[1], m[2]] : [body, undefined];
      const lines = pack(shellWords(command), width, indent, `${indent}    `, ' \\');
      if (note) lines.push(...pack(note.split(/ +/), width, `${indent}    `, `${indent}    `));
      return lines;
    })
    .join('\n');
}
