import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Credentials fos must reuse (shop tokens, carrier API keys, platform webhook secrets) are stored
// sealed with AES-256-GCM, never in clear: "v1.<key id>.<base64 iv|tag|ciphertext>". The key comes
// from FOS_SECRET_KEY (32 bytes as 64 hex digits or base64) or, when unset, from the file
// `secret.key` in the data directory, made on first use with mode 0600. Several replicas on one
// PostgreSQL database must share FOS_SECRET_KEY (docs/serve.md). The key id (first 8 hex digits of
// the key's SHA-256) lets a sealed value name the wrong key clearly instead of failing to decrypt.
// `context` (e.g. "shop:<id>") is bound as additional data, so a sealed value copied to another
// row does not open there.

const VERSION = 'v1';
let current: { key: Buffer; id: string } | undefined;

export class SecretKeyError extends Error {}

const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** Parses FOS_SECRET_KEY: 64 hex digits or base64 of 32 bytes. */
export function parseSecretKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) throw new SecretKeyError('FOS_SECRET_KEY must be 32 bytes: 64 hex digits or base64 (openssl rand -hex 32)');
  return key;
}

/**
 * The key file in `dataDir`, created (0600) when missing. It appears whole or not at all: the key
 * is written to a file of this process's own and linked into place, which fails when another
 * starting server linked its key first (then both use that one). Created in place, the file was
 * there, still empty, for a server starting beside it to read ("must be 32 bytes").
 */
export function keyFromFile(dataDir: string): Buffer {
  const file = join(dataDir, 'secret.key');
  try {
    return parseSecretKey(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dirname(file), { recursive: true });
  const own = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(own, 'wx', 0o600);
  try {
    writeSync(fd, `${randomBytes(32).toString('hex')}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(own, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A file system without hard links: the key is made in place, exclusively (as before).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') createInPlace(file, readFileSync(own, 'utf8'));
    else if (code !== 'EEXIST') throw err;
  } finally {
    rmSync(own, { force: true });
  }
  return parseSecretKey(readFileSync(file, 'utf8'));
}

function createInPlace(file: string, text: string): void {
  try {
    const fd = openSync(file, 'wx', 0o600);
    writeSync(fd, text);
    closeSync(fd);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

/** Sets the key used from now on (fos serve at start; tests). */
export function setSecretKey(key: Buffer): void {
  if (key.length !== 32) throw new SecretKeyError('the secret key must be 32 bytes');
  current = { key, id: keyId(key) };
}

/** FOS_SECRET_KEY, else the key file beside the default database (see data-dir.ts). */
function activeKey(): { key: Buffer; id: string } {
  if (!current) {
    const env = process.env.FOS_SECRET_KEY;
    if (env) setSecretKey(parseSecretKey(env));
    else throw new SecretKeyError('no secret key configured: fos serve sets one at start (FOS_SECRET_KEY or <data dir>/secret.key)');
  }
  return current!;
}

/** Seals a JSON value. */
export function sealJson(value: unknown, context = ''): string {
  const { key, id } = activeKey();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return `${VERSION}.${id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

/** Opens what sealJson made with the same key and context; throws SecretKeyError otherwise. */
export function openJson<T = unknown>(sealed: string, context = ''): T {
  const { key, id } = activeKey();
  const [version, sealedId, data] = sealed.split('.');
  if (version !== VERSION || !data) throw new SecretKeyError('not a sealed secret');
  if (sealedId !== id)
    throw new SecretKeyError(
      `secret sealed with another key (${sealedId}, this server's is ${id}): was FOS_SECRET_KEY or secret.key changed?`,
    );
  const raw = Buffer.from(data, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(raw.subarray(12, 28));
  try {
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as T;
  } catch {
    throw new SecretKeyError('sealed secret does not open: tampered with, or moved to another record');
  }
}
