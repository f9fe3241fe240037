import { WINDOW_MS } from './stores.js';

// Failed authentications per client address (issue 7 item 7). A flood of bad or missing keys
// from one address is refused before any database work once the address is over its limit for
// the current 60-second window; valid keys are counted per key by their rate tier instead. In
// memory only, and bounded: at most MAX_ADDRESSES are tracked (the oldest forgotten first), so a
// flood from spoofed or many addresses cannot grow the process.

const MAX_ADDRESSES = 20_000;

export const DEFAULT_UNAUTH_LIMIT = 120;

export class UnauthLimiter {
  private failures = new Map<string, { start: number; count: number }>();

  /** `limit` failed authentications per address per minute; 0 disables the limiter. */
  constructor(readonly limit: number = DEFAULT_UNAUTH_LIMIT) {}

  private entry(address: string, now: number) {
    const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const e = this.failures.get(address);
    return e && e.start === start ? e : undefined;
  }

  /** Seconds until the address may try again, or 0 when it is under its limit. */
  retryAfter(address: string, now: number): number {
    if (!this.limit) return 0;
    const e = this.entry(address, now);
    if (!e || e.count < this.limit) return 0;
    return Math.max(1, Math.ceil((e.start + WINDOW_MS - now) / 1000));
  }

  /** Counts one failed authentication from `address`. */
  fail(address: string, now: number): void {
    if (!this.limit) return;
    let e = this.entry(address, now);
    if (!e) {
      this.failures.delete(address); // re-inserted last: Map order is then oldest first
      if (this.failures.size >= MAX_ADDRESSES) this.failures.delete(this.failures.keys().next().value as string);
      e = { start: Math.floor(now / WINDOW_MS) * WINDOW_MS, count: 0 };
      this.failures.set(address, e);
    }
    e.count += 1;
  }

  /** Addresses tracked now (for tests and metrics). */
  get size(): number {
    return this.failures.size;
  }
}
