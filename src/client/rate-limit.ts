import type { RateLimitInfo } from './types.js';

type Headers = Record<string, string | string[] | undefined>;

function num(headers: Headers, name: string): number | undefined {
  const raw = headers[name];
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** Reads `x-ratelimit-limit|remaining|reset` and `retry-after`; undefined when none is present. */
export function parseRateLimit(headers: Headers): RateLimitInfo | undefined {
  const info: RateLimitInfo = {
    limit: num(headers, 'x-ratelimit-limit'),
    remaining: num(headers, 'x-ratelimit-remaining'),
    reset: num(headers, 'x-ratelimit-reset'),
    retryAfter: num(headers, 'retry-after'),
  };
  return Object.values(info).some((v) => v !== undefined) ? info : undefined;
}
