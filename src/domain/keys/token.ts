import { createHash, randomInt } from 'node:crypto';

// Token format: fos_<32 base62 secret>_<6 base62 CRC32 of the secret>. The checksum lets the
// server reject typos and foreign strings without a database lookup.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TOKEN_RE = /^fos_([0-9A-Za-z]{32})_([0-9A-Za-z]{6})$/;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = '';
  let v = value;
  while (v > 0) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out.padStart(width, '0');
}

export function generateToken(): string {
  let secret = '';
  for (let i = 0; i < 32; i++) secret += BASE62[randomInt(62)];
  return `fos_${secret}_${base62(crc32(secret), 6)}`;
}

/** True when the token has the right shape and its checksum matches its secret. */
export function isWellFormedToken(token: string): boolean {
  const m = TOKEN_RE.exec(token);
  return m !== null && base62(crc32(m[1]), 6) === m[2];
}

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export const tokenHint = (token: string): string => token.slice(-4);
