import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
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
});
