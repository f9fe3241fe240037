import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { UnauthLimiter } from '../../src/server/rate-limit/unauth.js';
import { WINDOW_MS } from '../../src/server/rate-limit/stores.js';
import { generateToken } from '../../src/domain/keys/token.js';
import { MAX_CACHED_TOKENS, PrincipalResolver } from '../../src/domain/keys/principal.js';
import { parseTrustProxy } from '../../src/server/cli.js';

// Issue 7 item 7, issue 23 item 1: requests with a missing or invalid key are limited per client
// address; once an address is over its limit, tokens that cannot be valid are refused before any
// database read, and a valid key from the same address is never refused by that limiter. The
// clock is fixed inside one window, so no count resets at a minute boundary mid-test.

const windowStart = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;
const clock = windowStart + 1_000;
const now = () => clock;

let t: TestApp;
let good: string;
beforeAll(async () => {
  t = await testApp({ unauthRateLimit: 5, clock: now });
  good = (await t.key({ tier: 4 })).token;
});
afterAll(() => t?.close());

const badToken = () => `fos_${randomBytes(16).toString('hex')}_abcdef`; // wrong checksum: malformed
const get = (app: TestApp['app'], token: string | undefined, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
  app.inject({
    method: 'GET',
    url: '/v1/me',
    remoteAddress,
    headers: { ...headers, ...(token ? { 'x-access-token': token } : {}) },
  });

describe('failed authentications per address', () => {
  it('after the limit, 429 problem+json with retry-after and no database read; a known good key from the same address still works', async () => {
    expect((await get(t.app, good)).statusCode).toBe(200); // resolved once: cached as valid
    const load = vi.spyOn(t.app.principals as unknown as { load: (h: string) => Promise<unknown> }, 'load');
    for (let i = 0; i < 5; i++) expect((await get(t.app, i % 2 ? undefined : badToken())).statusCode).toBe(401);
    const loadsBefore = load.mock.calls.length;
    for (let i = 0; i < 20; i++) {
      const res = await get(t.app, badToken());
      expect(res.statusCode).toBe(429);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.headers['x-trace-id']).toMatch(/^[0-9a-f]{16}$/);
      expect(res.json()).toMatchObject({ status: 429, type: 'urn:fos:error:rate-limited' });
    }
    expect((await get(t.app, undefined)).statusCode).toBe(429);
    expect(load.mock.calls.length).toBe(loadsBefore); // refused before any key lookup
    expect((await get(t.app, good)).statusCode).toBe(200);
    // another address is not affected
    expect((await get(t.app, badToken(), '10.9.8.7')).statusCode).toBe(401);
    load.mockRestore();
  });

  it('500 bad keys from one address: a valid key from that address gets 200 throughout, even one never seen before or after a key change', async () => {
    const flood = await testApp({ clock: now, unauthRateLimit: 120 }); // the default limit
    try {
      const addr = '203.0.113.9';
      const keys = [(await flood.key({ tier: 4 })).token];
      const statuses = new Map<number, number>();
      for (let i = 0; i < 500; i++) {
        // missing, malformed, and well-formed but unknown (each looked up once, then remembered as unknown)
        const bad = [undefined, badToken(), generateToken()][i % 3];
        const res = await get(flood.app, bad, addr);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (i % 10 === 9) {
          if (i % 100 === 99) keys.push((await flood.key({ tier: 4 })).token); // a new key: not cached, and the cache is cleared
          for (const k of keys) expect((await get(flood.app, k, addr)).statusCode).toBe(200);
        }
      }
      expect(statuses.get(401)).toBe(120);
      expect(statuses.get(429)).toBe(380);
      flood.app.principals.invalidate(); // as after any key or role change
      expect((await get(flood.app, keys[0], addr)).statusCode).toBe(200);
    } finally {
      await flood.close();
    }
  });

  it('a well-formed unknown key is looked up once, then refused from memory while the address is over its limit', async () => {
    const unknown = generateToken();
    const load = vi.spyOn(t.app.principals as unknown as { load: (h: string) => Promise<unknown> }, 'load');
    const first = await get(t.app, unknown); // 127.0.0.1 is over its limit (first test)
    expect(first.statusCode).toBe(429);
    expect((await get(t.app, unknown)).statusCode).toBe(429);
    expect(load.mock.calls.length).toBe(1);
    load.mockRestore();
  });

  it('the limiter is bounded: a flood from many addresses keeps at most 20,000 of them', () => {
    const l = new UnauthLimiter(3);
    const at = windowStart + 1_000;
    for (let i = 0; i < 25_000; i++) l.fail(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, at);
    expect(l.size).toBe(20_000);
    for (let i = 0; i < 3; i++) l.fail('192.0.2.1', at);
    expect(l.retryAfter('192.0.2.1', at)).toBeGreaterThan(0);
    expect(l.retryAfter('192.0.2.1', at + WINDOW_MS)).toBe(0); // a new window
    expect(new UnauthLimiter(0).retryAfter('x', at)).toBe(0);
  });

  it('the key cache is bounded: a flood of unknown well-formed keys keeps at most MAX_CACHED_TOKENS', async () => {
    const resolver = new PrincipalResolver(t.db, 5_000, now);
    (resolver as unknown as { load: () => Promise<null> }).load = async () => null; // no database round trip per token
    for (let i = 0; i < MAX_CACHED_TOKENS + 500; i++) await resolver.resolve(generateToken()).catch(() => undefined);
    expect(resolver.size).toBe(MAX_CACHED_TOKENS);
  });
});

describe('--trust-proxy', () => {
  it('behind a trusted proxy, each client is limited on its own address; a client cannot forge its address past an untrusted peer', async () => {
    const proxied = await testApp({ unauthRateLimit: 3, clock: now, trustProxy: parseTrustProxy('127.0.0.1/32') });
    try {
      const via = (client: string, token?: string) => get(proxied.app, token ?? badToken(), '127.0.0.1', { 'x-forwarded-for': client });
      for (let i = 0; i < 3; i++) expect((await via('198.51.100.1')).statusCode).toBe(401);
      expect((await via('198.51.100.1')).statusCode).toBe(429);
      expect((await via('198.51.100.2')).statusCode).toBe(401); // another client of the same proxy
      // A peer that is not a trusted proxy: its X-Forwarded-For is ignored, every request counts on the peer.
      for (let i = 0; i < 3; i++)
        expect((await get(proxied.app, badToken(), '192.0.2.7', { 'x-forwarded-for': `10.0.0.${i}` })).statusCode).toBe(401);
      expect((await get(proxied.app, badToken(), '192.0.2.7', { 'x-forwarded-for': '10.0.0.99' })).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  });

  it('parses hops, addresses, CIDRs and names, and refuses anything else', () => {
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.0/8, ::1,loopback')).toEqual(['10.0.0.0/8', '::1', 'loopback']);
    for (const bad of ['evil.example', '10.0.0.0/33', '10.0.0.1/8/1', '', 'true'])
      expect(() => parseTrustProxy(bad)).toThrow(/--trust-proxy/);
  });
});
