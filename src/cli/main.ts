import { Command, Option } from 'commander';
import { VERSION } from '../version.js';
import { registerCommands } from './commands/index.js';
import { completeWith } from './completion-hints.js';
import { createContext, type Context, type GlobalOptions } from './context.js';
import { NetworkError } from '../client/errors.js';
import { CliError, ExitCode, exitCodeFor, renderError, UsageError } from './errors.js';
import { FORMATS } from './profile.js';
import { formatHelpCommandsFirst, helpWidthOf, wrapHelpText } from './shared/help.js';

/**
 * The `fos` program. Keep this file free of heavy imports: `fos --version` and `fos --help`
 * must not load the server, Prisma or undici (the API client imports undici on its first
 * request; conf and @inquirer/prompts are loaded on first use too).
 */

const ROOT_HELP = `
First steps:
  $ fos serve --demo                      run the API here with a demo warehouse (saves a profile)
  $ fos login --base-url <url>            or use a server someone else runs (asks for the key)
  $ fos products list                     what is in stock
  $ fos orders list --status OPEN         what there is to ship
  $ fos fulfill run <order-id> --rate-strategy CHEAPEST    ship it (lock, pack, label, fulfill)

Output: tables on a terminal, JSON when piped. --json prints the array of records of a list
(never the {data, meta} envelope); --json id,name,config.incoterm selects fields; --jq <expr>
filters that JSON through jq (strings print raw), e.g. fos orders list --jq '.[].order_number'.

Environment: FOS_PROFILE, FOS_BASE_URL, FOS_API_KEY override the saved profile;
FOS_CONFIG_DIR moves the config file; NO_COLOR disables colour; FOS_LOCK_OWNER names locks;
FOS_PAGER (else PAGER, else less -FRX) pages long records on a terminal ('' or cat: never).

Exit codes: 0 ok, 1 error (5xx), 2 usage/validation, 3 auth (401/403), 4 not found,
5 conflict/lock held (409), 6 rate limited (429), 7 network.
`;

/**
 * The program with its client commands: when `args` (the command line after `node fos`) names
 * one command, only that one is loaded (see registerCommands); without args, all of them.
 */
export async function buildProgram(ctx: Context, args?: readonly string[]): Promise<Command> {
  const program = new Command('fos')
    .description('Fulfillment Operations: command line for the Public API, and `fos serve` to host it')
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(
      completeWith(new Option('--profile <name>', 'saved profile to use (default: $FOS_PROFILE, else the current profile)'), 'profiles'),
    )
    .option('--base-url <url>', 'API base URL, overriding the profile and $FOS_BASE_URL')
    .option('--verbose', 'log HTTP requests and timings to stderr (API key redacted)')
    .option('--json [fields]', 'print JSON; optionally only these comma-separated fields')
    .option('--jq <expr>', 'filter the JSON output through jq (the real jq, built in), e.g. \'.[] | select(.priority == "HIGH") | .id\'')
    .option(
      '--template <text>',
      "print each record through a Mustache template, e.g. '{{order_number}}\\t{{status}}' (nested: {{lock.lock_owner}})",
    )
    .addOption(
      new Option(
        '--format <format>',
        "output format (default: table on a terminal, else json); csv writes a text cell starting with =, +, -, @, tab or CR with a leading ' so a spreadsheet shows it as text instead of running a formula",
      ).choices(FORMATS),
    )
    .option('--no-color', 'disable colour (NO_COLOR is honoured too)')
    .option('--no-pager', 'print long records directly instead of through $FOS_PAGER / $PAGER / less -FRX')
    .option('-y, --yes', 'answer yes to confirmations (needed for destructive commands in scripts)')
    .configureHelp({ showGlobalOptions: true, formatHelp: formatHelpCommandsFirst })
    .addHelpText('after', ({ command }) => wrapHelpText(ROOT_HELP, helpWidthOf(command)));

  const wanted = args && firstCommand(args);
  // `fos serve` and the other server commands need none of the client commands.
  if (!(wanted !== undefined && Object.hasOwn(SERVER_COMMANDS, wanted))) await registerCommands(program, ctx, wanted);

  program.hook('preAction', async (_program, actionCommand) => {
    const o = program.opts<GlobalOptions>();
    ctx.options = {
      profile: o.profile,
      baseUrl: o.baseUrl,
      verbose: o.verbose,
      json: o.json,
      jq: o.jq,
      template: o.template,
      format: o.format,
      pager: o.pager,
      color: o.color,
      yes: o.yes,
    };
    if (o.color === false) ctx.io.colorEnabled = false;
    if (o.template !== undefined && o.jq !== undefined) throw new UsageError('--template and --jq both shape the output: pass one of them');
    // Output options are checked before the command sends anything (output/precheck.ts).
    if (typeof o.json === 'string' || o.jq !== undefined || o.template !== undefined) {
      await (await import('./output/precheck.js')).checkOutputOptions(ctx, actionCommand);
    }
  });
  return program;
}

// ---------------------------------------------------------------------------------------------
// HOOK: server commands. `fos serve`, `fos db …` and `fos admin …` belong to the server
// engineers: src/server/cli.ts exports `registerServerCommands(program, ctx)` adding them.
// It is imported only when the command line asks for one of them (or for `completion`, which
// needs the whole tree), so other commands never load server code. Until then the names are
// listed in --help as placeholders; if the module is missing or fails to load, running one
// of them reports why (exit 1) and the rest of the CLI works.
// ---------------------------------------------------------------------------------------------
export const SERVER_COMMANDS: Record<string, string> = {
  serve: 'Run the Fulfillment Operations API (SQLite by default, or PostgreSQL)',
  db: 'Database maintenance (server side)',
  admin: 'Manage teams, warehouses and keys directly on the database (server side)',
};

export interface ServerCommandsModule {
  registerServerCommands(program: Command, ctx: Context): void | Promise<void>;
}
export type ServerCommandsLoader = () => Promise<ServerCommandsModule>;

const SERVER_CLI_MODULE = '../server/cli.js';
const loadServerModule: ServerCommandsLoader = () => import(SERVER_CLI_MODULE) as Promise<ServerCommandsModule>;

const VALUE_FLAGS = new Set(['--profile', '--base-url', '--format', '--jq', '--template']);
/** Global options whose value is optional: commander takes the next word when it is not an option. */
const OPTIONAL_VALUE_FLAGS = new Set(['--json']);

/** The first command word of the arguments (after `help`), skipping global options. */
export function firstCommand(args: readonly string[]): string | undefined {
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const a = args[i];
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (VALUE_FLAGS.has(a) || (OPTIONAL_VALUE_FLAGS.has(a) && args[i + 1] !== undefined && !args[i + 1].startsWith('-'))) i++;
      continue;
    }
    words.push(a);
    if (a !== 'help') break;
  }
  return words[0] === 'help' ? words[1] : words[0];
}

/**
 * Whether this command line loads the server module: a server command, or `completion` (which
 * needs the whole tree). bin/fos.js runs those from dist/ and every other one from the CLI bundle.
 */
export function loadsServerModule(args: readonly string[]): boolean {
  const wanted = firstCommand(args);
  return wanted !== undefined && (Object.hasOwn(SERVER_COMMANDS, wanted) || wanted === 'completion');
}

async function attachServerCommands(program: Command, ctx: Context, args: readonly string[], load: ServerCommandsLoader) {
  let failure: string | undefined;
  if (loadsServerModule(args)) {
    const before = new Set(program.commands);
    try {
      const mod = await load();
      await mod.registerServerCommands(program, ctx);
      for (const c of program.commands) if (!before.has(c)) c.helpGroup('Server:');
      return;
    } catch (err) {
      failure = (err as Error).message;
    }
  }
  for (const [name, description] of Object.entries(SERVER_COMMANDS)) {
    program.addCommand(
      new Command(name)
        .description(description)
        .helpGroup('Server:')
        .allowUnknownOption()
        .allowExcessArguments()
        .helpOption(false)
        .action(() => {
          throw new CliError(`fos ${name} is not available: the server module could not be loaded (${failure ?? 'not loaded'})`);
        }),
    );
  }
}

/**
 * Gives every command the program's output routing, help settings and exitOverride (addCommand
 * does not copy them; copyInheritedSettings would also reset per-command choices).
 */
function inheritSettings(program: Command, cmd: Command = program): void {
  for (const sub of cmd.commands) {
    sub.exitOverride().configureOutput(program.configureOutput()).configureHelp(program.configureHelp());
    inheritSettings(program, sub);
  }
}

export interface RunOptions {
  loadServerCommands?: ServerCommandsLoader;
}

/** Runs the CLI; returns the exit code (bin/fos.js sets process.exitCode from it). */
export async function run(argv: readonly string[] = process.argv, ctx: Context = createContext(), opts: RunOptions = {}): Promise<number> {
  const program = await buildProgram(ctx, argv.slice(2));
  const io = ctx.io;
  program.exitOverride().configureOutput({
    writeOut: (s) => io.stdout.write(s),
    writeErr: (s) => io.stderr.write(s),
    getOutHelpWidth: () => io.terminalWidth,
    getErrHelpWidth: () => io.terminalWidth,
  });
  try {
    await attachServerCommands(program, ctx, argv.slice(2), opts.loadServerCommands ?? loadServerModule);
    inheritSettings(program);
    await program.parseAsync([...argv]);
    return ExitCode.OK;
  } catch (err) {
    if ((err as Error)?.name === 'ExitPromptError') return 130; // Ctrl-C in a prompt
    const message =
      err instanceof NetworkError
        ? await (await import('./network-hint.js')).networkMessage(ctx, err)
        : renderError(err, ctx.options.verbose);
    if (message) io.stderr.write(message);
    return exitCodeFor(err);
  } finally {
    await ctx.close();
  }
}
