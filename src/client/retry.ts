import type { HttpMethod, RateLimitInfo } from './types.js';

/**
 * The one retry policy of the API client (docs/cli.md "Retries"); nothing above the client
 * repeats a request. What is retried:
 *   - 429: any request, waiting what `retry-after` (else `x-ratelimit-reset`) asks. The server
 *     refuses a rate-limited request before running anything, so repeating it is always safe.
 *   - 502/503/504 and connection errors (a reset, a refused connection to another host): only
 *     requests safe to repeat, which are GET/HEAD, a write carrying an Idempotency-Key, and a write
 *     its caller declared idempotent (`fos fulfill run`: a repeat answers the same or a 409 it reads).
 * Every call has one budget: at most 1 + maxRetries attempts and maxWaitMs spent waiting in all;
 * a wait that would go past the budget fails at once with what the server last said.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Most time one call spends waiting between its attempts, all waits together. */
  maxWaitMs: number;
  /** First backoff delay (no retry-after); doubles per attempt (with up to 25% jitter). */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, maxWaitMs: 60_000, baseDelayMs: 300 };

export function isRetrySafe(method: HttpMethod, hasIdempotencyKey: boolean, declaredIdempotent = false): boolean {
  return method === 'GET' || method === 'HEAD' || hasIdempotencyKey || declaredIdempotent;
}

/**
 * A refused connection to this machine (localhost, 127.0.0.0/8, ::1) means nothing listens on
 * that port, which a retry a second later will not change: it fails at once instead of after
 * ~2.4 s of backoff (a `fos serve` not started, a wrong port). Elsewhere a refusal may be a
 * server restarting behind a balancer, so it is retried.
 */
export function refusedLocally(code: string, url: string): boolean {
  if (code !== 'ECONNREFUSED') return false;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function backoffMs(attempt: number, policy: RetryPolicy): number {
  return Math.round(policy.baseDelayMs * 2 ** attempt * (1 + Math.random() * 0.25));
}

/** What one call has used of its budget. */
export interface RetryBudget {
  /** Retries made so far. */
  retries: number;
  /** Time waited so far. */
  waitedMs: number;
}

/** The delay before the next attempt, or undefined when the budget has no room for it. */
export function withinBudget(delayMs: number | undefined, used: RetryBudget, policy: RetryPolicy): number | undefined {
  if (delayMs === undefined || used.retries >= policy.maxRetries) return undefined;
  return used.waitedMs + delayMs <= policy.maxWaitMs ? delayMs : undefined;
}

/**
 * Delay before retrying a response with this status (before the budget is applied), or undefined
 * when the status is not retried. `safe`: the request may be repeated after an unanswered attempt.
 */
export function retryDelayMs(
  status: number,
  rateLimit: RateLimitInfo | undefined,
  attempt: number,
  policy: RetryPolicy,
  safe: boolean,
): number | undefined {
  if (status === 429) {
    const seconds = rateLimit?.retryAfter ?? rateLimit?.reset;
    return seconds === undefined ? backoffMs(attempt, policy) : Math.max(0, seconds * 1000);
  }
  if (safe && (status === 502 || status === 503 || status === 504)) {
    const asked = rateLimit?.retryAfter;
    return asked !== undefined ? Math.max(0, asked * 1000) : backoffMs(attempt, policy);
  }
  return undefined;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
