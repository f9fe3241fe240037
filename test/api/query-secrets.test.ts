import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { redactUrl } from '../../src/server/query-secrets.js';

// Issue 7 item 3: a token in a query string is refused (401 naming the header) and never written
// to any log line, whatever the parameter is called.
let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await testApp({ logger: { level: 'trace', stream } as never });
  await t.db.prisma.apiKey.updateMany({ where: { team_id: t.teamId }, data: { rate_tier: 4 } });
});
afterAll(() => t?.close());

describe('tokens in query strings', () => {
  // Issue 23 item 4: the array and object forms too, raw or percent-encoded.
  for (const name of [
    'x-access-token',
    'access_token',
    'token',
    'api_key',
    'API-KEY',
    'apikey',
    'token[]',
    'api_key[]',
    'x-access-token[]',
    'token%5B%5D',
    'api_key[0]',
    'token[a][b]',
  ]) {
    it(`refuses ?${name}= with a 401 that says to use the header, and logs no token`, async () => {
      lines.length = 0;
      const url = `/v1/me?${name}=${encodeURIComponent(t.adminToken)}&page=0`;
      const res = await t.call('GET', url, { token: null });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.headers['x-trace-id']).toBeTruthy();
      expect(res.json().detail).toMatch(/x-access-token header/);
      expect(res.body).not.toContain(t.adminToken);
      // Even alongside a valid header the query token is refused.
      const both = await t.call('GET', url);
      expect(both.statusCode).toBe(401);
      const log = lines.join('');
      expect(log).toContain('/v1/me?');
      expect(log).toContain('[REDACTED]');
      expect(log).not.toContain(t.adminToken);
      expect(log).not.toContain(encodeURIComponent(t.adminToken));
    });
  }

  it('redacts on unknown paths and in error log lines too', async () => {
    lines.length = 0;
    const res = await t.call('GET', `/v1/nowhere?token=${t.adminToken}`, { token: null });
    expect([401, 404]).toContain(res.statusCode);
    const log = lines.join('');
    expect(log).not.toContain(t.adminToken);
  });

  it('leaves ordinary query parameters alone', async () => {
    const res = await t.call('GET', '/v1/ops/products?page=0&limit=5');
    expect(res.statusCode).toBe(200);
    expect(redactUrl('/v1/x?page=1&token=abc&Access_Token=d&limit=2')).toBe(
      '/v1/x?page=1&token=[REDACTED]&Access_Token=[REDACTED]&limit=2',
    );
    expect(redactUrl('/v1/x')).toBe('/v1/x');
    // Accepted where a platform can only use the URL (an OAuth callback's code, BigCommerce's signed payload), never logged.
    expect(redactUrl('/v1/channels/bigcommerce/load?signed_payload_jwt=a.b.c&x=1')).toBe(
      '/v1/channels/bigcommerce/load?signed_payload_jwt=[REDACTED]&x=1',
    );
    expect(redactUrl('/v1/channels/bigcommerce/auth?code=qr6h&context=stores/abc')).toBe(
      '/v1/channels/bigcommerce/auth?code=[REDACTED]&context=stores/abc',
    );
  });
});
