import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Where uploaded file bytes live (docs/files.md): S3-compatible object storage (s3-storage.ts), or
// local storage: one directory (by default <data dir>/files), a file per key. Keys are made by fos (`<team id>/<file id>[.thumb.webp]`),
// never from a request, and are checked again here so no key can leave the directory.
// Several replicas need the directory shared between them.

export interface FileStorage {
  /** Writes the stream under key (atomically: a reader never sees half a file). */
  put(key: string, source: Readable | AsyncIterable<Uint8Array>): Promise<void>;
  /** The bytes under key and their size; null when there are none. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  remove(key: string): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-]+\/[A-Za-z0-9_.-]+$/;

export class LocalStorage implements FileStorage {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
    return path.join(this.dir, key);
  }

  async put(key: string, source: Readable | AsyncIterable<Uint8Array>): Promise<void> {
    const dest = this.file(key);
    await mkdir(path.dirname(dest), { recursive: true });
    const tmp = `${dest}.${randomBytes(6).toString('hex')}.part`;
    try {
      await pipeline(source, createWriteStream(tmp, { flags: 'wx' }));
      await rename(tmp, dest);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    const file = this.file(key);
    const info = await stat(file).catch(() => null);
    return info?.isFile() ? { stream: createReadStream(file), size: info.size } : null;
  }

  async remove(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }
}

/** The storage `spec` names: an s3://bucket/prefix URL (s3-storage.ts), else a local directory. */
export async function storageFor(spec: string): Promise<FileStorage> {
  if (/^s3:\/\//i.test(spec)) {
    const { parseS3Url, S3Storage } = await import('./s3-storage.js');
    return new S3Storage(parseS3Url(spec));
  }
  return new LocalStorage(path.resolve(spec));
}
