import { isIP } from 'node:net';
import { Command, Option } from 'commander';
import { PERMISSIONS } from '../contract/permissions.js';
import { applyExamples, SERVER_EXAMPLES } from './cli-examples.js';
import { defaultDemoDbPath, defaultDemoFilesDir, resolveDbUrl } from './data-dir.js';
import { registerDbCommands } from './db-cli.js';
import { backupOptions } from './backup/options.js';
import { UsageError } from '../shared/exit-codes.js';

// Server-side commands: `fos serve`, `fos admin …`, `fos db migrate`. Everything heavy
// (Fastify, Prisma) is imported inside the actions so `fos --help` stays fast.

const dbOption = () => new Option('--db <url>', 'SQLite file or postgresql:// URL (default: $FOS_DB, else the data directory)');

export function registerServerCommands(program: Command) {
  program
    .command('serve')
    .description('Run the Fulfillment Operations API on SQLite (default) or PostgreSQL')
    .addOption(dbOption())
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', (v) => parseIntOption(v, '--port'), 7070)
    .option('--redis <url>', 'share rate-limit counters through Redis (several replicas)')
    .addOption(new Option('--rate-limit-store <store>', 'where rate-limit counters live').choices(['memory', 'database', 'redis']))
    .option(
      '--demo',
      'serve a small demo warehouse (products, stock, orders, a /floor sign-in) from its own database, <data dir>/demo.db, made anew at every start (with --db: loaded into that database)',
    )
    .option('--reset', 'start the SQLite database over: the old file is kept as <file>.<time>.bak (the demo database always starts over)')
    .option(
      '--drain-timeout <seconds>',
      'on SIGTERM/SIGINT, how long in-flight requests may take before connections are cut',
      (v) => parseIntOption(v, '--drain-timeout'),
      10,
    )
    .option(
      '--unauth-rate-limit <n>',
      'requests with a missing or invalid key allowed per client address per minute (0: no limit)',
      (v) => parseIntOption(v, '--unauth-rate-limit'),
      120,
    )
    .option(
      '--allow-private-webhooks',
      'let outbound connections (webhook endpoints, shops, carriers) reach loopback, private and link-local addresses (local receivers, test doubles)',
    )
    .addOption(
      new Option('--allow-private-network', 'alias of --allow-private-webhooks').implies({ allowPrivateWebhooks: true }).hideHelp(),
    )
    .option(
      '--channel-sync-minutes <n>',
      'minutes between background order/listing syncs of each connected shop',
      (v) => parseIntOption(v, '--channel-sync-minutes'),
      Number(process.env.FOS_CHANNEL_SYNC_MINUTES ?? 15),
    )
    .option(
      '--audit-retention-days <n>',
      'days audit events are kept (docs/audit.md); older ones are deleted by the background worker, 0 keeps them forever',
      (v) => parseIntOption(v, '--audit-retention-days'),
      Number(process.env.FOS_AUDIT_RETENTION_DAYS ?? 365),
    )
    .option(
      '--storage <dir|s3-url>',
      'where uploaded files are kept: a directory replicas share, or s3://bucket/prefix (credentials from AWS_* variables); default: $FOS_STORAGE, else <data dir>/files',
    )
    .option(
      '--public-url <url>',
      "the https:// address people and agents reach this server at (behind a TLS proxy): OAuth metadata and the /mcp resource name it, and sign-in cookies are Secure; default: $FOS_PUBLIC_URL, else each request's own address",
      parsePublicUrl,
    )
    .option(
      '--trust-proxy <cidrs|hops>',
      "believe X-Forwarded-For from these reverse proxies (comma-separated addresses or CIDRs, loopback, or a number of hops) so the limiter and the logs see the client's address; default: $FOS_TRUST_PROXY, else none",
      parseTrustProxy,
    )
    .addOption(
      new Option(
        '--sqlite-sync <mode>',
        'SQLite: when commits reach the disk: normal syncs the log every second (a power cut may lose that last second; a crash of fos loses nothing), full syncs every commit (each waits ~3 ms for the disk)',
      )
        .choices(['normal', 'full'])
        .default(process.env.FOS_SQLITE_SYNC ?? 'normal'),
    )
    .option(
      '--max-upload-mb <n>',
      'largest file upload accepted, in MiB',
      (v) => parseIntOption(v, '--max-upload-mb'),
      Number(process.env.FOS_MAX_UPLOAD_MB ?? 25),
    )
    .option(
      '--metrics-token <token>',
      'serve Prometheus metrics at /metrics to scrapers sending Authorization: Bearer <token> (16+ characters); default: $FOS_METRICS_TOKEN (preferred: a command line is visible to every local user), else no /metrics',
      parseMetricsToken,
    )
    .option(
      '--min-free-disk-mb <n>',
      'SQLite: /readyz fails when the database disk has less free space (MiB; 0: no check)',
      (v) => parseIntOption(v, '--min-free-disk-mb'),
      Number(process.env.FOS_MIN_FREE_DISK_MB ?? 100),
    )
    .addOption(
      new Option('--log-level <level>', 'log level')
        .choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace'])
        .default(process.env.FOS_LOG_LEVEL ?? 'info'),
    )
    .addOption(
      new Option('--log-format <format>', 'log lines: readable on a terminal and JSON when piped (auto), or always one of them')
        .choices(['auto', 'pretty', 'json'])
        .default(process.env.FOS_LOG_FORMAT ?? 'auto'),
    )
    .option(
      '--backup-every <duration>',
      'SQLite: back up the database and uploads every <n>s|m|h|d (e.g. 6h), one backup at a time (see fos db backup)',
    )
    .option('--backup-keep <n>', 'backups kept by --backup-every; older ones are deleted', (v) => parseIntOption(v, '--backup-keep'), 14)
    .option(
      '--backup-to <dir|s3-url>',
      'where --backup-every writes: a directory, or s3://bucket/prefix (as --storage); default <data dir>/backups',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ fos serve                                   # embedded SQLite in the data directory
  $ fos serve --demo --port 0                   # the demo, on its own database, on a free port
  $ fos serve --reset                           # start your database over (the old file is kept)
  $ fos serve --db postgresql://127.0.0.1/fos   # shared PostgreSQL (run several replicas)
  $ fos serve --db postgresql://… --redis redis://127.0.0.1:6379`,
    )
    .action(async (opts) => {
      const [{ runServe }, { ServerLockedError }, { CliError, ExitCode }] = await Promise.all([
        import('./serve-command.js'),
        import('./single-server.js'),
        import('../shared/exit-codes.js'),
      ]);
      // The variables are read here, not as option defaults: a bad value must be a one-line
      // refusal of `fos serve`, not a failure to register the server commands.
      const fromEnv = <T>(name: string, parse: (v: string) => T): T | undefined => {
        const value = process.env[name];
        if (!value) return undefined;
        try {
          return parse(value);
        } catch (err) {
          throw new UsageError(`$${name}: ${(err as Error).message}`);
        }
      };
      // The demo without --db has a database of its own, never the one real use relies on (nor
      // $FOS_DB), started over at each start; its uploads are kept apart too (issue 35).
      const demoDb = Boolean(opts.demo && !opts.db);
      try {
        await runServe({
          ...opts,
          publicUrl: opts.publicUrl ?? fromEnv('FOS_PUBLIC_URL', parsePublicUrl),
          trustProxy: opts.trustProxy ?? fromEnv('FOS_TRUST_PROXY', parseTrustProxy),
          db: demoDb ? defaultDemoDbPath() : resolveDbUrl(opts.db),
          reset: demoDb ? 'discard' : opts.reset ? 'move-aside' : undefined,
          demoProfile: demoDb,
          storage: opts.storage ?? process.env.FOS_STORAGE ?? (demoDb ? defaultDemoFilesDir() : undefined),
          maxUploadBytes: opts.maxUploadMb * 1024 * 1024,
          metricsToken: opts.metricsToken ?? fromEnv('FOS_METRICS_TOKEN', parseMetricsToken),
          minFreeDiskBytes: opts.minFreeDiskMb * 1024 * 1024,
          backup: backupOptions(
            { ...opts, storage: opts.storage ?? (demoDb ? defaultDemoFilesDir() : undefined) },
            demoDb ? defaultDemoDbPath() : resolveDbUrl(opts.db),
          ),
        });
      } catch (err) {
        // A second server on the same SQLite file: a one-line refusal, exit 5 (conflict).
        if (err instanceof ServerLockedError) throw new CliError(err.message, ExitCode.CONFLICT);
        // A database a newer fos migrated: one line naming the migration, exit 8.
        if ((err as Error).name === 'DatabaseNewer') throw new CliError((err as Error).message, ExitCode.DATABASE);
        if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
          throw new CliError(
            `port ${opts.port} on ${opts.host} is in use — is another fos serve running? Use --port 0 for a free port (the URL is printed), or another --port`,
            ExitCode.CONFLICT,
          );
        }
        throw err;
      }
    });

  registerDbCommands(program);

  const admin = program
    .command('admin')
    .description('Manage teams, places and keys directly on the database (server side, for operators)')
    .addOption(dbOption());
  registerAdminCommands(admin);
  applyExamples(program, SERVER_EXAMPLES);
}

function parseIntOption(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  return n;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** `--trust-proxy`: a number of hops, or addresses/CIDRs (and proxy-addr's names) separated by commas. */
export function parseTrustProxy(value: string): string[] | number {
  if (/^\d+$/.test(value.trim())) return Number(value);
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const part of parts) {
    const [address, bits, extra] = part.split('/');
    const version = isIP(address);
    const okBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (version === 6 ? 128 : 32));
    if (!PROXY_NAMES.has(part) && (!version || !okBits || extra !== undefined)) {
      throw new UsageError(`--trust-proxy takes a number of hops or addresses/CIDRs such as 10.0.0.0/8,::1 (or loopback), got "${part}"`);
    }
  }
  if (!parts.length) throw new UsageError('--trust-proxy needs a number of hops or at least one address/CIDR');
  return parts;
}

/** A bearer token scrapers send for /metrics: long enough not to be guessed, no spaces (it goes in a header). */
function parseMetricsToken(v: string): string {
  if (!/^\S{16,}$/.test(v))
    throw new UsageError('the metrics token must be at least 16 characters without spaces (e.g. openssl rand -hex 24)');
  return v;
}

/** An http(s) origin, optionally with a trailing slash: what OAuth metadata names as the issuer. */
function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--public-url must be a URL such as https://fos.example.com, got "${value}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname.replace(/\/$/, '') || url.search || url.hash || url.username) {
    throw new UsageError(`--public-url must be an http(s) origin with no path, query or credentials, got "${value}"`);
  }
  return url.origin;
}

function registerAdminCommands(admin: Command) {
  const run =
    (name: string) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const [{ runAdmin }, { dbCommandError }] = await Promise.all([import('./admin-commands.js'), import('./db-commands.js')]);
      const opts = command.optsWithGlobals();
      // A database a newer fos migrated: exit 8, as for fos serve and fos db.
      await runAdmin(name, resolveDbUrl(opts.db), command.args, opts).catch((err) => {
        throw dbCommandError(err);
      });
    };

  const team = admin.command('team').description('Fulfiller and merchant teams');
  team
    .command('create')
    .description('Create a team')
    .requiredOption('--name <name>')
    .addOption(new Option('--kind <kind>').choices(['FULFILLER', 'MERCHANT']).makeOptionMandatory())
    .addOption(new Option('--measurement-system <system>').choices(['METRIC', 'IMPERIAL']).default('METRIC'))
    .action(run('team.create'));
  team.command('list').description('List teams').action(run('team.list'));

  const delegation = admin.command('delegation').description('Merchant-to-fulfiller delegations');
  delegation
    .command('create')
    .description('Link a merchant team to a fulfiller team')
    .requiredOption('--merchant <team-id>')
    .requiredOption('--fulfiller <team-id>')
    .option('--rate-card <file>', 'JSON rate card pricing charges (see docs/charges.md)')
    .action(run('delegation.create'));
  delegation.command('list').description('List delegations').option('--team <team-id>').action(run('delegation.list'));

  const warehouse = admin.command('warehouse').description('Warehouses of a fulfiller team');
  warehouse
    .command('create')
    .description('Create a warehouse')
    .requiredOption('--team <team-id>')
    .requiredOption('--name <name>')
    .option('--country <code>')
    .option('--city <city>')
    .option('--zip <zip>')
    .option('--state <state>')
    .option('--address1 <line>')
    .option('--label-format <format>', 'document of labels bought for its packages: PDF (default) or ZPL (thermal printers)')
    .option('--time-zone <zone>', "IANA time zone where the warehouse's day ends, for daily storage (default UTC)")
    .action(run('warehouse.create'));
  warehouse
    .command('label-format')
    .description("Set the default format of labels bought for a warehouse's packages")
    .argument('<warehouse-id>')
    .argument('<format>', 'PDF or ZPL')
    .action(run('warehouse.label-format'));
  warehouse
    .command('time-zone')
    .description("Set the IANA time zone where a warehouse's day ends (daily storage billing)")
    .argument('<warehouse-id>')
    .argument('<zone>', 'e.g. America/Los_Angeles or UTC')
    .action(run('warehouse.time-zone'));
  warehouse.command('list').description('List warehouses').option('--team <team-id>').action(run('warehouse.list'));

  const locationType = admin.command('location-type').description('Storage location types');
  locationType
    .command('create')
    .description('Create a location type')
    .requiredOption('--team <team-id>')
    .requiredOption('--name <name>')
    .action(run('location-type.create'));
  locationType.command('list').description('List location types').option('--team <team-id>').action(run('location-type.list'));

  const role = admin.command('role').description('Custom roles');
  role
    .command('create')
    .description('Create a custom role')
    .requiredOption('--team <team-id>')
    .requiredOption('--name <name>')
    .requiredOption('--permission <permission...>', `permissions the role grants: ${PERMISSIONS.join(', ')}`)
    .option('--description <text>')
    .action(run('role.create'));

  const key = admin.command('key').description('API keys');
  key
    .command('create')
    .description('Create a key and print its token once')
    .requiredOption('--team <team-id>')
    .requiredOption('--name <name>')
    .option('--description <text>')
    .addOption(new Option('--power-role <role>').choices(['ADMIN', 'MEMBER']).default('MEMBER'))
    .option('--role <name...>', 'custom roles (by name) to assign')
    .addOption(new Option('--tier <tier>').choices(['1', '2', '3', '4']).default('1'))
    .action(run('key.create'));
  key.command('list').description('List keys of a team (never their tokens)').requiredOption('--team <team-id>').action(run('key.list'));
  key
    .command('tier')
    .description("Set a key's rate tier")
    .argument('<key-id>')
    .addArgument(new Command().createArgument('<tier>').choices(['1', '2', '3', '4']))
    .action(run('key.tier'));
  key.command('disable').description('Disable a key').argument('<key-id>').action(run('key.disable'));

  admin
    .command('products')
    .description('Products of every team')
    .command('dedupe')
    .description('List products sharing a SKU (ignoring case) within a team; --merge folds each group into its oldest product')
    .option('--merge', 'merge each group (levels, movements, order lines…) into its oldest product, one transaction per group')
    .action(run('products.dedupe'));

  const user = admin.command('user').description('People who sign in to connect agents (OAuth)');
  user
    .command('create')
    .description('Create a user (password from --password-stdin or a hidden prompt)')
    .requiredOption('--email <email>')
    .requiredOption('--name <display-name>')
    .option('--password-stdin', 'read the password from stdin (one line)')
    .option('--team <team-id>', 'team the user joins')
    .addOption(new Option('--power-role <role>', 'power role in --team').choices(['ADMIN', 'MEMBER']))
    .option('--role <name...>', 'custom roles (by name) in --team')
    .action(run('user.create'));
  user
    .command('list')
    .description('List users (never their passwords)')
    .option('--team <team-id>', 'only members of this team')
    .action(run('user.list'));
  user
    .command('disable')
    .description('Disable a user: no sign-in, their connections stop at once')
    .argument('<user-id-or-email>')
    .action(run('user.disable'));
  user
    .command('add-to-team')
    .description('Add a user to a team, or replace their power role and roles there')
    .argument('<user-id-or-email>')
    .requiredOption('--team <team-id>')
    .addOption(new Option('--power-role <role>').choices(['ADMIN', 'MEMBER']).default('MEMBER'))
    .option('--role <name...>', 'custom roles (by name) to assign')
    .action(run('user.add-to-team'));
}
