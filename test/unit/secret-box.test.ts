import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keyFromFile, openJson, parseSecretKey, sealJson, setSecretKey, SecretKeyError } from '../../src/domain/secrets/secret-box.js';

describe('secret box', () => {
  it('seals and opens, bound to its context, and names a wrong key', () => {
    setSecretKey(randomBytes(32));
    const sealed = sealJson({ access_token: 'shpat_123' }, 'shop:1');
    expect(sealed).not.toContain('shpat_123');
    expect(openJson(sealed, 'shop:1')).toEqual({ access_token: 'shpat_123' });
    expect(() => openJson(sealed, 'shop:2')).toThrow(SecretKeyError);
    setSecretKey(randomBytes(32));
    expect(() => openJson(sealed, 'shop:1')).toThrow(/another key/);
  });

  it('makes a 0600 key file once and reads it back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fos-key-'));
    const a = keyFromFile(join(dir, 'data'));
    expect(keyFromFile(join(dir, 'data')).equals(a)).toBe(true);
    expect(statSync(join(dir, 'data', 'secret.key')).mode & 0o777).toBe(0o600);
    expect(parseSecretKey(readFileSync(join(dir, 'data', 'secret.key'), 'utf8')).equals(a)).toBe(true);
    expect(() => parseSecretKey('short')).toThrow(/32 bytes/);
  });

  it('gives servers starting at once on a new data directory the same key, none failing', async () => {
    // Real processes, as `fos serve` replicas on one machine start: each waits for a common moment
    // (only to make them collide more often) and reads or makes the key file. A file seen before
    // its key was written in it failed a start with "must be 32 bytes".
    const box = pathToFileURL(join(__dirname, '../../dist/domain/secrets/secret-box.js')).href;
    const starter = (dir: string, at: number) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const code = `while (Date.now() < ${at});
          import(${JSON.stringify(box)}).then((m) => process.stdout.write(m.keyFromFile(${JSON.stringify(dir)}).toString('hex')));`;
        const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('close', (c) => resolve({ code: c, out, err }));
      });
    for (let round = 0; round < 6; round++) {
      const dir = join(mkdtempSync(join(tmpdir(), 'fos-key-race-')), 'data');
      const at = Date.now() + 400;
      const runs = await Promise.all(Array.from({ length: 6 }, () => starter(dir, at)));
      expect(runs.map((r) => r.err.split('\n').find((l) => /Error/.test(l)) ?? null)).toEqual(runs.map(() => null));
      expect(runs.map((r) => r.code)).toEqual(runs.map(() => 0));
      expect(new Set(runs.map((r) => r.out)).size).toBe(1);
      expect(runs[0]!.out).toMatch(/^[0-9a-f]{64}$/);
      expect(readdirSync(dir)).toEqual(['secret.key']); // no temporary file left behind
    }
  }, 60_000);
});
