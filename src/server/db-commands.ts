import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CliError, ExitCode } from '../shared/exit-codes.js';
import { checkDatabase } from '../db/check.js';
import { DatabaseMissing } from '../db/db-reader.js';
import { DatabaseNewer } from '../db/migrate.js';
import { planMigrations } from '../db/migrate-plan.js';
import { createBackup, restoreBackup } from './backup/archive.js';
import { BackupRefused, type RefusalKind } from './backup/snapshot.js';
import { defaultDbPath } from './data-dir.js';

// `fos db backup|restore|check` and `fos db migrate --dry-run`. Like `fos serve` and `fos admin`,
// they work on the database directly (the --db URL, else $FOS_DB, else the data directory's
// fos.db) and on the uploads of --storage (else $FOS_STORAGE, else <data dir>/files); no server
// and no key are involved. JSON on stdout, a readable summary on stderr; failures are one line
// with an exit code (docs/cli.md "Exit codes").

const print = (value: unknown) => process.stdout.write(JSON.stringify(value, null, 2) + '\n');
const say = (line: string) => process.stderr.write(`${line}\n`);

const REFUSAL_EXIT: Record<RefusalKind, ExitCode> = {
  postgresql: ExitCode.USAGE,
  invalid: ExitCode.USAGE,
  missing: ExitCode.NOT_FOUND,
  exists: ExitCode.CONFLICT,
  live: ExitCode.CONFLICT,
};

/** The one-line refusals of the database commands, with their exit codes. */
export function dbCommandError(err: unknown): unknown {
  if (err instanceof BackupRefused) return new CliError(err.message, REFUSAL_EXIT[err.kind]);
  if (err instanceof DatabaseMissing) return new CliError(err.message, ExitCode.NOT_FOUND);
  if (err instanceof DatabaseNewer) return new CliError(err.message, ExitCode.DATABASE);
  return err;
}

const guarded =
  <A extends unknown[]>(fn: (...args: A) => Promise<void>) =>
  async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      throw dbCommandError(err);
    }
  };

export const runBackup = guarded(async (db: string, storage: string, out: string) => {
  const manifest = await createBackup({ db, storage, out });
  say(`Backup written to ${out}: database (${manifest.migrations.length} migrations) and ${manifest.files} uploaded file(s).`);
  print({ file: out, ...manifest });
});

export const runRestore = guarded(async (db: string, storage: string, archive: string) => {
  const manifest = await restoreBackup({ archive, db, storage });
  say(
    `Restored the backup of ${manifest.created_at} (fos ${manifest.fos_version}) into ${db}, with ${manifest.files_restored} uploaded file(s).`,
  );
  if (manifest.files_restored < manifest.files) {
    say(
      `The archive's ${manifest.files} uploaded file(s) were not restored: the storage is S3 (unpack files/ from the archive into the bucket).`,
    );
  }
  // Backups never hold the key that seals shop and carrier credentials (docs/serve.md "Backups").
  const keyFile = join(dirname(defaultDbPath()), 'secret.key');
  if (!process.env.FOS_SECRET_KEY && !existsSync(keyFile)) {
    say(
      `Put the old data directory's secret.key at ${keyFile} (or set FOS_SECRET_KEY) before fos serve: stored shop and carrier credentials need it.`,
    );
  }
  print({ restored: archive, db, ...manifest });
});

export const runCheck = guarded(async (db: string) => {
  const report = await checkDatabase(db);
  for (const c of report.checks) say(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.ok ? '' : ` (${c.count})`}`);
  print(report);
  if (!report.ok) {
    const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.name} (${c.count})`);
    throw new CliError(`database check failed: ${failed.join('; ')}`, ExitCode.DATABASE);
  }
});

export const runMigrateDryRun = guarded(async (db: string) => {
  const plan = await planMigrations(db);
  if (!plan.pending.length) say(`Database is up to date (${plan.applied} migrations applied); a start would apply nothing.`);
  else say(`A start would apply ${plan.pending.length} migration(s) to this ${plan.provider} database (${plan.applied} applied):`);
  for (const m of plan.pending) say(`  ${m.name}: ${m.does.join('; ') || 'no schema change'}`);
  print(plan);
});
