import { existsSync, readdirSync } from 'node:fs';
import { link, mkdir, mkdtemp, readFile, rename, rm, rmdir, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDbUrl } from '../../db/client.js';
import { DatabaseMissing } from '../../db/db-reader.js';
import { VERSION } from '../../version.js';
import { BackupRefused, isLive, snapshotSqlite, sqliteIntegrity } from './snapshot.js';

// `fos db backup <file>` / `fos db restore <file>` (docs/serve.md "Backups", "Restore"): one
// gzipped tar holding
//   fos-backup.json   the manifest: format, fos version, time, migrations applied, file count
//   fos.db            a consistent copy of the SQLite database (VACUUM INTO, snapshot.ts)
//   files/…           the uploaded files of local storage (<team id>/<file id>…)
// The database is copied first, then the files: a file uploaded meanwhile may be in the archive
// with no row naming it (harmless); S3 storage is not copied (keep the bucket versioned).

export const MANIFEST = 'fos-backup.json';
const FORMAT = 1;

export interface BackupManifest {
  format: number;
  fos_version: string;
  created_at: string;
  database: 'fos.db';
  migrations: string[];
  /** Uploaded files in the archive (0 when the storage is S3 or empty). */
  files: number;
  storage: 'local' | 's3';
}

const isS3 = (storage: string) => /^s3:\/\//i.test(storage);

function countFiles(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile() && !e.name.endsWith('.part')) n++;
  return n;
}

/** Writes the archive to `out` (through a temporary name: a reader never sees half an archive). */
export async function createBackup(opts: { db: string; storage: string; out: string }): Promise<BackupManifest> {
  const target = parseDbUrl(opts.db);
  if (target.provider !== 'sqlite') throw new BackupRefused('postgresql');
  if (!existsSync(target.file)) throw new DatabaseMissing(target.file);
  const out = path.resolve(opts.out);
  if (existsSync(out)) throw new BackupRefused('exists', `${out} exists: choose another name (a backup never overwrites a file)`);
  await mkdir(path.dirname(out), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(out), '.fos-backup-'));
  try {
    const migrations = await snapshotSqlite(target.file, path.join(staging, 'fos.db'));
    const entries = [MANIFEST, 'fos.db'];
    let files = 0;
    if (!isS3(opts.storage) && existsSync(opts.storage)) {
      await symlink(path.resolve(opts.storage), path.join(staging, 'files'), 'dir');
      entries.push('files');
      files = countFiles(opts.storage);
    }
    const manifest: BackupManifest = {
      format: FORMAT,
      fos_version: VERSION,
      created_at: new Date().toISOString(),
      database: 'fos.db',
      migrations,
      files,
      storage: isS3(opts.storage) ? 's3' : 'local',
    };
    await writeFile(path.join(staging, MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
    const tar = await import('tar');
    const partial = path.join(staging, 'archive.tar.gz');
    // follow: the `files` symlink is archived as the directory it points at; half-written uploads are left out.
    await tar.c({ gzip: true, file: partial, cwd: staging, follow: true, portable: true, filter: (p) => !p.endsWith('.part') }, entries);
    await rename(partial, out);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Refuses to restore over anything: a running server, a database file, or uploaded files. */
function checkEmpty(dbFile: string, filesDir: string | undefined) {
  const live = isLive(dbFile);
  if (live)
    throw new BackupRefused('live', `a fos serve is running on ${dbFile} (${live}): stop it, and restore into an empty data directory`);
  for (const f of [dbFile, `${dbFile}-wal`]) {
    if (existsSync(f))
      throw new BackupRefused('live', `${f} exists: restore only into an empty data directory (move the database away first)`);
  }
  if (filesDir && existsSync(filesDir) && readdirSync(filesDir).length) {
    throw new BackupRefused('live', `${filesDir} holds uploaded files: restore only into an empty data directory`);
  }
}

async function readManifest(staging: string, archive: string): Promise<BackupManifest> {
  const file = path.join(staging, MANIFEST);
  const manifest = existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as BackupManifest) : undefined;
  if (!manifest || manifest.format !== FORMAT || !existsSync(path.join(staging, 'fos.db'))) {
    throw new BackupRefused('invalid', `${archive} is not a fos backup (no ${MANIFEST} of format ${FORMAT} with fos.db)`);
  }
  return manifest;
}

/** Unpacks the archive into the data directory's database file and files directory, which must be empty. */
export async function restoreBackup(opts: {
  archive: string;
  db: string;
  storage: string;
}): Promise<BackupManifest & { files_restored: number }> {
  const target = parseDbUrl(opts.db);
  if (target.provider !== 'sqlite') throw new BackupRefused('postgresql');
  const archive = path.resolve(opts.archive);
  if (!existsSync(archive)) throw new BackupRefused('missing', `no backup at ${archive}`);
  const filesDir = isS3(opts.storage) ? undefined : path.resolve(opts.storage);
  checkEmpty(target.file, filesDir);
  await mkdir(path.dirname(target.file), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(target.file), '.fos-restore-'));
  try {
    const tar = await import('tar');
    await tar.x({ file: archive, cwd: staging, strict: true }).catch((err: Error) => {
      throw new BackupRefused('invalid', `${archive} is not a fos backup: ${err.message}`);
    });
    const manifest = await readManifest(staging, archive);
    const problem = await sqliteIntegrity(path.join(staging, 'fos.db'));
    if (problem) throw new BackupRefused('invalid', `the database in ${archive} is damaged: ${problem}`);
    checkEmpty(target.file, filesDir); // again: the unpacking took time
    // link() fails if the name exists: a database that appeared meanwhile is never replaced.
    await link(path.join(staging, 'fos.db'), target.file);
    await unlink(path.join(staging, 'fos.db'));
    if (filesDir && existsSync(path.join(staging, 'files'))) {
      if (existsSync(filesDir)) await rmdir(filesDir); // empty (checked): only an empty one is removed
      await mkdir(path.dirname(filesDir), { recursive: true });
      await rename(path.join(staging, 'files'), filesDir);
    }
    // Into S3 storage the archive's files are not copied (restore checks emptiness of a directory only).
    return { ...manifest, files_restored: filesDir ? manifest.files : 0 };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
