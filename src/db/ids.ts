import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

// Row ids written by our own statements: UUIDv7, as Prisma's @default(uuid(7)) gives, through the
// uuid package's v7 with its state kept here. Called bare, uuid's v7 asks Web Crypto for 16 bytes
// on every call (~2 µs on Node 20): 4,000 ids cost a 1,000-line receipt ~8 ms while it held the
// SQLite writer (docs/performance.md, "The wait behind a receipt"). The random bytes come from a
// pooled buffer instead (one randomFillSync per 256 ids, as Node's own randomUUID pools its
// entropy), and the timestamp/sequence state follows uuid's (RFC 9562 method 1: a sequence seeded
// at random each millisecond and incremented within it), so ids taken in order sort in that
// order, which a multi-row INSERT relies on for its rows' order.

const POOL_IDS = 256;
const pool = new Uint8Array(16 * POOL_IDS);
let next = POOL_IDS;
let msecs = -Infinity;
let seq = 0;

/** A new UUIDv7, greater than every one this process took before. */
export function newId(): string {
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const random = pool.subarray(16 * next, 16 * ++next);
  const now = Date.now();
  if (now > msecs) {
    seq = ((random[6] & 0x7f) << 24) | (random[7] << 16) | (random[8] << 8) | random[9];
    msecs = now;
  } else {
    seq = (seq + 1) | 0;
    if (seq === 0) msecs++;
  }
  return v7({ random, msecs, seq });
}
