import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { packageRoot } from '../../db/migrate.js';
import type { BackupSchedule } from './options.js';

// `fos serve --backup-every 6h --backup-keep 14 [--backup-to dir|s3://…]`: a backup of the
// database and its uploads on a timer, written by a `fos db backup` child process (VACUUM INTO
// is synchronous in the driver: in the server's own thread it would stall every request for the
// length of the copy). One at a time: a tick that finds the previous backup still running is
// skipped. Backups are named fos-backup-<UTC time>.tar.gz, so name order is time order; after
// each one, all but the newest `keep` are deleted. S3 goes through the storage fos already
// speaks for uploads (src/domain/files/s3-storage.ts).

const NAME = /^fos-backup-\d{8}T\d{6}\.\d{3}Z\.tar\.gz$/;
export const backupName = (at = new Date()) => `fos-backup-${at.toISOString().replace(/[-:]/g, '')}.tar.gz`;

interface Destination {
  /** Where the child writes the archive. */
  scratch(name: string): Promise<string>;
  /** Moves the written archive to its place. */
  store(file: string, name: string): Promise<void>;
  list(): Promise<string[]>;
  remove(name: string): Promise<void>;
}

function folder(dir: string): Destination {
  return {
    scratch: async (name) => (await mkdir(dir, { recursive: true }), path.join(dir, name)),
    store: async () => {}, // the child wrote it in place (through a temporary name)
    list: async () => readdir(dir).catch(() => []),
    remove: (name) => rm(path.join(dir, name), { force: true }),
  };
}

async function s3(url: string): Promise<Destination> {
  const { parseS3Url, S3Storage } = await import('../../domain/files/index.js');
  const bucket = new S3Storage(parseS3Url(url));
  return {
    scratch: async (name) => path.join(await mkdtemp(path.join(tmpdir(), 'fos-backup-')), name),
    store: async (file, name) => {
      try {
        await bucket.put(name, createReadStream(file));
      } finally {
        await rm(path.dirname(file), { recursive: true, force: true });
      }
    },
    list: () => bucket.list('fos-backup-'),
    remove: (name) => bucket.remove(name),
  };
}

/** This fos as a command: bin/fos.js under node, or the standalone executable itself (npm run build:sea). */
async function fosArgs(): Promise<string[]> {
  const sea = await import('node:sea').catch(() => null);
  return sea?.isSea() ? [] : [path.join(packageRoot(), 'bin', 'fos.js')];
}

/** Runs `fos db backup <out>` as a child; rejects with the child's error line. */
async function backupChild(db: string, storage: string, out: string): Promise<void> {
  const child = spawn(process.execPath, [...(await fosArgs()), 'db', 'backup', out, '--db', db, '--storage', storage], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(err.trim().split('\n').at(-1) || `exit ${code}`))));
  });
}

export interface BackupRunner {
  /** One backup now (skipped when one is running); resolves with its name, or null when skipped. */
  runOnce(): Promise<string | null>;
  stop(): Promise<void>;
}

export async function startBackupSchedule(db: string, schedule: BackupSchedule, log: FastifyBaseLogger): Promise<BackupRunner> {
  const dest = /^s3:\/\//i.test(schedule.to) ? await s3(schedule.to) : folder(path.resolve(schedule.to));
  let running: Promise<string | null> | null = null;
  const once = async (): Promise<string> => {
    const name = backupName();
    const file = await dest.scratch(name);
    await backupChild(db, schedule.storage, file);
    await dest.store(file, name);
    const old = (await dest.list())
      .filter((n) => NAME.test(n))
      .sort()
      .slice(0, -schedule.keep);
    for (const n of old) await dest.remove(n);
    log.info({ backup: name, to: schedule.to, pruned: old.length }, 'backup written');
    return name;
  };
  const runOnce = () => {
    if (running) return Promise.resolve(null);
    running = once()
      .catch((err) => {
        log.error({ to: schedule.to, err: (err as Error).message }, 'backup failed');
        return null;
      })
      .finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void runOnce(), schedule.everyMs);
  timer.unref();
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
