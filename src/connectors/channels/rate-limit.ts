// The wait between tries when a platform answers 429, shared by every channel client: each
// computes how long its platform asks for (Retry-After, X-Rate-Limit-Time-Reset-Ms,
// x-amzn-RateLimit-Limit) and waits here, at most MAX_429 times per call.

export const MAX_429 = 3;

let sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits `ms` (what tests replace: no test depends on time). */
export const rateLimitSleep = (ms: number) => sleep(ms);

/** Tests replace the wait; returns the previous one. */
export function setRateLimitSleep(fn: (ms: number) => Promise<void>) {
  const prev = sleep;
  sleep = fn;
  return prev;
}

/** The wait a 429 asks for by Retry-After (seconds), else 1 s, 2 s, 4 s; never more than `maxMs`. */
export function retryAfterWait(headers: Record<string, string>, n: number, maxMs = 60_000) {
  const after = Number(headers['retry-after']);
  return Math.min(Number.isFinite(after) && after > 0 ? after * 1000 : 1000 * 2 ** n, maxMs);
}
