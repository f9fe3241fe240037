import { Command, Option } from 'commander';
import { defaultFilesDir, resolveDbUrl } from './data-dir.js';

// `fos db …`: database maintenance on the machine that holds the database (docs/serve.md). Each
// command resolves its database as `fos serve` does (--db, else $FOS_DB, else <data dir>/fos.db)
// and the uploads as `fos serve --storage` does (else $FOS_STORAGE, else <data dir>/files).

const dbOption = () => new Option('--db <url>', 'SQLite file or postgresql:// URL (default: $FOS_DB, else the data directory)');
const storageOption = () =>
  new Option('--storage <dir|s3-url>', "uploaded files, as fos serve's --storage (default: $FOS_STORAGE, else <data dir>/files)");

const storageOf = (opts: { storage?: string }) => opts.storage ?? process.env.FOS_STORAGE ?? defaultFilesDir();

export function registerDbCommands(program: Command) {
  const db = program.command('db').description('Database maintenance: migrate, back up, restore, check (server side)');
  db.command('migrate')
    .description('Apply pending migrations to the database (--dry-run: list them with their SQL, apply nothing)')
    .addOption(dbOption())
    .option('--dry-run', 'list the migrations a start would apply, what each does and its SQL; change nothing')
    .action(async (opts) => {
      const [{ runMigrate }, { dbCommandError, runMigrateDryRun }] = await Promise.all([
        import('./admin-commands.js'),
        import('./db-commands.js'),
      ]);
      if (opts.dryRun) return runMigrateDryRun(resolveDbUrl(opts.db));
      await runMigrate(resolveDbUrl(opts.db)).catch((err) => {
        throw dbCommandError(err);
      });
    });

  db.command('backup')
    .description('Write a consistent copy of a SQLite database (live or not) and its uploaded files to one .tar.gz')
    .argument('<file>', 'the archive to write (must not exist)')
    .addOption(dbOption())
    .addOption(storageOption())
    .action(async (file: string, opts) => {
      const { runBackup } = await import('./db-commands.js');
      await runBackup(resolveDbUrl(opts.db), storageOf(opts), file);
    });

  db.command('restore')
    .description('Unpack a backup into an empty data directory (refuses a running or non-empty one)')
    .argument('<file>', 'an archive written by fos db backup')
    .addOption(dbOption())
    .addOption(storageOption())
    .action(async (file: string, opts) => {
      const { runRestore } = await import('./db-commands.js');
      await runRestore(resolveDbUrl(opts.db), storageOf(opts), file);
    });

  db.command('check')
    .description('Verify a database: migrations current, ledger and charge invariants (SQLite and PostgreSQL); exit 8 when one fails')
    .addOption(dbOption())
    .action(async (opts) => {
      const { runCheck } = await import('./db-commands.js');
      await runCheck(resolveDbUrl(opts.db));
    });
}
