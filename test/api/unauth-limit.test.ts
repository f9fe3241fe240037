import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { UnauthLimiter } from '../../src/server/rate-limit/unauth.js';

// Issue 7 item 7: requests with a missing or invalid key are limited per client address, and
// once an address is over its limit they are refused before any database read.

let t: TestApp;
let good: string;
beforeAll(async () => {
  t = await testApp({ unauthRateLimit: 5 });
  good = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

const badToken = () => `fos_${randomBytes(16).toString('hex')}_abcdef`;
const get = (token: string | undefined, remoteAddress = '127.0.0.1') => t.app.inject({
  method: 'GET', url: '/v1/me', remoteAddress, headers: token ? { 'x-access-token': token } : {},
});

describe('failed authentications per address', () => {
  it('after the limit, 429 problem+json with retry-after and no database read; a known good key from the same address still works', async () => {
    expect((await get(good)).statusCode).toBe(200); // resolved once: cached as valid
    const load = vi.spyOn(t.app.principals as unknown as { load: (h: string) => Promise<unknown> }, 'load');
    for (let i = 0; i < 5; i++) expect((await get(i % 2 ? undefined : badToken())).statusCode).toBe(401);
    const loadsBefore = load.mock.calls.length;
    for (let i = 0; i < 20; i++) {
      const res = await get(badToken());
      expect(res.statusCode).toBe(429);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.headers['x-trace-id']).toMatch(/^[0-9a-f]{16}$/);
      expect(res.json()).toMatchObject({ status: 429, type: 'urn:fos:error:rate-limited' });
    }
    expect((await get(undefined)).statusCode).toBe(429);
    expect(load.mock.calls.length).toBe(loadsBefore); // refused before any key lookup
    expect((await get(good)).statusCode).toBe(200);
    // another address is not affected
    expect((await get(badToken(), '10.9.8.7')).statusCode).toBe(401);
    load.mockRestore();
  });

  it('the limiter is bounded: a flood from many addresses keeps at most 20,000 of them', () => {
    const l = new UnauthLimiter(3);
    const now = Date.now();
    for (let i = 0; i < 25_000; i++) l.fail(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, now);
    expect(l.size).toBe(20_000);
    for (let i = 0; i < 3; i++) l.fail('192.0.2.1', now);
    expect(l.retryAfter('192.0.2.1', now)).toBeGreaterThan(0);
    expect(l.retryAfter('192.0.2.1', now + 61_000)).toBe(0); // a new window
    expect(new UnauthLimiter(0).retryAfter('x', now)).toBe(0);
  });
});
