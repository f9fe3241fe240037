import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { generateToken, isWellFormedToken } from '../../src/domain/keys/token.js';
import { disableKey } from '../../src/domain/keys/keys.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

const TRACE = /\(support reference: ([0-9a-f]{16})\)$/;

describe('authentication', () => {
  it('accepts the bootstrap ADMIN key', async () => {
    const res = await t.call('GET', '/v1/me');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ team_id: t.teamId, power_role: 'ADMIN', team_kind: 'FULFILLER' });
    expect(res.json().permissions).toContain('READ_PRODUCTS');
  });

  it.each([
    ['missing', null],
    ['malformed', 'not-a-token'],
    ['bad checksum', 'fos_' + 'a'.repeat(32) + '_000000'],
    ['unknown', generateToken()],
  ])('rejects a %s token with 401 problem+json', async (_label, token) => {
    const res = await t.call('GET', '/v1/me', { token });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json();
    expect(body).toMatchObject({ type: 'urn:fos:error:unauthorized', title: 'Unauthorized', status: 401 });
    expect(body.detail).toMatch(TRACE);
  });

  it('rejects a disabled key with 401 and leaves other keys working', async () => {
    const a = await t.key();
    const b = await t.key();
    expect((await t.call('GET', '/v1/me', { token: a.token })).statusCode).toBe(200);
    await disableKey(t.db, t.teamId, a.id);
    t.app.principals.invalidate();
    expect((await t.call('GET', '/v1/me', { token: a.token })).statusCode).toBe(401);
    expect((await t.call('GET', '/v1/me', { token: b.token })).statusCode).toBe(200);
  });

  it('generates well-formed tokens whose checksum catches typos', () => {
    const token = generateToken();
    expect(token).toMatch(/^fos_[0-9A-Za-z]{32}_[0-9A-Za-z]{6}$/);
    expect(isWellFormedToken(token)).toBe(true);
    const typo = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
    expect(isWellFormedToken(typo)).toBe(false);
  });

  it('stores only a hash of the token', async () => {
    const key = await t.key();
    const rows = await t.db.prisma.apiKey.findMany();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(key.token);
    expect(dump).not.toContain(t.adminToken);
  });
});

describe('errors', () => {
  it('answers unknown paths with not-found problem+json and unique trace ids', async () => {
    const a = await t.call('GET', '/v1/nope');
    const b = await t.call('GET', '/v1/nope');
    expect(a.statusCode).toBe(404);
    expect(a.json()).toMatchObject({ type: 'urn:fos:error:not-found', title: 'Not Found', status: 404 });
    const ta = TRACE.exec(a.json().detail)![1];
    const tb = TRACE.exec(b.json().detail)![1];
    expect(ta).not.toBe(tb);
    expect(a.headers['x-trace-id']).toBe(ta);
  });
});

describe('rate tiers', () => {
  // Windows are aligned to the minute: a real clock lets a slow machine cross a boundary mid-count
  // (CI did, once), so this app's clock stands still inside one window.
  let t: TestApp;
  beforeAll(async () => {
    const at = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
    t = await testApp({ clock: () => at });
  });
  afterAll(() => t?.close());

  it('limits tier 1 to 30 requests per window with headers, per key', async () => {
    const a = await t.key();
    const b = await t.key();
    let last;
    for (let i = 0; i < 30; i++) {
      last = await t.call('GET', '/v1/me', { token: a.token });
      expect(last.statusCode).toBe(200);
    }
    expect(last!.headers['x-ratelimit-limit']).toBe('30');
    expect(last!.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(last!.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    const over = await t.call('GET', '/v1/me', { token: a.token });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ type: 'urn:fos:error:rate-limited', status: 429 });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const other = await t.call('GET', '/v1/me', { token: b.token });
    expect(other.statusCode).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe('29');
  });

  it('gives higher tiers higher limits', async () => {
    const k = await t.key({ tier: 3 });
    const res = await t.call('GET', '/v1/me', { token: k.token });
    expect(res.headers['x-ratelimit-limit']).toBe('600');
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document without auth', async () => {
    const res = await t.call('GET', '/v1/swagger.json', { token: null });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const me = doc.paths['/me'].get;
    expect(me.operationId).toBe('getMe');
    expect(me.responses['401'].content['application/problem+json']).toBeDefined();
  });
});
