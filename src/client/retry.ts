import type { HttpMethod, RateLimitInfo } from './types.js';

/**
 * When the client retries: any request answered 429 (refused before it ran; waiting what the
 * server asks, if within maxWaitMs); requests that are safe to repeat (GET/HEAD, or a write that
 * carries an idempotency key) also on 502/503/504 and on connection errors (exponential backoff).
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Longest single wait; a 429 asking for more fails at once. */
  maxWaitMs: number;
  /** First backoff delay; doubles per attempt (with up to 25% jitter). */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, maxWaitMs: 60_000, baseDelayMs: 300 };

export function isRetrySafe(method: HttpMethod, hasIdempotencyKey: boolean): boolean {
  return method === 'GET' || method === 'HEAD' || hasIdempotencyKey;
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
  const base = policy.baseDelayMs * 2 ** attempt;
  return Math.min(policy.maxWaitMs, Math.round(base * (1 + Math.random() * 0.25)));
}

/**
 * Delay before retrying a response with this status, or undefined when it must not be retried.
 * `attempt` counts retries already made.
 */
export function retryDelayMs(
  status: number,
  rateLimit: RateLimitInfo | undefined,
  attempt: number,
  policy: RetryPolicy,
): number | undefined {
  if (attempt >= policy.maxRetries) return undefined;
  if (status === 429) {
    const seconds = rateLimit?.retryAfter ?? rateLimit?.reset;
    if (seconds === undefined) return backoffMs(attempt, policy);
    const ms = Math.max(0, seconds * 1000);
    return ms <= policy.maxWaitMs ? ms : undefined;
  }
  if (status === 502 || status === 503 || status === 504) {
    const asked = rateLimit?.retryAfter;
    if (asked !== undefined) return asked * 1000 <= policy.maxWaitMs ? asked * 1000 : undefined;
    return backoffMs(attempt, policy);
  }
  return undefined;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
